#ifndef CJPEG_H
#define CJPEG_H

#include <stddef.h>
#include <stdint.h>

/// Result codes. libjpeg's own failures never longjmp past this library: they come back as CJPEG_ERR_LIBJPEG.
typedef enum {
    CJPEG_OK = 0,
    CJPEG_ERR_ARGUMENT = 1,
    CJPEG_ERR_LIBJPEG = 2,
    CJPEG_ERR_MEMORY = 3,
    /// The encoded image is already longer than the requested padded length.
    CJPEG_ERR_TOO_LARGE = 4,
    /// The gap to the requested length is 1 to 3 bytes, smaller than a comment segment.
    CJPEG_ERR_GAP_TOO_SMALL = 5,
} cjpeg_status;

typedef struct { uint8_t r, g, b; } cjpeg_rgb;

typedef enum {
    CJPEG_SHAPE_DISC = 0,
    CJPEG_SHAPE_RECT = 1,
    CJPEG_SHAPE_RING = 2,
    CJPEG_SHAPE_BAND = 3,
} cjpeg_shape_kind;

/// One shape in normalised image coordinates (0...1 on each axis, y down).
typedef struct {
    cjpeg_shape_kind kind;
    float x, y;        // centre
    float size;        // radius (disc, ring), half width (rect), half thickness (band)
    float size2;       // half height (rect), ring thickness, band angle in radians
    float alpha;       // 0...1
    cjpeg_rgb color;
} cjpeg_shape;

/// A procedural picture: a two-colour linear gradient, shapes over it, a vignette and grain.
typedef struct {
    cjpeg_rgb from;
    cjpeg_rgb to;
    float angle;       // gradient direction in radians
    float vignette;    // 0...1
    float grain;       // amplitude in 8-bit levels
    uint32_t noise_seed;
    const cjpeg_shape *shapes;
    int shape_count;
} cjpeg_scene;

/// Renders `scene` at width x height and encodes it as a baseline JPEG at `quality` (1...100).
/// With `padded_length` > 0 the output is padded with comment segments to exactly that many bytes.
/// On success `*out` is a malloc'd buffer the caller frees with cjpeg_free.
cjpeg_status cjpeg_encode_scene(const cjpeg_scene *scene, int width, int height, int quality,
                                size_t padded_length, uint8_t **out, size_t *out_length,
                                char *message, size_t message_capacity);

/// Decodes a whole JPEG to check it, reporting its pixel size. Corrupt or truncated data is an
/// error code, never a longjmp or exit.
cjpeg_status cjpeg_inspect(const uint8_t *data, size_t length, int *width, int *height,
                           char *message, size_t message_capacity);

void cjpeg_free(uint8_t *buffer);

#endif
