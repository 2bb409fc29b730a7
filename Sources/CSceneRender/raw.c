#include "cscenerender.h"

#include <math.h>

void cjpeg_mosaic_rggb16(const uint8_t *rgb, int width, int height, uint8_t *out) {
    // sRGB's transfer curve undone, as a sensor's samples are linear in light.
    uint16_t linear[256];
    for (int value = 0; value < 256; value++) {
        double v = value / 255.0;
        double light = v <= 0.04045 ? v / 12.92 : pow((v + 0.055) / 1.055, 2.4);
        linear[value] = (uint16_t)lround(light * 65535);
    }
    for (int y = 0; y < height; y++) {
        const uint8_t *row = rgb + (size_t)y * (size_t)width * 3;
        uint8_t *target = out + (size_t)y * (size_t)width * 2;
        for (int x = 0; x < width; x++) {
            // R G / G B
            int channel = (y & 1) == 0 ? ((x & 1) == 0 ? 0 : 1) : ((x & 1) == 0 ? 1 : 2);
            uint16_t sample = linear[row[x * 3 + channel]];
            target[x * 2] = (uint8_t)(sample & 0xFF);
            target[x * 2 + 1] = (uint8_t)(sample >> 8);
        }
    }
}

void cjpeg_turn_for_orientation6(const uint8_t *rgb, int width, int height, uint8_t *out) {
    // Stored is height x width, and stored (x, y) is upright (width - 1 - y, x).
    int stored_width = height, stored_height = width;
    for (int y = 0; y < stored_height; y++) {
        for (int x = 0; x < stored_width; x++) {
            const uint8_t *source = rgb + ((size_t)x * (size_t)width + (size_t)(width - 1 - y)) * 3;
            uint8_t *target = out + ((size_t)y * (size_t)stored_width + (size_t)x) * 3;
            target[0] = source[0];
            target[1] = source[1];
            target[2] = source[2];
        }
    }
}
