#ifndef CTIFF_SHIM_H
#define CTIFF_SHIM_H

#include <pthread.h>
#include <tiffio.h>
#include <stdlib.h>
#include <string.h>

// libtiff reads through callbacks; these read a buffer held in memory. Errors come back as return
// values (libtiff reports them through handlers, silenced here, and never jumps).
typedef struct {
    const uint8_t *data;
    size_t length;
    size_t position;
} ctiff_buffer;

static inline tmsize_t ctiff_read(thandle_t handle, void *into, tmsize_t size) {
    ctiff_buffer *buffer = (ctiff_buffer *)handle;
    if (size < 0 || buffer->position >= buffer->length) return 0;
    size_t left = buffer->length - buffer->position;
    size_t count = (size_t)size < left ? (size_t)size : left;
    memcpy(into, buffer->data + buffer->position, count);
    buffer->position += count;
    return (tmsize_t)count;
}

static inline tmsize_t ctiff_write(thandle_t handle, void *from, tmsize_t size) {
    (void)handle; (void)from; (void)size;
    return -1;
}

static inline toff_t ctiff_seek(thandle_t handle, toff_t offset, int whence) {
    ctiff_buffer *buffer = (ctiff_buffer *)handle;
    uint64_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? buffer->position : buffer->length;
    buffer->position = (size_t)(base + offset);
    return (toff_t)buffer->position;
}

static inline int ctiff_close(thandle_t handle) { (void)handle; return 0; }

static inline toff_t ctiff_size(thandle_t handle) { return (toff_t)((ctiff_buffer *)handle)->length; }

static inline int ctiff_map(thandle_t handle, void **base, toff_t *size) { (void)handle; (void)base; (void)size; return 0; }

static inline void ctiff_unmap(thandle_t handle, void *base, toff_t size) { (void)handle; (void)base; (void)size; }

static inline void ctiff_silent(const char *module, const char *format, va_list arguments) {
    (void)module; (void)format; (void)arguments;
}

static inline void ctiff_silence(void) {
    TIFFSetErrorHandler(ctiff_silent);
    TIFFSetWarningHandler(ctiff_silent);
}

/// Opens a TIFF held in memory for reading, with libtiff's messages silenced (its handlers are the
/// process's: set once); NULL when it is not one.
static inline TIFF *ctiff_open(ctiff_buffer *buffer) {
    static pthread_once_t silenced = PTHREAD_ONCE_INIT;
    pthread_once(&silenced, ctiff_silence);
    return TIFFClientOpen("original", "rm", (thandle_t)buffer, ctiff_read, ctiff_write, ctiff_seek, ctiff_close,
                          ctiff_size, ctiff_map, ctiff_unmap);
}

/// The first image's width and height, or 0 when a field is missing.
static inline void ctiff_size_of(TIFF *tiff, uint32_t *width, uint32_t *height) {
    *width = 0; *height = 0;
    TIFFGetField(tiff, TIFFTAG_IMAGEWIDTH, width);
    TIFFGetField(tiff, TIFFTAG_IMAGELENGTH, height);
}

/// Reads the whole first image as RGBA rows in the order stored, and its orientation tag (1...8) for
/// the caller to stand it upright: libtiff's own orienting mirrors but never transposes (5...8).
/// 1 on success.
static inline int ctiff_read_rgba_stored(TIFF *tiff, uint32_t width, uint32_t height, uint32_t *pixels, int *orientation) {
    uint16_t tag = 1;
    TIFFGetFieldDefaulted(tiff, TIFFTAG_ORIENTATION, &tag);
    *orientation = tag >= 1 && tag <= 8 ? tag : 1;
    char message[1024];
    TIFFRGBAImage image;
    if (!TIFFRGBAImageOK(tiff, message) || !TIFFRGBAImageBegin(&image, tiff, 0, message)) return 0;
    image.req_orientation = ORIENTATION_TOPLEFT;
    image.orientation = ORIENTATION_TOPLEFT;
    int done = TIFFRGBAImageGet(&image, pixels, width, height);
    TIFFRGBAImageEnd(&image);
    return done;
}

