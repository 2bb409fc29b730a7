#ifndef CPNG_H
#define CPNG_H

#include <stddef.h>
#include <stdint.h>

// Encodes packed 8-bit RGB as a PNG with every row filter on and zlib at `level` (0-9). On success
// returns 0 and sets *out to a malloc'd buffer of *length bytes the caller frees; on failure returns -1.
// libpng reports errors by longjmp: they are caught here and never cross into Swift.
int cpng_encode_rgb(const uint8_t *rgb, int width, int height, int level, uint8_t **out, size_t *length);

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

#endif
