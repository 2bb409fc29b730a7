// A focus score: how much fine detail the sharpest part of a picture holds. Hand-written because it
// is a few loops (OpenCV's variance-of-Laplacian measure) and OpenCV is far too much to take on for it.
#include "cjpeg.h"

#include <math.h>
#include <stdlib.h>

enum { FOCUS_EDGE = 256, TILES_ACROSS = 6, TILES_DOWN = 6 };

/// One pass of a separable Gaussian (radius 4) along rows (`step` 1) or columns (`step` the width),
/// weights renormalised where the kernel runs off the image.
static void blur(const float *from, float *to, int w, int h, int step, const float kernel[5]) {
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            int position = step == 1 ? x : y, length = step == 1 ? w : h;
            float sum = 0.f, weight = 0.f;
            for (int k = -4; k <= 4; k++) {
                if (position + k < 0 || position + k >= length) continue;
                sum += kernel[abs(k)] * from[y * w + x + k * step];
                weight += kernel[abs(k)];
            }
            to[y * w + x] = sum / weight;
        }
    }
}

double cjpeg_focus_score(const uint8_t *rgb, int width, int height, double *focus_x, double *focus_y) {
    return cjpeg_focus_score_at(rgb, width, height, FOCUS_EDGE, focus_x, focus_y);
}

double cjpeg_focus_score_at(const uint8_t *rgb, int width, int height, int edge, double *focus_x, double *focus_y) {
    if (focus_x != NULL) *focus_x = 0.5;
    if (focus_y != NULL) *focus_y = 0.5;
    if (rgb == NULL || width < 8 || height < 8) return -1;
    // Grey at a long edge of `edge` at most, by area averaging, so the score means the same whatever
    // rendition it came from; at every pixel when `edge` is 0 (the loupe's 100%).
    int long_edge = width > height ? width : height;
    int factor = edge > 0 ? (long_edge + edge - 1) / edge : 1;
    int w = width / factor, h = height / factor;
    if (w < 8 || h < 8) return -1;
    float *grey = malloc(sizeof(float) * (size_t)w * (size_t)h);
    if (grey == NULL) return -1;
    for (int y = 0; y < h; y++) {
        for (int x = 0; x < w; x++) {
            float sum = 0.f;
            for (int dy = 0; dy < factor; dy++) {
                const uint8_t *p = rgb + ((size_t)(y * factor + dy) * (size_t)width + (size_t)(x * factor)) * 3;
                for (int dx = 0; dx < factor; dx++, p += 3) sum += 0.299f * p[0] + 0.587f * p[1] + 0.114f * p[2];
            }
            grey[y * w + x] = sum / (float)(factor * factor);
        }
    }
    // A Gaussian of 1.2 pixels first: what is left of detail finer than that differs between
    // renditions (how each was resampled), and the score must not.
    static const float kernel[5] = { 0.33245f, 0.23492f, 0.08289f, 0.01460f, 0.00128f };
    float *pass = malloc(sizeof(float) * (size_t)w * (size_t)h);
    if (pass == NULL) {
        free(grey);
        return -1;
    }
    blur(grey, pass, w, h, 1, kernel);
    blur(pass, grey, w, h, w, kernel);
    free(pass);
    // The Laplacian's spread in each tile, relative to the tile's brightness so that a frame exposed a
    // third of a stop brighter is not taken for a sharper one; the best tile is the score.
    double best = 0;
    for (int ty = 0; ty < TILES_DOWN; ty++) {
        for (int tx = 0; tx < TILES_ACROSS; tx++) {
            int x0 = 1 + tx * (w - 2) / TILES_ACROSS, x1 = 1 + (tx + 1) * (w - 2) / TILES_ACROSS;
            int y0 = 1 + ty * (h - 2) / TILES_DOWN, y1 = 1 + (ty + 1) * (h - 2) / TILES_DOWN;
            double sum = 0, squares = 0, level = 0;
            int count = 0;
            for (int y = y0; y < y1; y++) {
                const float *row = grey + y * w;
                for (int x = x0; x < x1; x++) {
                    double laplacian = 4.0 * row[x] - row[x - 1] - row[x + 1] - row[x - w] - row[x + w];
                    sum += laplacian;
                    squares += laplacian * laplacian;
                    level += row[x];
                    count++;
                }
            }
            if (count < 16) continue;
            double mean = sum / count;
            double spread = sqrt(fmax(0, squares / count - mean * mean));
            double score = spread / (level / count + 16.0) * 100.0;
            // The best tile's centre, as a fraction of the picture, is where the loupe opens; rounding
            // in a flat picture is no detail.
            if (score > best) {
                best = score;
                if (score > 0.05 && focus_x != NULL) *focus_x = (x0 + x1) / 2.0 / w;
                if (score > 0.05 && focus_y != NULL) *focus_y = (y0 + y1) / 2.0 / h;
            }
        }
    }
    free(grey);
    return best;
}
