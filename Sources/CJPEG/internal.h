#ifndef CJPEG_INTERNAL_H
#define CJPEG_INTERNAL_H

#include <setjmp.h>
#include <stddef.h>
#include <stdio.h>
#include <jpeglib.h>

/// libjpeg's standard error manager, but failing by longjmp to `escape` (inside C) and printing nothing.
typedef struct {
    struct jpeg_error_mgr base;
    jmp_buf escape;
    char message[JMSG_LENGTH_MAX];
    /// Warnings that mean damaged data, as opposed to merely unusual data.
    long damage_warnings;
} cjpeg_error_manager;

struct jpeg_error_mgr *cjpeg_errors(cjpeg_error_manager *errors);

/// Copies `text` into the caller's message buffer, truncated; does nothing without one.
void copy_message(char *message, size_t capacity, const char *text);

#endif