/// Whether the first image is stored as `ctiff_read_rgb8_region` reads it: 8-bit RGB, three or four
/// samples interleaved; and its orientation tag (1...8).
static inline int ctiff_is_rgb8(TIFF *tiff, int *orientation) {
    uint16_t bits = 0, samples = 0, photometric = 0, planar = PLANARCONFIG_CONTIG, tag = 1;
    TIFFGetFieldDefaulted(tiff, TIFFTAG_BITSPERSAMPLE, &bits);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLESPERPIXEL, &samples);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_PLANARCONFIG, &planar);
    TIFFGetFieldDefaulted(tiff, TIFFTAG_ORIENTATION, &tag);
    *orientation = tag >= 1 && tag <= 8 ? tag : 1;
    if (!TIFFGetField(tiff, TIFFTAG_PHOTOMETRIC, &photometric)) return 0;
    return bits == 8 && (samples == 3 || samples == 4) && photometric == PHOTOMETRIC_RGB && planar == PLANARCONFIG_CONTIG;
}

/// Reads the rectangle `left`, `top`, `region_width` × `region_height` of the first image (in the order
/// stored) into 8-bit RGB rows, decoding only the strips or tiles it touches (libtiff decompressing as
/// it reads), when the image is stored as `ctiff_is_rgb8` says. 1 on success, 0 when its data does not
/// decode or the rectangle is not inside, -1 for another layout (read it with `ctiff_read_rgba_stored`).
/// Four times faster than the RGBA path, which converts every pixel twice, even for the whole image.
static inline int ctiff_read_rgb8_region(TIFF *tiff, uint32_t width, uint32_t height, uint32_t left, uint32_t top,
                                         uint32_t region_width, uint32_t region_height, uint8_t *rgb, int *orientation) {
    if (!ctiff_is_rgb8(tiff, orientation)) return -1;
    uint16_t samples = 0;
    TIFFGetFieldDefaulted(tiff, TIFFTAG_SAMPLESPERPIXEL, &samples);
    if (region_width == 0 || region_height == 0 || left >= width || top >= height ||
        region_width > width - left || region_height > height - top) return 0;
    uint32_t right = left + region_width, bottom = top + region_height;
    size_t row_bytes = (size_t)width * samples;
    if (TIFFIsTiled(tiff)) {
        uint32_t tile_width = 0, tile_height = 0;
        TIFFGetField(tiff, TIFFTAG_TILEWIDTH, &tile_width);
        TIFFGetField(tiff, TIFFTAG_TILELENGTH, &tile_height);
        if (tile_width == 0 || tile_height == 0) return 0;
        tmsize_t tile_size = TIFFTileSize(tiff);
        if (tile_size < (tmsize_t)((size_t)tile_width * tile_height * samples)) return 0;
        uint8_t *tile = malloc((size_t)tile_size);
        if (tile == NULL) return 0;
        int done = 1;
        for (uint32_t y = top - top % tile_height; y < bottom && done; y += tile_height) {
            for (uint32_t x = left - left % tile_width; x < right && done; x += tile_width) {
                if (TIFFReadTile(tiff, tile, x, y, 0, 0) < 0) { done = 0; break; }
                uint32_t row0 = y > top ? y : top, row1 = y + tile_height < bottom ? y + tile_height : bottom;
                uint32_t column0 = x > left ? x : left, column1 = x + tile_width < right ? x + tile_width : right;
                for (uint32_t row = row0; row < row1; row++) {
                    const uint8_t *from = tile + ((size_t)(row - y) * tile_width + (column0 - x)) * samples;
                    uint8_t *to = rgb + ((size_t)(row - top) * region_width + (column0 - left)) * 3;
                    for (uint32_t column = 0; column < column1 - column0; column++) memcpy(to + column * 3, from + column * samples, 3);
                }
            }
        }
        free(tile);
        return done;
    }
    uint32_t rows_per_strip = height;
    TIFFGetFieldDefaulted(tiff, TIFFTAG_ROWSPERSTRIP, &rows_per_strip);
    if (rows_per_strip == 0 || rows_per_strip > height) rows_per_strip = height;
    // A strip of whole rows inside the rectangle, of three samples, is read in place; the rest through
    // one strip's buffer.
    int whole_rows = samples == 3 && left == 0 && region_width == width;
    uint8_t *strip = NULL;
    int done = 1;
    for (uint32_t y = top - top % rows_per_strip; y < bottom; y += rows_per_strip) {
        uint32_t rows = height - y < rows_per_strip ? height - y : rows_per_strip;
        int in_place = whole_rows && y >= top && y + rows <= bottom;
        if (!in_place && strip == NULL && (strip = malloc(row_bytes * rows_per_strip)) == NULL) { done = 0; break; }
        uint8_t *into = in_place ? rgb + (size_t)(y - top) * row_bytes : strip;
        if (TIFFReadEncodedStrip(tiff, TIFFComputeStrip(tiff, y, 0), into, (tmsize_t)(row_bytes * rows)) < (tmsize_t)(row_bytes * rows)) {
            done = 0;
            break;
        }
        if (in_place) continue;
        uint32_t row0 = y > top ? y : top, row1 = y + rows < bottom ? y + rows : bottom;
        for (uint32_t row = row0; row < row1; row++) {
            const uint8_t *from = strip + (size_t)(row - y) * row_bytes + (size_t)left * samples;
            uint8_t *to = rgb + (size_t)(row - top) * region_width * 3;
            for (uint32_t column = 0; column < region_width; column++) memcpy(to + column * 3, from + column * samples, 3);
        }
    }
    free(strip);
    return done;
}

