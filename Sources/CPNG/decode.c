#include "cpng.h"

#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// libpng's simplified API: it catches its own longjmp and answers 0 with a message.
int cpng_decode_rgb(const uint8_t *data, size_t length, uint64_t max_pixels, uint8_t **out, int *width, int *height,
                    char *message, size_t message_capacity) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    *out = NULL;
    *width = 0;
    *height = 0;
    if (!png_image_begin_read_from_memory(&image, data, length)) {
        snprintf(message, message_capacity, "%s", image.message);
        return -1;
    }
    *width = (int)image.width;
    *height = (int)image.height;
    if ((uint64_t)image.width * (uint64_t)image.height > max_pixels) {
        png_image_free(&image);
        return -2;
    }
    image.format = PNG_FORMAT_RGB;
    size_t size = PNG_IMAGE_SIZE(image);
    uint8_t *pixels = malloc(size);
    if (!pixels) {
        png_image_free(&image);
        return -3;
    }
    // Transparent parts over a mid grey, as the loupe's frame is drawn.
    png_color background = {0x80, 0x80, 0x80};
    if (!png_image_finish_read(&image, &background, pixels, 0, NULL)) {
        snprintf(message, message_capacity, "%s", image.message);
        free(pixels);
        return -1;
    }
    *out = pixels;
    return 0;
}
