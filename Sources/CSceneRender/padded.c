// The demo library's files: a scene or given pixels encoded by CJPEG's encoder, then padded with
// comment segments to an exact length, so a listed size is the size served.
#include "cscenerender.h"

#include <stdlib.h>
#include <string.h>
#include <stdio.h>

/// Copies `text` into the caller's message buffer, truncated; does nothing without one.
static void copy_message(char *message, size_t capacity, const char *text) {
    if (message == NULL || capacity == 0) return;
    snprintf(message, capacity, "%s", text);
}

/// Offset just past SOI and a leading APP0 (JFIF) segment, where comment segments may go.
static size_t comment_insertion_offset(const uint8_t *jpeg, size_t length) {
    size_t offset = 2;
    if (length >= offset + 4 && jpeg[offset] == 0xFF && jpeg[offset + 1] == 0xE0) {
        size_t segment = ((size_t)jpeg[offset + 2] << 8) | jpeg[offset + 3];
        if (offset + 2 + segment <= length) offset += 2 + segment;
    }
    return offset;
}

static const char padding_text[] = "photopick demo library padding. ";

/// Inserts COM segments so the file is exactly `target` bytes long.
static cjpeg_status pad_to_length(uint8_t *jpeg, size_t length, size_t target, uint8_t **out) {
    if (length > target) return CJPEG_ERR_TOO_LARGE;
    size_t gap = target - length;
    if (gap > 0 && gap < 4) return CJPEG_ERR_GAP_TOO_SMALL;
    uint8_t *padded = malloc(target);
    if (padded == NULL) return CJPEG_ERR_MEMORY;
    size_t head = comment_insertion_offset(jpeg, length);
    memcpy(padded, jpeg, head);
    size_t cursor = head;
    size_t text_length = sizeof(padding_text) - 1;
    while (gap > 0) {
        // A segment is 4 bytes of marker and length plus up to 65533 payload bytes. Never leave a
        // remainder of 1...3 bytes, which no segment could fill.
        size_t segment = gap > 65537 ? 65537 : gap;
        if (gap - segment > 0 && gap - segment < 4) segment -= 4;
        size_t payload = segment - 4;
        padded[cursor++] = 0xFF;
        padded[cursor++] = 0xFE;
        padded[cursor++] = (uint8_t)((payload + 2) >> 8);
        padded[cursor++] = (uint8_t)((payload + 2) & 0xFF);
        for (size_t index = 0; index < payload; index++) {
            padded[cursor++] = (uint8_t)padding_text[index % text_length];
        }
        gap -= segment;
    }
    memcpy(padded + cursor, jpeg + head, length - head);
    *out = padded;
    return CJPEG_OK;
}

/// Rows of a landscape; the renderer is the encoder's context, passed through as const.
static void landscape_rows(const void *context, int width, int height, int row, uint8_t *pixels) {
    (void)width;
    (void)height;
    cjpeg_landscape_row((cjpeg_landscape_renderer *)context, row, pixels);
}

static void buffer_rows(const void *context, int width, int height, int row, uint8_t *pixels) {
    (void)height;
    memcpy(pixels, (const uint8_t *)context + (size_t)row * (size_t)width * 3, (size_t)width * 3);
}

/// Encodes rows from `source` as a baseline JPEG, padded with comment segments to exactly
/// `padded_length` bytes when that is not 0.
static cjpeg_status encode_padded(int width, int height, int quality, cjpeg_row_source source, const void *context,
                                  size_t padded_length, uint8_t **out, size_t *out_length,
                                  char *message, size_t message_capacity) {
    uint8_t *buffer = NULL;
    size_t buffer_length = 0;
    cjpeg_status status = cjpeg_encode_rows(width, height, quality, 0, 0, source, context, &buffer, &buffer_length,
                                            message, message_capacity);
    if (status != CJPEG_OK) return status;
    if (padded_length == 0) {
        *out = buffer;
        *out_length = buffer_length;
        return CJPEG_OK;
    }
    uint8_t *padded = NULL;
    status = pad_to_length(buffer, buffer_length, padded_length, &padded);
    free(buffer);
    if (status != CJPEG_OK) {
        copy_message(message, message_capacity,
                     status == CJPEG_ERR_MEMORY ? "out of memory" : "encoded image does not fit the requested length");
        return status;
    }
    *out = padded;
    *out_length = padded_length;
    return CJPEG_OK;
}

cjpeg_status cjpeg_encode_landscape(const cjpeg_landscape *landscape, int width, int height, int quality,
                                    size_t padded_length, uint8_t **out, size_t *out_length,
                                    char *message, size_t message_capacity) {
    if (landscape == NULL || out == NULL || out_length == NULL || width <= 0 || height <= 0 ||
        width > 65500 || height > 65500 || quality < 1 || quality > 100) {
        copy_message(message, message_capacity, "invalid encoder arguments");
        return CJPEG_ERR_ARGUMENT;
    }
    *out = NULL;
    *out_length = 0;
    cjpeg_landscape_renderer *renderer = cjpeg_landscape_start(landscape, width, height);
    if (renderer == NULL) {
        copy_message(message, message_capacity, "out of memory");
        return CJPEG_ERR_MEMORY;
    }
    cjpeg_status status = encode_padded(width, height, quality, landscape_rows, renderer, padded_length, out, out_length,
                                        message, message_capacity);
    cjpeg_landscape_finish(renderer);
    return status;
}

cjpeg_status cjpeg_encode_rgb_padded(const uint8_t *pixels, int width, int height, int quality, size_t padded_length,
                                     uint8_t **out, size_t *out_length, char *message, size_t message_capacity) {
    if (pixels == NULL || out == NULL || out_length == NULL || width <= 0 || height <= 0 ||
        width > 65500 || height > 65500 || quality < 1 || quality > 100) {
        copy_message(message, message_capacity, "invalid encoder arguments");
        return CJPEG_ERR_ARGUMENT;
    }
    *out = NULL;
    *out_length = 0;
    return encode_padded(width, height, quality, buffer_rows, pixels, padded_length, out, out_length, message, message_capacity);
}

