#include "cjpeg.h"

#include <math.h>
#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

#include "internal.h"

/// Offset just past SOI and a leading APP0 (JFIF) segment, where comment segments may go.
static size_t comment_insertion_offset(const uint8_t *jpeg, size_t length) {
    size_t offset = 2;
    if (length >= offset + 4 && jpeg[offset] == 0xFF && jpeg[offset + 1] == 0xE0) {
        size_t segment = ((size_t)jpeg[offset + 2] << 8) | jpeg[offset + 3];
        if (offset + 2 + segment <= length) offset += 2 + segment;
    }
    return offset;
}

typedef struct {
    unsigned char *buffer;
    unsigned long length;
} cjpeg_memory_output;

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

/// Writes an EXIF APP1 segment holding only IFD0's Orientation tag (big-endian TIFF).
static void write_orientation(j_compress_ptr cinfo, int orientation) {
    const JOCTET exif[] = {
        'E', 'x', 'i', 'f', 0, 0,
        'M', 'M', 0, 42, 0, 0, 0, 8,            // TIFF header, IFD0 at offset 8
        0, 1,                                    // one entry
        0x01, 0x12, 0, 3, 0, 0, 0, 1,            // Orientation, SHORT, count 1
        0, (JOCTET)orientation, 0, 0,            // the value, left-justified
        0, 0, 0, 0,                              // no next IFD
    };
    jpeg_write_marker(cinfo, JPEG_APP0 + 1, exif, sizeof(exif));
}

/// Supplies row `row` (width * 3 RGB bytes) of the picture being encoded.
typedef void (*row_source)(const void *context, int width, int height, int row, uint8_t *pixels);

