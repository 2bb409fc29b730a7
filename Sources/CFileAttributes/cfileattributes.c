// The attribute wrappers are static inline in the header; the unnamed-file pair lives here because
// O_TMPFILE needs _GNU_SOURCE before the first system header.
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>
#include "cfileattributes.h"

int cfa_open_unnamed(int directory, int mode) {
#if defined(O_TMPFILE)
    return openat(directory, ".", O_TMPFILE | O_WRONLY | O_APPEND | O_CLOEXEC, (mode_t)mode);
#else
    (void)directory; (void)mode;
    errno = EOPNOTSUPP;
    return -1;
#endif
}

int cfa_link_unnamed(int file, int directory, const char *name) {
#if defined(__linux__)
    char path[64];
    snprintf(path, sizeof path, "/proc/self/fd/%d", file);
    return linkat(AT_FDCWD, path, directory, name, AT_SYMLINK_FOLLOW);
#else
    (void)file; (void)directory; (void)name;
    errno = EOPNOTSUPP;
    return -1;
#endif
}
