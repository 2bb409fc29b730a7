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

// A file with no name in `directory` (O_TMPFILE), to be locked and labelled before it gets one, so no
// other process and no kill can ever see it named but unlabelled. -1 with errno where the system or the
// file system has none (EOPNOTSUPP, EISDIR, EINVAL): create it by name then.
int cfa_open_unnamed(int directory, int mode);

// Gives the unnamed `file` the name `name` in `directory`; fails with EEXIST if something has it.
int cfa_link_unnamed(int file, int directory, const char *name);

#endif
