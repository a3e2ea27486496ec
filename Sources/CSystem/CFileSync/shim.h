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

#include <fcntl.h>
#include <stdio.h>

#if defined(__linux__)
// Linux's values, spelled out: the C library declares these only for _GNU_SOURCE, which a
// header already imported as a module may not have seen.
#ifndef O_TMPFILE
#define O_TMPFILE (020000000 | O_DIRECTORY)
#endif
#ifndef AT_EMPTY_PATH
#define AT_EMPTY_PATH 0x1000
#endif
#endif

/// Opens a new file with no name in the folder open as `directory` (a descriptor), for writing
/// (O_TMPFILE): it gets a name only through mart_link_unnamed, and vanishes when closed without
/// one. Returns the descriptor, or -1 with errno set (EOPNOTSUPP, EISDIR or EINVAL where the
/// filesystem or the system cannot make one).
static inline int mart_open_unnamed(int directory) {
#if defined(__linux__)
  return openat(directory, ".", O_TMPFILE | O_WRONLY | O_CLOEXEC, 0644);
#else
  (void)directory;
  errno = EOPNOTSUPP;
  return -1;
#endif
}

/// Gives the unnamed file open as `fd` (mart_open_unnamed) the name `path`, relative to the
/// folder open as `directory` (AT_FDCWD: to the working directory), which must not exist
/// (EEXIST otherwise). Tries linkat(AT_EMPTY_PATH), which needs CAP_DAC_READ_SEARCH, then the
/// file's /proc/self/fd entry. Returns 0, or -1 with errno set.
static inline int mart_link_unnamed(int fd, int directory, const char *path) {
#if defined(__linux__)
  if (linkat(fd, "", directory, path, AT_EMPTY_PATH) == 0) return 0;
  if (errno != EPERM && errno != ENOENT && errno != EINVAL) return -1;
  char entry[64];
  snprintf(entry, sizeof entry, "/proc/self/fd/%d", fd);
  return linkat(AT_FDCWD, entry, directory, path, AT_SYMLINK_FOLLOW);
#else
  (void)fd;
  (void)directory;
  (void)path;
  errno = EOPNOTSUPP;
  return -1;
#endif
}

#endif
