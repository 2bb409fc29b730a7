// The loupe's decoder: one region of the upright image at full size, decoding only what it needs.
#include "cjpeg.h"

#include <stdlib.h>
#include <string.h>

#include "internal.h"

/// Where upright pixel (x, y) is in the stored image, as `stored_index` maps it.
static void stored_point(int orientation, int x, int y, int stored_width, int stored_height, int *sx, int *sy) {
    size_t index = cjpeg_stored_index(orientation, x, y, stored_width, stored_height) / 3;
    *sx = (int)(index % (size_t)stored_width);
    *sy = (int)(index / (size_t)stored_width);
}

/// Where stored pixel (sx, sy) goes in the upright image: the inverse of `cjpeg_stored_index`.
static void upright_point(int orientation, int sx, int sy, int stored_width, int stored_height, int *x, int *y) {
    switch (orientation) {
    case 2: *x = stored_width - 1 - sx; *y = sy; break;
    case 3: *x = stored_width - 1 - sx; *y = stored_height - 1 - sy; break;
    case 4: *x = sx; *y = stored_height - 1 - sy; break;
    case 5: *x = sy; *y = sx; break;
    case 6: *x = stored_height - 1 - sy; *y = sx; break;
    case 7: *x = stored_height - 1 - sy; *y = stored_width - 1 - sx; break;
    case 8: *x = sy; *y = stored_width - 1 - sx; break;
    default: *x = sx; *y = sy; break;
    }
}

/// Rows and columns decoded around a region and thrown away, so chroma upsampling at its edges sees
/// the same neighbours as in a full decode.
static const int region_margin = 16;

typedef struct {
    int x, y, width, height;
    int *out_x, *out_y;
    /// The caller's buffer for the pixels, or NULL to allocate one.
    uint8_t *into;
    size_t capacity;
} region_request;

