#include "cpng.h"

#include <libdeflate.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// The common PNG a photographer exports (8-bit RGB, not interlaced), read for the loupe in two steps:
// its IDAT stream inflated whole by libdeflate (about four times zlib's speed, which libpng cannot use),
// then its rows' filters undone in place, in order, only as far down as a region asks. Hand-written:
// the chunk walk and the five row filters of the PNG specification, which libpng keeps behind its own
// zlib reader. Every other PNG goes to libpng (cpng_decode_rgb).

struct cpng_rows {
    pthread_mutex_t lock;
    int width, height;
    size_t stride;      // 1 + width * 3: a row's filter byte, then its pixels
    uint8_t *raw;       // every row, filtered; rows before `ready` unfiltered in place
    int ready;
};

static uint32_t be32(const uint8_t *p) {
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static const uint8_t signature[8] = {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A};

// Walks the chunks: IHDR's fields, the IDAT payloads' total length, and whether the picture is one this
// reader takes. Returns 1 when it is, 0 when libpng should read it, -1 when the chunks are damaged.
static int walk(const uint8_t *data, size_t length, int check_crc, int *width, int *height, size_t *idat_total,
                char *message, size_t message_capacity) {
    if (length < 8 + 25 || memcmp(data, signature, 8) != 0 || memcmp(data + 12, "IHDR", 4) != 0 || be32(data + 8) != 13) {
        snprintf(message, message_capacity, "no PNG header");
        return -1;
    }
    *width = (int)be32(data + 16);
    *height = (int)be32(data + 20);
    uint8_t depth = data[24], colour = data[25], interlace = data[28];
    int taken = depth == 8 && colour == 2 && interlace == 0 && *width > 0 && *height > 0;
    size_t position = 8, total = 0;
    int ended = 0;
    while (position + 12 <= length) {
        uint32_t size = be32(data + position);
        const uint8_t *type = data + position + 4;
        if (size > length - position - 12) {
            snprintf(message, message_capacity, "a chunk runs past the file's end");
            return -1;
        }
        int idat = memcmp(type, "IDAT", 4) == 0;
        if (check_crc && (idat || memcmp(type, "IHDR", 4) == 0)) {
            uint32_t crc = libdeflate_crc32(0, type, size + 4);
            if (crc != be32(data + position + 8 + size)) {
                snprintf(message, message_capacity, "%.4s chunk CRC error", (const char *)type);
                return -1;
            }
        }
        if (idat) total += size;
        // A gamma other than sRGB's is libpng's to convert, a transparent colour (tRNS) its to compose.
        if (memcmp(type, "tRNS", 4) == 0) taken = 0;
        if (memcmp(type, "gAMA", 4) == 0 && (size != 4 || be32(data + position + 8) < 45000 || be32(data + position + 8) > 45910)) taken = 0;
        position += 12 + (size_t)size;
        if (memcmp(type, "IEND", 4) == 0) {
            ended = 1;
            break;
        }
    }
    if (total == 0) {
        snprintf(message, message_capacity, "no image data");
        return -1;
    }
    (void)ended;  // data after a missing IEND is libpng's warning, not an error: the rows decide
    *idat_total = total;
    return taken;
}

int cpng_rows_eligible(const uint8_t *data, size_t length) {
    int width, height;
    size_t total;
    char message[8];
    return walk(data, length, 0, &width, &height, &total, message, sizeof message) == 1;
}

int cpng_rows_open(const uint8_t *data, size_t length, uint64_t max_pixels, cpng_rows **out, int *width, int *height,
                   char *message, size_t message_capacity) {
    *out = NULL;
    size_t total;
    int taken = walk(data, length, 1, width, height, &total, message, message_capacity);
    if (taken <= 0) return taken == 0 ? 1 : -1;
    if ((uint64_t)*width * (uint64_t)*height > max_pixels) return -2;
    size_t stride = 1 + (size_t)*width * 3, size = stride * (size_t)*height;
    uint8_t *stream = malloc(total);
    cpng_rows *rows = calloc(1, sizeof *rows);
    uint8_t *raw = malloc(size);
    struct libdeflate_decompressor *inflater = libdeflate_alloc_decompressor();
    if (!stream || !rows || !raw || !inflater) {
        free(stream);
        free(rows);
        free(raw);
        if (inflater) libdeflate_free_decompressor(inflater);
        return -3;
    }
    size_t position = 8, filled = 0;
    while (position + 12 <= length) {
        uint32_t chunk = be32(data + position);
        if (memcmp(data + position + 4, "IDAT", 4) == 0) {
            memcpy(stream + filled, data + position + 8, chunk);
            filled += chunk;
        }
        if (memcmp(data + position + 4, "IEND", 4) == 0) break;
        position += 12 + (size_t)chunk;
    }
    size_t inflated = 0;
    enum libdeflate_result result = libdeflate_zlib_decompress(inflater, stream, filled, raw, size, &inflated);
    libdeflate_free_decompressor(inflater);
    free(stream);
    if (result != LIBDEFLATE_SUCCESS || inflated != size) {
        // libpng decides: it takes some streams libdeflate will not (data after the stream's end), and
        // names what is wrong with the rest.
        free(raw);
        free(rows);
        return 1;
    }
    pthread_mutex_init(&rows->lock, NULL);
    rows->width = *width;
    rows->height = *height;
    rows->stride = stride;
    rows->raw = raw;
    *out = rows;
    return 0;
}

// The predictor without branches, which the compiler turns into conditional moves: a photo's Paeth rows
// mispredict the specification's if-else chain often (a third more time at 24 MP).
static inline uint8_t paeth(int a, int b, int c) {
    int p = b - c, q = a - c;
    int pa = abs(p), pb = abs(q), pc = abs(p + q);
    int b_or_c = pc < pb ? c : b;
    return (uint8_t)(pb < pa || pc < pa ? b_or_c : a);
}


// Undoes row `y`'s filter in place, the row above already undone. Returns 0, or -1 for an unknown filter.
static int unfilter(cpng_rows *rows, int y) {
    uint8_t *row = rows->raw + (size_t)y * rows->stride;
    const uint8_t *up = y > 0 ? row - rows->stride + 1 : NULL;
    uint8_t filter = row[0];
    uint8_t *x = row + 1;
    size_t n = rows->stride - 1;
    switch (filter) {
    case 0:
        break;
    case 1:
        for (size_t i = 3; i < n; i++) x[i] = (uint8_t)(x[i] + x[i - 3]);
        break;
    case 2:
        if (up)
            for (size_t i = 0; i < n; i++) x[i] = (uint8_t)(x[i] + up[i]);
        break;
    case 3:
        if (up) {
            for (size_t i = 0; i < 3; i++) x[i] = (uint8_t)(x[i] + (up[i] >> 1));
            for (size_t i = 3; i < n; i++) x[i] = (uint8_t)(x[i] + ((x[i - 3] + up[i]) >> 1));
        } else {
            for (size_t i = 3; i < n; i++) x[i] = (uint8_t)(x[i] + (x[i - 3] >> 1));
        }
        break;
    case 4:
        if (up) {
            for (size_t i = 0; i < 3; i++) x[i] = (uint8_t)(x[i] + up[i]);
            for (size_t i = 3; i < n; i++) x[i] = (uint8_t)(x[i] + paeth(x[i - 3], up[i], up[i - 3]));
        } else {
            for (size_t i = 3; i < n; i++) x[i] = (uint8_t)(x[i] + x[i - 3]);
        }
        break;
    default:
        return -1;
    }
    row[0] = 0;
    return 0;
}

int cpng_rows_region(cpng_rows *rows, int x, int y, int width, int height, uint8_t *out, char *message,
                     size_t message_capacity) {
    if (x < 0 || y < 0 || width <= 0 || height <= 0 || x + width > rows->width || y + height > rows->height) {
        snprintf(message, message_capacity, "a region outside the picture");
        return -1;
    }
    pthread_mutex_lock(&rows->lock);
    while (rows->ready < y + height) {
        if (unfilter(rows, rows->ready) != 0) {
            snprintf(message, message_capacity, "row %d has an unknown filter", rows->ready);
            pthread_mutex_unlock(&rows->lock);
            return -1;
        }
        rows->ready++;
    }
    pthread_mutex_unlock(&rows->lock);
    // Rows before `ready` are never written again: read without the lock.
    for (int row = 0; row < height; row++) {
        memcpy(out + (size_t)row * width * 3, rows->raw + (size_t)(y + row) * rows->stride + 1 + (size_t)x * 3, (size_t)width * 3);
    }
    return 0;
}

int cpng_rows_ready(cpng_rows *rows) {
    pthread_mutex_lock(&rows->lock);
    int ready = rows->ready;
    pthread_mutex_unlock(&rows->lock);
    return ready;
}

void cpng_rows_free(cpng_rows *rows) {
    if (!rows) return;
    pthread_mutex_destroy(&rows->lock);
    free(rows->raw);
    free(rows);
}
