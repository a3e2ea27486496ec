#ifndef MART_CFILESYNC_SHIM_H
#define MART_CFILESYNC_SHIM_H

#if defined(__linux__)
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <unistd.h>

/// Flushes every file of the filesystem that holds `fd` to stable storage (syncfs(2)): one
/// barrier for a whole directory of freshly written files. Returns 0, or -1 with errno set.
static inline int mart_syncfs(int fd) { return syncfs(fd); }
#define MART_HAS_SYNCFS 1
#else
/// Not available here: callers flush file by file.
static inline int mart_syncfs(int fd) { (void)fd; return -1; }
#define MART_HAS_SYNCFS 0
#endif

/// Whether `mart_syncfs` flushes a filesystem on this platform.
static inline int mart_has_syncfs(void) { return MART_HAS_SYNCFS; }

#endif