/// The region decode: only the stored rows and columns the upright region needs, then turned upright.
static cjpeg_status region_body(j_decompress_ptr cinfo, decode_buffers *buffers, cjpeg_decode_info *info,
                                const void *context, char *message, size_t message_capacity) {
    const region_request *request = context;
    int orientation = info->orientation;
    int stored_width = info->source_width, stored_height = info->source_height;
    int upright_width = orientation >= 5 ? stored_height : stored_width;
    int upright_height = orientation >= 5 ? stored_width : stored_height;
    // The region, clipped to the upright image.
    int x = request->x, y = request->y, width = request->width, height = request->height;
    int x0 = x < 0 ? 0 : x, y0 = y < 0 ? 0 : y;
    int x1 = x + width > upright_width ? upright_width : x + width;
    int y1 = y + height > upright_height ? upright_height : y + height;
    if (x0 >= x1 || y0 >= y1) {
        copy_message(message, message_capacity, "the region lies outside the image");
        return CJPEG_ERR_ARGUMENT;
    }
    // The same rectangle in the stored image: its corners, turned back, with a margin.
    int ax, ay, bx, by;
    stored_point(orientation, x0, y0, stored_width, stored_height, &ax, &ay);
    stored_point(orientation, x1 - 1, y1 - 1, stored_width, stored_height, &bx, &by);
    int sx0 = (ax < bx ? ax : bx) - region_margin, sx1 = (ax > bx ? ax : bx) + 1 + region_margin;
    int sy0 = (ay < by ? ay : by) - region_margin, sy1 = (ay > by ? ay : by) + 1 + region_margin;
    if (sx0 < 0) sx0 = 0;
    if (sy0 < 0) sy0 = 0;
    if (sx1 > stored_width) sx1 = stored_width;
    if (sy1 > stored_height) sy1 = stored_height;

    int cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
    int inverted = cinfo->saw_Adobe_marker;
    int region_width = x1 - x0, region_height = y1 - y0;
    size_t needed = (size_t)region_width * (size_t)region_height * 3;
    uint8_t *result = request->into;
    if (result != NULL && request->capacity < needed) {
        copy_message(message, message_capacity, "the buffer is smaller than the region");
        return CJPEG_ERR_ARGUMENT;
    }
    if (result == NULL) result = buffers->result = malloc(needed);
    cinfo->out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    jpeg_start_decompress(cinfo);
    // Only the columns wanted, widened by libjpeg to whole iMCUs; only the rows wanted, the rest skipped.
    JDIMENSION crop_x = (JDIMENSION)sx0, crop_width = (JDIMENSION)(sx1 - sx0);
    jpeg_crop_scanline(cinfo, &crop_x, &crop_width);
    if (sy0 > 0) jpeg_skip_scanlines(cinfo, (JDIMENSION)sy0);
    int components = cinfo->output_components;
    int band_width = (int)crop_width, band_height = sy1 - sy0;
    // Each stored row goes straight to its place in the region, the margins read and dropped: upright,
    // a row of the region; turned, a column or a row read backwards. Nothing the size of the band is
    // held but the region itself.
    buffers->row = malloc((size_t)band_width * (size_t)components);
    if (!result || !buffers->row) {
        copy_message(message, message_capacity, "out of memory");
        return CJPEG_ERR_MEMORY;
    }
    for (int row = 0; row < band_height; row++) {
        JSAMPROW rows[1] = { buffers->row };
        jpeg_read_scanlines(cinfo, rows, 1);
        int stored_row = sy0 + row;
        const uint8_t *pixel = buffers->row;
        if (orientation == 1) {
            if (stored_row < y0 || stored_row >= y1) continue;
            pixel += (size_t)(x0 - (int)crop_x) * (size_t)components;
            uint8_t *destination = result + (size_t)(stored_row - y0) * (size_t)region_width * 3;
            for (int column = 0; column < region_width; column++, pixel += components, destination += 3) {
                unsigned rgb[3];
                cjpeg_pixel_rgb(pixel, cmyk, inverted, rgb);
                for (int channel = 0; channel < 3; channel++) destination[channel] = (uint8_t)rgb[channel];
            }
            continue;
        }
        for (int column = 0; column < band_width; column++, pixel += components) {
            int u, v;
            upright_point(orientation, (int)crop_x + column, stored_row, stored_width, stored_height, &u, &v);
            if (u < x0 || u >= x1 || v < y0 || v >= y1) continue;
            uint8_t *destination = result + ((size_t)(v - y0) * (size_t)region_width + (size_t)(u - x0)) * 3;
            unsigned rgb[3];
            cjpeg_pixel_rgb(pixel, cmyk, inverted, rgb);
            for (int channel = 0; channel < 3; channel++) destination[channel] = (uint8_t)rgb[channel];
        }
    }
    // The rows below are never read: the decode stops here.
    jpeg_abort_decompress(cinfo);
    info->width = region_width;
    info->height = region_height;
    *request->out_x = x0;
    *request->out_y = y0;
    return CJPEG_OK;
}

cjpeg_status cjpeg_decode_region(const uint8_t *data, size_t length, int x, int y, int width, int height,
                                 uint64_t max_pixels, uint8_t **out, cjpeg_decode_info *info, int *out_x, int *out_y,
                                 char *message, size_t message_capacity) {
    if (data == NULL || out == NULL || info == NULL || out_x == NULL || out_y == NULL || width <= 0 || height <= 0) {
        copy_message(message, message_capacity, "invalid decoder arguments");
        return CJPEG_ERR_ARGUMENT;
    }
    region_request request = { x, y, width, height, out_x, out_y, NULL, 0 };
    return cjpeg_decode_with(data, length, max_pixels, region_body, &request, out, info, message, message_capacity);
}

cjpeg_status cjpeg_decode_region_into(const uint8_t *data, size_t length, int x, int y, int width, int height,
                                      uint64_t max_pixels, uint8_t *into, size_t capacity, cjpeg_decode_info *info,
                                      int *out_x, int *out_y, char *message, size_t message_capacity) {
    if (data == NULL || into == NULL || info == NULL || out_x == NULL || out_y == NULL || width <= 0 || height <= 0) {
        copy_message(message, message_capacity, "invalid decoder arguments");
        return CJPEG_ERR_ARGUMENT;
    }
    region_request request = { x, y, width, height, out_x, out_y, into, capacity };
    uint8_t *unused = NULL;
    return cjpeg_decode_with(data, length, max_pixels, region_body, &request, &unused, info, message, message_capacity);
}
