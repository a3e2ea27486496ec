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

#include <errno.h>
#include <stddef.h>
#include <unistd.h>

/// Writes all `length` bytes of `bytes` to `fd`, going on after short writes and EINTR.
/// Returns 0, or -1 with errno set by the write that failed.
static inline int mart_write_all(int fd, const void *bytes, size_t length) {
  const char *next = (const char *)bytes;
  while (length > 0) {
    ssize_t written = write(fd, next, length);
    if (written < 0) {
      if (errno == EINTR) continue;
      return -1;
    }
    next += written;
    length -= (size_t)written;
  }
  return 0;
}

/// Whether `mart_syncfs` flushes a filesystem on this platform.
static inline int mart_has_syncfs(void) { return MART_HAS_SYNCFS; }

#endif