/// Writes `width` × `height` 8-bit RGB pixels as a TIFF at `path` in strips of `rows_per_strip` rows,
/// or in `tile` × `tile` tiles when `tile` is not 0 (a multiple of 16), with `orientation` (1...8) and
/// `compression` (a libtiff COMPRESSION_ value); 1 on success.
static inline int ctiff_write_rgb_as(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height,
                                     uint32_t rows_per_strip, uint32_t tile, int orientation, int compression) {
    static pthread_once_t silenced = PTHREAD_ONCE_INIT;
    pthread_once(&silenced, ctiff_silence);
    TIFF *tiff = TIFFOpen(path, "w");
    if (tiff == NULL) return 0;
    TIFFSetField(tiff, TIFFTAG_IMAGEWIDTH, width);
    TIFFSetField(tiff, TIFFTAG_IMAGELENGTH, height);
    TIFFSetField(tiff, TIFFTAG_BITSPERSAMPLE, 8);
    TIFFSetField(tiff, TIFFTAG_SAMPLESPERPIXEL, 3);
    TIFFSetField(tiff, TIFFTAG_PHOTOMETRIC, PHOTOMETRIC_RGB);
    TIFFSetField(tiff, TIFFTAG_PLANARCONFIG, PLANARCONFIG_CONTIG);
    TIFFSetField(tiff, TIFFTAG_COMPRESSION, compression);
    TIFFSetField(tiff, TIFFTAG_ORIENTATION, orientation);
    int done = 1;
    if (tile == 0) {
        TIFFSetField(tiff, TIFFTAG_ROWSPERSTRIP, rows_per_strip);
        for (uint32_t row = 0; row < height && done; row++) {
            done = TIFFWriteScanline(tiff, (void *)(pixels + (size_t)row * width * 3), row, 0) == 1;
        }
    } else {
        TIFFSetField(tiff, TIFFTAG_TILEWIDTH, tile);
        TIFFSetField(tiff, TIFFTAG_TILELENGTH, tile);
        uint8_t *buffer = calloc((size_t)tile * tile, 3);
        done = buffer != NULL;
        for (uint32_t y = 0; y < height && done; y += tile) {
            for (uint32_t x = 0; x < width && done; x += tile) {
                memset(buffer, 0, (size_t)tile * tile * 3);
                for (uint32_t row = 0; row < tile && y + row < height; row++) {
                    uint32_t columns = width - x < tile ? width - x : tile;
                    memcpy(buffer + (size_t)row * tile * 3, pixels + ((size_t)(y + row) * width + x) * 3, (size_t)columns * 3);
                }
                done = TIFFWriteTile(tiff, buffer, x, y, 0, 0) >= 0;
            }
        }
        free(buffer);
    }
    TIFFClose(tiff);
    return done;
}

/// Writes `width` × `height` 8-bit RGB pixels as an uncompressed TIFF at `path` (the demo server's
/// exports); 1 on success.
static inline int ctiff_write_rgb(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height) {
    return ctiff_write_rgb_as(path, pixels, width, height, 64, 0, 1, COMPRESSION_NONE);
}

#endif
