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
    /// The header claims more pixels than the decoder's cap allows.
    CJPEG_ERR_TOO_MANY_PIXELS = 6,
    /// The data does not start with a JPEG start-of-image marker.
    CJPEG_ERR_NOT_JPEG = 7,
    /// The data ends early or holds damaged entropy-coded segments.
    CJPEG_ERR_CORRUPT = 8,
} cjpeg_status;

/// Supplies row `row` (width * 3 RGB bytes) of the picture being encoded.
typedef void (*cjpeg_row_source)(const void *context, int width, int height, int row, uint8_t *pixels);

/// Encodes width x height RGB rows from `source` as a baseline JPEG (see cjpeg_encode_rgb for the
/// options), without the caller holding the picture. On success `*out` is a malloc'd buffer the
/// caller frees with cjpeg_free.
cjpeg_status cjpeg_encode_rows(int width, int height, int quality, int progressive, int orientation,
                               cjpeg_row_source source, const void *context, uint8_t **out, size_t *out_length,
                               char *message, size_t message_capacity);

/// Decodes a whole JPEG to check it, reporting its pixel size. Corrupt or truncated data is an
/// error code, never a longjmp or exit.
cjpeg_status cjpeg_inspect(const uint8_t *data, size_t length, int *width, int *height,
                           char *message, size_t message_capacity);

/// Reads only the header: the JPEG's pixel size as stored (before any EXIF orientation).
cjpeg_status cjpeg_header_size(const uint8_t *data, size_t length, int *width, int *height);

/// Encodes `width` x `height` packed RGB pixels; `progressive` selects libjpeg's progressive script,
/// and `orientation` 1...8 writes an EXIF segment with that Orientation (0 writes none).
cjpeg_status cjpeg_encode_rgb(const uint8_t *pixels, int width, int height, int quality, int progressive,
                              int orientation, uint8_t **out, size_t *out_length,
                              char *message, size_t message_capacity);

/// What a decode found and did.
typedef struct {
    /// The size the file declares, before orientation.
    int source_width, source_height;
    /// The EXIF orientation applied, 1...8 (1 when the file has none).
    int orientation;
    /// libjpeg's DCT scale: the image was decoded at scale_numerator / 8.
    int scale_numerator;
    /// The output's size, after orientation.
    int width, height;
    /// Whether the file is progressive.
    int progressive;
} cjpeg_decode_info;

/// Turns packed RGB pixels stored `stored_width` x `stored_height` upright per EXIF `orientation` (1...8)
/// into `out`, which holds as many pixels: width and height swapped for 5...8. For pixels decoded by
/// other libraries (TIFF, a RAW's preview) that name an orientation the same way.
void cjpeg_orient_rgb(const uint8_t *stored, int stored_width, int stored_height, int orientation, uint8_t *out);

/// The smallest n in 1...8 for which a DCT-scaled decode at n/8 (libjpeg rounds sizes up) is at least
/// target_width x target_height; 8 when even full size is smaller.
int cjpeg_scale_numerator(int source_width, int source_height, int target_width, int target_height);

/// The size, after orientation, of an image of source_width x source_height shown with `orientation`
/// and fitted inside box_width x box_height with its aspect kept; never larger than the image.
void cjpeg_fit(int source_width, int source_height, int orientation, int box_width, int box_height,
               int *width, int *height);

/// Decodes `data` to packed RGB fitted inside box_width x box_height (see cjpeg_fit), upright per its
/// EXIF orientation: a DCT-scaled decode at the smallest sufficient scale, then an area-averaging
/// downscale to the exact size. Files declaring more than `max_pixels` pixels are refused before any
/// allocation. On success `*out` is a malloc'd buffer of info->width * info->height * 3 bytes.
cjpeg_status cjpeg_decode_fit(const uint8_t *data, size_t length, int box_width, int box_height,
                              uint64_t max_pixels, uint8_t **out, cjpeg_decode_info *info,
                              char *message, size_t message_capacity);

/// How sharp the sharpest part of a picture is: packed RGB taken to grey at a long edge of 256 or less
/// and smoothed by a Gaussian of 1.2 pixels, then the standard deviation of its 3 x 3 Laplacian in each
/// of 6 x 6 tiles, relative to the tile's brightness (x 100); the best tile's. Higher is sharper; -1
/// for an image under 8 x 8 or no memory. `focus_x` and `focus_y` (each may be NULL) get the best
/// tile's centre as fractions of the width and height, 0.5 when no tile has detail.
double cjpeg_focus_score(const uint8_t *rgb, int width, int height, double *focus_x, double *focus_y);

/// The same measure taken to grey at a long edge of `edge` or less; at every pixel when `edge` is 0,
/// as the loupe's 100% view is judged.
double cjpeg_focus_score_at(const uint8_t *rgb, int width, int height, int edge, double *focus_x, double *focus_y);

/// Decodes only a region of the upright image (after EXIF orientation) at full size, for a 100% view:
/// rows above it are skipped (jpeg_skip_scanlines), columns beside it cropped (jpeg_crop_scanline) and
/// rows below never read, so a 24 MP original is never held whole. Pixels equal a full decode's. The
/// region is clipped to the image: `*out_x`, `*out_y` and info->width, info->height give what was
/// decoded. On success `*out` is a malloc'd buffer of info->width * info->height * 3 bytes.
cjpeg_status cjpeg_decode_region(const uint8_t *data, size_t length, int x, int y, int width, int height,
                                 uint64_t max_pixels, uint8_t **out, cjpeg_decode_info *info, int *out_x, int *out_y,
                                 char *message, size_t message_capacity);

/// cjpeg_decode_region into the caller's buffer of `capacity` bytes (at least the clipped region's
/// width * height * 3), so the pixels are never copied: for the loupe's bands.
cjpeg_status cjpeg_decode_region_into(const uint8_t *data, size_t length, int x, int y, int width, int height,
                                      uint64_t max_pixels, uint8_t *into, size_t capacity, cjpeg_decode_info *info,
                                      int *out_x, int *out_y, char *message, size_t message_capacity);

void cjpeg_free(uint8_t *buffer);

#endif
