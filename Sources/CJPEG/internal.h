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

#include "cjpeg.h"

/// Buffers a decode owns; the decode driver frees them on every exit path.
typedef struct {
    uint8_t *row;
    uint64_t *sums;
    int *column_bin;
    int *column_count;
    uint8_t *small;
    uint8_t *result;
} decode_buffers;

/// The part of a decode that differs (a fitted preview, a 100% region): given a decompressor whose
/// header is read and within the caps, it starts, decodes and finishes or aborts it, and leaves the
/// pixels in `buffers->result` and their size in info->width and info->height. It runs under
/// `cjpeg_decode_with`'s setjmp, so libjpeg's errors inside it land there.
typedef cjpeg_status (*cjpeg_decode_body)(j_decompress_ptr cinfo, decode_buffers *buffers, cjpeg_decode_info *info,
                                          const void *request, char *message, size_t message_capacity);

/// Runs a decode: see decode.c.
cjpeg_status cjpeg_decode_with(const uint8_t *data, size_t length, uint64_t max_pixels, cjpeg_decode_body body,
                               const void *request, uint8_t **out, cjpeg_decode_info *info,
                               char *message, size_t message_capacity);

/// Where output pixel (x, y) of an upright image comes from in the stored image, which is
/// `stored_width` wide and `stored_height` high, as a byte offset into packed RGB.
size_t cjpeg_stored_index(int orientation, int x, int y, int stored_width, int stored_height);

/// One decoded pixel as RGB: CMYK is multiplied out (Adobe writes it inverted, each channel already
/// 255 - ink; others write ink).
void cjpeg_pixel_rgb(const uint8_t *pixel, int cmyk, int inverted, unsigned rgb[3]);

#endif
