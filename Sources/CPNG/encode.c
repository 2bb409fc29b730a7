#include "cpng.h"

#include <png.h>
#include <zlib.h>
#include <stdlib.h>
#include <string.h>

struct buffer {
    uint8_t *bytes;
    size_t length;
    size_t capacity;
    int failed;
};

static void append(png_structp png, png_bytep data, png_size_t count) {
    struct buffer *buffer = png_get_io_ptr(png);
    if (buffer->failed) return;
    if (buffer->length + count > buffer->capacity) {
        size_t capacity = buffer->capacity ? buffer->capacity : 1 << 16;
        while (capacity < buffer->length + count) capacity *= 2;
        uint8_t *grown = realloc(buffer->bytes, capacity);
        if (!grown) {
            buffer->failed = 1;
            return;
        }
        buffer->bytes = grown;
        buffer->capacity = capacity;
    }
    memcpy(buffer->bytes + buffer->length, data, count);
    buffer->length += count;
}

static void flush(png_structp png) { (void)png; }

int cpng_encode_rgb(const uint8_t *rgb, int width, int height, int level, uint8_t **out, size_t *length) {
    return cpng_encode_rgb_with(rgb, width, height, level, PNG_ALL_FILTERS, 0, out, length);
}

int cpng_encode_rgb_with(const uint8_t *rgb, int width, int height, int level, int filters, int interlaced, uint8_t **out,
                         size_t *length) {
    if (width <= 0 || height <= 0) return -1;
    png_structp png = png_create_write_struct(PNG_LIBPNG_VER_STRING, NULL, NULL, NULL);
    if (!png) return -1;
    png_infop info = png_create_info_struct(png);
    // volatile: read after a longjmp back into this frame.
    struct buffer *volatile buffer = calloc(1, sizeof(struct buffer));
    if (!info || !buffer) {
        png_destroy_write_struct(&png, info ? &info : NULL);
        free(buffer);
        return -1;
    }
    if (setjmp(png_jmpbuf(png))) {
        png_destroy_write_struct(&png, &info);
        free(buffer->bytes);
        free(buffer);
        return -1;
    }
    // One allocation as large as the raw pixels, which a PNG of them does not pass: growing by doubling
    // left every smaller generation resident in the heap (a 4K view's PNG held 32 MB for 12).
    // Pages never written are never resident.
    buffer->capacity = (size_t)width * (size_t)height * 3 + (size_t)height + 65536;
    buffer->bytes = malloc(buffer->capacity);
    if (!buffer->bytes) buffer->capacity = 0;
    png_set_write_fn(png, buffer, append, flush);
    png_set_compression_level(png, level);
    png_set_filter(png, 0, filters);
    png_set_IHDR(png, info, (png_uint_32)width, (png_uint_32)height, 8, PNG_COLOR_TYPE_RGB,
                 interlaced ? PNG_INTERLACE_ADAM7 : PNG_INTERLACE_NONE, PNG_COMPRESSION_TYPE_DEFAULT, PNG_FILTER_TYPE_DEFAULT);
    png_write_info(png, info);
    // Adam7's seven passes each read every row.
    for (int pass = png_set_interlace_handling(png); pass > 0; pass--) {
        for (int row = 0; row < height; row++) {
            png_write_row(png, (png_const_bytep)(rgb + (size_t)row * (size_t)width * 3));
        }
    }
    png_write_end(png, NULL);
    png_destroy_write_struct(&png, &info);
    if (buffer->failed) {
        free(buffer->bytes);
        free(buffer);
        return -1;
    }
    *out = buffer->bytes;
    *length = buffer->length;
    free(buffer);
    return 0;
}

int cpng_encode_rgb_padded(const uint8_t *rgb, int width, int height, int level, size_t padded_length, uint8_t **out,
                           size_t *length) {
    uint8_t *png = NULL;
    size_t written = 0;
    if (cpng_encode_rgb(rgb, width, height, level, &png, &written) != 0) return -1;
    // The IEND chunk is the file's last 12 bytes; the padding chunk goes before it.
    if (written == padded_length) {
        *out = png;
        *length = written;
        return 0;
    }
    if (written < 12 || padded_length < written + 12) {
        free(png);
        return -4;
    }
    uint8_t *padded = calloc(1, padded_length);
    if (!padded) {
        free(png);
        return -1;
    }
    size_t body = written - 12, data = padded_length - written - 12;
    memcpy(padded, png, body);
    uint8_t *chunk = padded + body;
    chunk[0] = (uint8_t)(data >> 24);
    chunk[1] = (uint8_t)(data >> 16);
    chunk[2] = (uint8_t)(data >> 8);
    chunk[3] = (uint8_t)data;
    // Ancillary, private, safe to copy: every reader skips it.
    memcpy(chunk + 4, "paDd", 4);
    uLong crc = crc32(0L, chunk + 4, (uInt)(4));
    // The data is zeros, fed to the CRC in pieces a uInt holds.
    static const uint8_t zeros[65536];
    for (size_t left = data; left > 0;) {
        size_t piece = left < sizeof zeros ? left : sizeof zeros;
        crc = crc32(crc, zeros, (uInt)piece);
        left -= piece;
    }
    uint8_t *tail = chunk + 8 + data;
    tail[0] = (uint8_t)(crc >> 24);
    tail[1] = (uint8_t)(crc >> 16);
    tail[2] = (uint8_t)(crc >> 8);
    tail[3] = (uint8_t)crc;
    memcpy(tail + 4, png + body, 12);
    free(png);
    *out = padded;
    *length = padded_length;
    return 0;
}
