#ifndef CAVIF_SHIM_H
#define CAVIF_SHIM_H

#include <avif/avif.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

/// An AVIF decoded by dav1d and kept as its YUV planes (half the bytes of RGB at 4:2:0), turned into RGB
/// a region at a time: a view's conversion, not the whole picture's, comes before the loupe's first view.
typedef struct {
    avifDecoder *decoder;
    avifCropRect crop;  // the clean aperture, in the stored picture
} cavif_picture;

/// Parses and decodes the AVIF in `data` (which need not outlive the call): 0 and `*out` set, with the
/// clean aperture's `width` × `height` as stored, its `irot` (`angle` quarter turns anticlockwise, 0 when
/// none) and `imir` (`mirror` 0 top and bottom exchanged, 1 left and right, -1 when none), which libavif
/// applies in that order and leaves to its caller; -1
/// (damaged: `message` says why), -2 (more than `pixel_limit` pixels) or -3 (out of memory).
static inline int cavif_open(const uint8_t *data, size_t length, uint64_t pixel_limit, int threads, cavif_picture **out,
                             int *width, int *height, int *angle, int *mirror, char *message, size_t message_length) {
    *out = NULL; *width = 0; *height = 0; *angle = 0; *mirror = -1;
    avifDecoder *decoder = avifDecoderCreate();
    cavif_picture *picture = calloc(1, sizeof(cavif_picture));
    if (decoder == NULL || picture == NULL) {
        if (decoder != NULL) avifDecoderDestroy(decoder);
        free(picture);
        return -3;
    }
    decoder->maxThreads = threads;
    decoder->ignoreExif = AVIF_TRUE;
    decoder->ignoreXMP = AVIF_TRUE;
    avifResult result = avifDecoderSetIOMemory(decoder, data, length);
    if (result == AVIF_RESULT_OK) result = avifDecoderParse(decoder);
    if (result == AVIF_RESULT_OK) {
        *width = (int)decoder->image->width;
        *height = (int)decoder->image->height;
        if ((uint64_t)decoder->image->width * decoder->image->height > pixel_limit) {
            avifDecoderDestroy(decoder);
            free(picture);
            return -2;
        }
        result = avifDecoderNextImage(decoder);
    }
    if (result != AVIF_RESULT_OK) {
        const char *reason = decoder->diag.error[0] != '\0' ? decoder->diag.error : avifResultToString(result);
        strncpy(message, reason, message_length - 1);
        message[message_length - 1] = '\0';
        avifDecoderDestroy(decoder);
        free(picture);
        return result == AVIF_RESULT_OUT_OF_MEMORY ? -3 : -1;
    }
    // The image no longer reads the file: the memory reader is dropped with it.
    avifImage *image = decoder->image;
    avifCropRect crop = { 0, 0, image->width, image->height };
    avifDiagnostics diagnostics;
    if ((image->transformFlags & AVIF_TRANSFORM_CLAP) &&
        !avifCropRectConvertCleanApertureBox(&crop, &image->clap, image->width, image->height, image->yuvFormat, &diagnostics)) {
        crop = (avifCropRect){ 0, 0, image->width, image->height };
    }
    picture->decoder = decoder;
    picture->crop = crop;
    *width = (int)crop.width;
    *height = (int)crop.height;
    *angle = image->transformFlags & AVIF_TRANSFORM_IROT ? image->irot.angle & 3 : 0;
    *mirror = image->transformFlags & AVIF_TRANSFORM_IMIR ? image->imir.mode & 1 : -1;
    *out = picture;
    return 0;
}

/// Packed 8-bit RGB of the stored rectangle at (`x`, `y`) of `width` × `height` (inside the clean
/// aperture) into `output`: its YUV converted with a margin of 4 pixels (libavif without libyuv
/// upsamples subsampled chroma bilinearly from its neighbours, which a view's edge would lack; Debian's
/// converts through libyuv, nearest), from an even column and row (chroma's own grid), then trimmed.
/// Reads the decoded planes only: safe from several threads.
/// Returns 0, -1 (libavif refused: `message` says why) or -3 (out of memory).
static inline int cavif_region_rgb(const cavif_picture *picture, int x, int y, int width, int height, uint8_t *output,
                                   char *message, size_t message_length) {
    const avifImage *image = picture->decoder->image;
    uint32_t fromX = picture->crop.x + (uint32_t)x, fromY = picture->crop.y + (uint32_t)y;
    uint32_t left = (fromX > 4 ? fromX - 4 : 0) & ~1u, top = (fromY > 4 ? fromY - 4 : 0) & ~1u;
    uint32_t right = fromX + (uint32_t)width + 4, bottom = fromY + (uint32_t)height + 4;
    if (right > image->width) right = image->width;
    if (bottom > image->height) bottom = image->height;
    avifCropRect rect = { left, top, right - left, bottom - top };
    avifImage *view = avifImageCreateEmpty();
    if (view == NULL) return -3;
    avifResult result = avifImageSetViewRect(view, image, &rect);
    avifRGBImage rgb;
    memset(&rgb, 0, sizeof(rgb));
    if (result == AVIF_RESULT_OK) {
        avifRGBImageSetDefaults(&rgb, view);
        rgb.format = AVIF_RGB_FORMAT_RGB;
        rgb.depth = 8;
        rgb.rowBytes = rect.width * 3;
        rgb.pixels = malloc((size_t)rgb.rowBytes * rect.height);
        if (rgb.pixels == NULL) {
            avifImageDestroy(view);
            return -3;
        }
        result = avifImageYUVToRGB(view, &rgb);
    }
    avifImageDestroy(view);
    if (result != AVIF_RESULT_OK) {
        strncpy(message, avifResultToString(result), message_length - 1);
        message[message_length - 1] = '\0';
        free(rgb.pixels);
        return -1;
    }
    uint32_t skipX = fromX - left, skipY = fromY - top;
    for (int row = 0; row < height; row++) {
        memcpy(output + (size_t)row * width * 3, rgb.pixels + (size_t)(skipY + row) * rgb.rowBytes + (size_t)skipX * 3, (size_t)width * 3);
    }
    free(rgb.pixels);
    return 0;
}

static inline void cavif_free(cavif_picture *picture) {
    if (picture == NULL) return;
    avifDecoderDestroy(picture->decoder);
    free(picture);
}

#endif
