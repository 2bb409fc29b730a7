#ifndef CAVIF_SHIM_H
#define CAVIF_SHIM_H

#include <avif/avif.h>
#include <stdlib.h>
#include <string.h>

/// The EXIF orientation that stands up an image stored with HEIF's rotation (`irot`: `angle` quarter
/// turns anticlockwise, applied first) and mirror (`imir`: `mode` 0 swaps top and bottom, 1 left and
/// right; -1 when there is none).
static inline int cavif_exif_orientation(int angle, int mode) {
    static const int table[4][3] = { { 1, 4, 2 }, { 8, 5, 7 }, { 3, 2, 4 }, { 6, 7, 5 } };
    return table[angle & 3][mode < 0 ? 0 : (mode & 1) + 1];
}

/// Decodes the primary image of an AVIF in memory to 8-bit RGB rows (`malloc`ed, freed by the caller),
/// cropped to its clean aperture; `orientation` says how to stand it up (libavif leaves rotation and
/// mirroring to its caller). `threads` bounds dav1d's threads. Returns 0, -1 (damaged: `message`
/// says why), -2 (more than `pixel_limit` pixels: `width` and `height` are set) or -3 (out of memory).
/// libavif returns its errors; nothing jumps. The size is checked once the header is read, before any
/// pixel is decoded (libavif itself refuses more than 16384 × 16384).
static inline int cavif_decode_rgb(const uint8_t *data, size_t length, uint64_t pixel_limit, int threads, uint8_t **output,
                                   int *width, int *height, int *orientation, char *message, size_t message_length) {
    *output = NULL; *width = 0; *height = 0; *orientation = 1;
    avifDecoder *decoder = avifDecoderCreate();
    if (decoder == NULL) return -3;
    decoder->maxThreads = threads;
    decoder->ignoreExif = AVIF_TRUE;
    decoder->ignoreXMP = AVIF_TRUE;
    int status = -1;
    avifRGBImage rgb;
    memset(&rgb, 0, sizeof(rgb));
    avifResult result = avifDecoderSetIOMemory(decoder, data, length);
    if (result == AVIF_RESULT_OK) result = avifDecoderParse(decoder);
    if (result == AVIF_RESULT_OK) {
        *width = (int)decoder->image->width;
        *height = (int)decoder->image->height;
        if ((uint64_t)decoder->image->width * decoder->image->height > pixel_limit) {
            avifDecoderDestroy(decoder);
            return -2;
        }
        result = avifDecoderNextImage(decoder);
    }
    if (result == AVIF_RESULT_OK) {
        avifImage *image = decoder->image;
        avifRGBImageSetDefaults(&rgb, image);
        rgb.format = AVIF_RGB_FORMAT_RGB;
        rgb.depth = 8;
        rgb.rowBytes = image->width * 3;
        rgb.pixels = malloc((size_t)rgb.rowBytes * image->height);
        if (rgb.pixels == NULL) {
            status = -3;
        } else if ((result = avifImageYUVToRGB(image, &rgb)) == AVIF_RESULT_OK) {
            avifCropRect crop = { 0, 0, image->width, image->height };
            avifDiagnostics diagnostics;
            if ((image->transformFlags & AVIF_TRANSFORM_CLAP) &&
                !avifCropRectConvertCleanApertureBox(&crop, &image->clap, image->width, image->height, image->yuvFormat, &diagnostics)) {
                crop = (avifCropRect){ 0, 0, image->width, image->height };
            }
            for (uint32_t row = 0; (crop.x != 0 || crop.y != 0 || crop.width != image->width) && row < crop.height; row++) {
                memmove(rgb.pixels + (size_t)row * crop.width * 3, rgb.pixels + (size_t)(crop.y + row) * rgb.rowBytes + (size_t)crop.x * 3,
                        (size_t)crop.width * 3);
            }
            *output = rgb.pixels;
            rgb.pixels = NULL;
            *width = (int)crop.width;
            *height = (int)crop.height;
            *orientation = cavif_exif_orientation(image->transformFlags & AVIF_TRANSFORM_IROT ? image->irot.angle : 0,
                                                  image->transformFlags & AVIF_TRANSFORM_IMIR ? image->imir.mode : -1);
            status = 0;
        }
    }
    if (status != 0 && status != -3) {
        const char *reason = decoder->diag.error[0] != '\0' ? decoder->diag.error : avifResultToString(result);
        strncpy(message, reason, message_length - 1);
        message[message_length - 1] = '\0';
        status = result == AVIF_RESULT_OUT_OF_MEMORY ? -3 : -1;
    }
    free(rgb.pixels);
    avifDecoderDestroy(decoder);
    return status;
}

#endif
