#ifndef CPNG_H
#define CPNG_H

#include <stddef.h>
#include <stdint.h>

// Encodes packed 8-bit RGB as a PNG with every row filter on and zlib at `level` (0-9). On success
// returns 0 and sets *out to a malloc'd buffer of *length bytes the caller frees; on failure returns -1.
// libpng reports errors by longjmp: they are caught here and never cross into Swift.
int cpng_encode_rgb(const uint8_t *rgb, int width, int height, int level, uint8_t **out, size_t *length);

#endif
