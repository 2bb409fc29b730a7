#ifndef CFILEATTRIBUTES_H
#define CFILEATTRIBUTES_H

#include <sys/types.h>
#include <sys/xattr.h>

// Extended attributes on an open file, with one signature on Linux and macOS.
// Each returns what the system call returns: a length or 0 on success, -1 with errno on failure.

static inline ssize_t cfa_get(int fd, const char *name, void *value, size_t size) {
#if defined(__APPLE__)
    return fgetxattr(fd, name, value, size, 0, 0);
#else
    return fgetxattr(fd, name, value, size);
#endif
}

static inline int cfa_set(int fd, const char *name, const void *value, size_t size) {
#if defined(__APPLE__)
    return fsetxattr(fd, name, value, size, 0, 0);
#else
    return fsetxattr(fd, name, value, size, 0);
#endif
}

static inline int cfa_remove(int fd, const char *name) {
#if defined(__APPLE__)
    return fremovexattr(fd, name, 0);
#else
    return fremovexattr(fd, name);
#endif
}

#endif
