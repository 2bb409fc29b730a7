#ifndef CSCENERENDER_H
#define CSCENERENDER_H

// The demo server's pictures: procedural scenes and files padded to an exact length, encoded by
// CJPEG. Only the server links this; the browser never renders a scene.
#include "cjpeg.h"

/// A demo photograph: a landscape (sky, hills, water or meadow, trees, posts) drawn from `seed`,
/// photographed with a focus, a shake and an exposure. Sizes are fractions of the long edge, so the
/// same values look the same at every output size.
typedef struct {
    uint64_t seed;
    /// Defocus: the Gaussian blur's sigma; 0 is sharp.
    float defocus;
    /// Horizontal camera shake: the length of the smear; 0 is none.
    float motion;
    /// Exposure as a multiplier; 1 as metered (0 reads as 1).
    float gain;
    /// Sensor noise in 8-bit levels, added after the blur.
    float grain;
} cjpeg_landscape;

/// Renders a landscape a row at a time, without holding the picture.
typedef struct cjpeg_landscape_renderer cjpeg_landscape_renderer;

/// Lays out the scene for width x height; NULL for bad sizes or no memory.
cjpeg_landscape_renderer *cjpeg_landscape_start(const cjpeg_landscape *landscape, int width, int height);
/// Writes row `row` (0...height-1) as width * 3 RGB bytes; rows may come in any order.
void cjpeg_landscape_row(cjpeg_landscape_renderer *renderer, int row, uint8_t *pixels);
void cjpeg_landscape_finish(cjpeg_landscape_renderer *renderer);

/// Renders `landscape` at width x height and encodes it as a baseline JPEG at `quality` (1...100).
/// With `padded_length` > 0 the output is padded with comment segments to exactly that many bytes.
/// On success `*out` is a malloc'd buffer the caller frees with cjpeg_free.
cjpeg_status cjpeg_encode_landscape(const cjpeg_landscape *landscape, int width, int height, int quality,
                                    size_t padded_length, uint8_t **out, size_t *out_length,
                                    char *message, size_t message_capacity);

/// Encodes packed RGB as a baseline JPEG padded with comment segments to exactly `padded_length` bytes,
/// for an exact size tried at several qualities without rendering again.
cjpeg_status cjpeg_encode_rgb_padded(const uint8_t *pixels, int width, int height, int quality, size_t padded_length,
                                     uint8_t **out, size_t *out_length, char *message, size_t message_capacity);

/// The demo's DNGs: `rgb` (sRGB, width x height) mosaicked into an RGGB Bayer pattern of 16-bit linear
/// samples, little-endian, into `out` (width * height * 2 bytes): each site keeps its own colour.
void cjpeg_mosaic_rggb16(const uint8_t *rgb, int width, int height, uint8_t *out);

/// The stored pixels of an upright width x height picture whose EXIF orientation is 6 (shown turned a
/// quarter clockwise): the picture turned a quarter anticlockwise, height x width, into `out`.
void cjpeg_turn_for_orientation6(const uint8_t *rgb, int width, int height, uint8_t *out);

#endif
