#ifndef CPNG_H
#define CPNG_H

#include <stddef.h>
#include <stdint.h>

// Encodes packed 8-bit RGB as a PNG with every row filter on and zlib at `level` (0-9). On success
// returns 0 and sets *out to a malloc'd buffer of *length bytes the caller frees; on failure returns -1.
// libpng reports errors by longjmp: they are caught here and never cross into Swift.
int cpng_encode_rgb(const uint8_t *rgb, int width, int height, int level, uint8_t **out, size_t *length);

// The same with libpng's row filters `filters` (PNG_FILTER_NONE 0x08, SUB 0x10, UP 0x20, AVG 0x40,
// PAETH 0x80, or several: libpng picks per row) and, when `interlaced`, Adam7 interlacing.
int cpng_encode_rgb_with(const uint8_t *rgb, int width, int height, int level, int filters, int interlaced, uint8_t **out,
                         size_t *length);

// The same, padded to exactly `padded_length` bytes by a private ancillary chunk ("paDd", zeros) before
// IEND, which every reader skips: the demo server's PNG originals weigh what their metadata says. Returns
// -4 when the PNG alone is longer than `padded_length` less a chunk's 12 bytes.
int cpng_encode_rgb_padded(const uint8_t *rgb, int width, int height, int level, size_t padded_length, uint8_t **out,
                           size_t *length);

// Decodes a PNG to packed 8-bit RGB, transparency over mid grey. Returns 0 and sets *out to a malloc'd
// buffer of *width * *height * 3 bytes the caller frees; -1 for a damaged file (the reason in
// `message`), -2 when it declares more than max_pixels pixels (*width and *height say how many), -3
// when memory runs out. libpng's errors never cross into Swift.
int cpng_decode_rgb(const uint8_t *data, size_t length, uint64_t max_pixels, uint8_t **out, int *width, int *height,
                    char *message, size_t message_capacity);

// A PNG of 8-bit RGB, not interlaced, read a region at a time: its image data inflated whole by
// libdeflate when opened, its rows' filters undone in place as far down as a region asks.
typedef struct cpng_rows cpng_rows;

// Whether the PNG is one cpng_rows reads (8-bit RGB, not interlaced, sRGB's gamma or none, no tRNS), from
// its chunks' headers alone.
int cpng_rows_eligible(const uint8_t *data, size_t length);

// Opens the PNG: 0 and *out set; 1 when it is not one cpng_rows reads, or its data does not inflate to its
// rows at once (decode it with cpng_decode_rgb, which names what is wrong); -1 for damaged chunks (the
// reason in `message`: a CRC, a chunk past the end); -2 when it declares more than max_pixels pixels; -3
// when memory runs out.
int cpng_rows_open(const uint8_t *data, size_t length, uint64_t max_pixels, cpng_rows **out, int *width, int *height,
                   char *message, size_t message_capacity);

// Packed RGB of the rectangle into `out` (width * height * 3 bytes): 0, or -1 for a row with an unknown
// filter or a rectangle outside the picture. Safe to call from several threads.
int cpng_rows_region(cpng_rows *rows, int x, int y, int width, int height, uint8_t *out, char *message,
                     size_t message_capacity);

// How many rows, from the top, have had their filters undone.
int cpng_rows_ready(cpng_rows *rows);

void cpng_rows_free(cpng_rows *rows);

#endif
