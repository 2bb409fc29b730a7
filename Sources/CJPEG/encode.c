#include "cjpeg.h"

#include <setjmp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <jpeglib.h>

#include "internal.h"

typedef struct {
    unsigned char *buffer;
    unsigned long length;
} cjpeg_memory_output;

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

cjpeg_status cjpeg_encode_rows(int width, int height, int quality, int progressive, int orientation,
                               cjpeg_row_source source, const void *context, uint8_t **out, size_t *out_length,
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

static void buffer_rows(const void *context, int width, int height, int row, uint8_t *pixels) {
    (void)height;
    memcpy(pixels, (const uint8_t *)context + (size_t)row * (size_t)width * 3, (size_t)width * 3);
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
    return cjpeg_encode_rows(width, height, quality, progressive, orientation, buffer_rows, pixels, out, out_length,
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

cjpeg_status cjpeg_header_size(const uint8_t *data, size_t length, int *width, int *height) {
    if (data == NULL || length == 0 || width == NULL || height == NULL) return CJPEG_ERR_ARGUMENT;
    struct jpeg_decompress_struct cinfo;
    cjpeg_error_manager errors;
    memset(&cinfo, 0, sizeof(cinfo));
    cinfo.err = cjpeg_errors(&errors);
    if (setjmp(errors.escape)) {
        jpeg_destroy_decompress(&cinfo);
        return CJPEG_ERR_LIBJPEG;
    }
    jpeg_CreateDecompress(&cinfo, JPEG_LIB_VERSION, sizeof(cinfo));
    jpeg_mem_src(&cinfo, data, (unsigned long)length);
    jpeg_read_header(&cinfo, TRUE);
    *width = (int)cinfo.image_width;
    *height = (int)cinfo.image_height;
    jpeg_destroy_decompress(&cinfo);
    return CJPEG_OK;
}