/// Encodes width x height RGB rows from `source` into a malloc'd buffer.
static cjpeg_status encode_image(int width, int height, int quality, int progressive, int orientation,
                                 row_source source, const void *context, uint8_t **out, size_t *out_length,
                                 char *message, size_t message_capacity) {
    struct jpeg_compress_struct cinfo;
    cjpeg_error_manager errors;
    // libjpeg writes the output pointer and size through their addresses; they live on the heap
    // so that their values are well defined after a longjmp back into this frame.
    cjpeg_memory_output *output = calloc(1, sizeof(cjpeg_memory_output));
    uint8_t *volatile row = NULL;
    if (output == NULL) {
        copy_message(message, message_capacity, "out of memory");
        return CJPEG_ERR_MEMORY;
    }

    memset(&cinfo, 0, sizeof(cinfo));
    cinfo.err = cjpeg_errors(&errors);
    if (setjmp(errors.escape)) {
        copy_message(message, message_capacity, errors.message);
        // The memory destination frees its old buffer when it grows and reports the current
        // one only on termination: terminate it so the buffer freed here is the live one.
        if (cinfo.dest != NULL) cinfo.dest->term_destination((j_compress_ptr)&cinfo);
        jpeg_destroy_compress(&cinfo);
        free(output->buffer);
        free(output);
        free(row);
        return CJPEG_ERR_LIBJPEG;
    }
    jpeg_CreateCompress(&cinfo, JPEG_LIB_VERSION, sizeof(cinfo));
    jpeg_mem_dest(&cinfo, &output->buffer, &output->length);
    cinfo.image_width = (JDIMENSION)width;
    cinfo.image_height = (JDIMENSION)height;
    cinfo.input_components = 3;
    cinfo.in_color_space = JCS_RGB;
    jpeg_set_defaults(&cinfo);
    jpeg_set_quality(&cinfo, quality, TRUE);
    if (progressive) jpeg_simple_progression(&cinfo);
    jpeg_start_compress(&cinfo, TRUE);
    if (orientation > 0) write_orientation(&cinfo, orientation);

    row = malloc((size_t)width * 3);
    if (row == NULL) {
        jpeg_abort_compress(&cinfo);
        cinfo.dest->term_destination(&cinfo);
        jpeg_destroy_compress(&cinfo);
        free(output->buffer);
        free(output);
        copy_message(message, message_capacity, "out of memory");
        return CJPEG_ERR_MEMORY;
    }
    while (cinfo.next_scanline < cinfo.image_height) {
        source(context, width, height, (int)cinfo.next_scanline, row);
        JSAMPROW rows[1] = { row };
        jpeg_write_scanlines(&cinfo, rows, 1);
    }
    jpeg_finish_compress(&cinfo);
    jpeg_destroy_compress(&cinfo);
    free(row);
    *out = output->buffer;
    *out_length = output->length;
    free(output);
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
static cjpeg_status encode_padded(int width, int height, int quality, row_source source, const void *context,
                                  size_t padded_length, uint8_t **out, size_t *out_length,
                                  char *message, size_t message_capacity) {
    uint8_t *buffer = NULL;
    size_t buffer_length = 0;
    cjpeg_status status = encode_image(width, height, quality, 0, 0, source, context, &buffer, &buffer_length,
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

cjpeg_status cjpeg_encode_rgb(const uint8_t *pixels, int width, int height, int quality, int progressive,
                              int orientation, uint8_t **out, size_t *out_length,
                              char *message, size_t message_capacity) {
    if (pixels == NULL || out == NULL || out_length == NULL || width <= 0 || height <= 0 ||
        width > 65500 || height > 65500 || quality < 1 || quality > 100 || orientation < 0 || orientation > 8) {
        copy_message(message, message_capacity, "invalid encoder arguments");
        return CJPEG_ERR_ARGUMENT;
    }
    *out = NULL;
    *out_length = 0;
    return encode_image(width, height, quality, progressive, orientation, buffer_rows, pixels, out, out_length,
                        message, message_capacity);
}

cjpeg_status cjpeg_inspect(const uint8_t *data, size_t length, int *width, int *height,
                           char *message, size_t message_capacity) {
    if (data == NULL || length == 0 || width == NULL || height == NULL) {
        copy_message(message, message_capacity, "invalid inspector arguments");
        return CJPEG_ERR_ARGUMENT;
    }
    struct jpeg_decompress_struct cinfo;
    cjpeg_error_manager errors;
    uint8_t *volatile row = NULL;
    memset(&cinfo, 0, sizeof(cinfo));
    cinfo.err = cjpeg_errors(&errors);
    if (setjmp(errors.escape)) {
        copy_message(message, message_capacity, errors.message);
        jpeg_destroy_decompress(&cinfo);
        free(row);
        return CJPEG_ERR_LIBJPEG;
    }
    jpeg_CreateDecompress(&cinfo, JPEG_LIB_VERSION, sizeof(cinfo));
    jpeg_mem_src(&cinfo, data, (unsigned long)length);
    jpeg_read_header(&cinfo, TRUE);
    jpeg_start_decompress(&cinfo);
    row = malloc((size_t)cinfo.output_width * (size_t)cinfo.output_components);
    if (row == NULL) {
        jpeg_destroy_decompress(&cinfo);
        copy_message(message, message_capacity, "out of memory");
        return CJPEG_ERR_MEMORY;
    }
    while (cinfo.output_scanline < cinfo.output_height) {
        JSAMPROW rows[1] = { row };
        jpeg_read_scanlines(&cinfo, rows, 1);
    }
    // libjpeg pads a truncated stream with a warning rather than an error; treat that as corrupt.
    long warnings = cinfo.err->num_warnings;
    jpeg_finish_decompress(&cinfo);
    *width = (int)cinfo.image_width;
    *height = (int)cinfo.image_height;
    jpeg_destroy_decompress(&cinfo);
    free(row);
    if (warnings > 0) {
        copy_message(message, message_capacity, "corrupt or truncated JPEG data");
        return CJPEG_ERR_LIBJPEG;
    }
    return CJPEG_OK;
}

void cjpeg_free(uint8_t *buffer) { free(buffer); }
