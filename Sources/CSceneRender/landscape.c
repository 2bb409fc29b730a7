// The demo library's pictures: procedural landscapes a person reads as photographs.
// Hand-written because no packaged library renders deterministic, resolution-independent scenes
// with a known focus: every texture is band-limited to what the output's pixels can hold, so a
// 1024-pixel variant is the same picture as the 24 MP original, only softer.
#include "cscenerender.h"

#include <limits.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>


typedef struct { float r, g, b; } rgbf;

static rgbf rgb(float r, float g, float b) { rgbf c = { r, g, b }; return c; }
static rgbf mix(rgbf a, rgbf b, float t) { return rgb(a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t); }
static rgbf scale(rgbf a, float s) { return rgb(a.r * s, a.g * s, a.b * s); }
static float clampf(float value, float low, float high) { return value < low ? low : (value > high ? high : value); }
static float smooth(float low, float high, float x) {
    float t = clampf((x - low) / (high - low), 0.f, 1.f);
    return t * t * (3.f - 2.f * t);
}

static uint32_t hash32(uint32_t x) {
    x ^= x >> 16; x *= 0x7feb352dU;
    x ^= x >> 15; x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

static uint64_t next64(uint64_t *state) {
    uint64_t z = (*state += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static float uniform(uint64_t *state, float low, float high) {
    return low + (high - low) * (float)((double)(next64(state) >> 11) / 9007199254740992.0);
}

static int pick(uint64_t *state, int count) { return (int)(next64(state) % (uint64_t)count); }

/// How one output is sampled: pixels per unit of the long edge, the defocus in pixels, and the spread
/// of an edge's blur in pixels (the defocus with half a pixel for the pixel itself).
typedef struct {
    float pixels;
    float sigma;
    float spread;
} sampling;

static sampling make_sampling(float pixels, float sigma) {
    sampling s = { pixels, sigma, sqrtf(sigma * sigma + 0.25f) };
    return s;
}

enum { MAX_OCTAVES = 16 };

/// Fractal noise made ready for one sampling: only the octaves the pixels can hold, each weakened as
/// a Gaussian blur of `sigma` pixels would weaken it, normalised by the full series so the mean level
/// is the same at every size and focus. `stretch` squashes y (grass blades, ripples).
typedef struct {
    int count;
    float frequency[MAX_OCTAVES], weight[MAX_OCTAVES], cosine[MAX_OCTAVES], sine[MAX_OCTAVES];
    uint32_t seed[MAX_OCTAVES];
    float stretch;
    /// The lattice cell each octave last sampled and the values at its four corners: neighbouring pixels
    /// mostly fall in the same cells, so most samples of the coarse octaves skip the hashes. Makes a
    /// renderer single-threaded, as its row buffer already does.
    int32_t cell_x[MAX_OCTAVES], cell_y[MAX_OCTAVES];
    float corner[4][MAX_OCTAVES];
} texture;

static texture make_texture(const sampling *s, float frequency, int octaves, float gain, float stretch, uint32_t seed) {
    texture t;
    memset(&t, 0, sizeof(t));
    t.stretch = stretch;
    for (int octave = 0; octave < MAX_OCTAVES; octave++) t.cell_x[octave] = INT_MIN;
    float amplitude = 1.f, total = 0.f;
    for (int octave = 0; octave < octaves && octave < MAX_OCTAVES; octave++) {
        total += amplitude;
        float wavelength = s->pixels / (frequency * (stretch > 1.f ? stretch : 1.f));
        if (wavelength >= 2.f) {
            float fade = clampf((wavelength - 2.f) / 2.f, 0.f, 1.f);
            float k = 3.14159265f * s->sigma / wavelength;
            float weight = fade * expf(-2.f * k * k);
            if (weight > 0.003f) {
                t.frequency[t.count] = frequency;
                t.weight[t.count] = amplitude * weight;
                t.seed[t.count] = seed + (uint32_t)octave * 1013U;
                // Each octave turned a little, so no lattice lines up with the next one's or the frame's.
                t.cosine[t.count] = cosf(0.61f + (float)octave * 1.13f);
                t.sine[t.count] = sinf(0.61f + (float)octave * 1.13f);
                t.count++;
            }
        }
        amplitude *= gain;
        frequency *= 2.03f;
    }
    for (int index = 0; index < t.count; index++) t.weight[index] /= total;
    return t;
}

/// Four lanes of floats and of integers: fractal noise samples four octaves at once. The vector
/// extensions of clang and gcc, so SSE2 and NEON alike; each lane does what one octave's scalar code
/// did, in the same order, so the pictures are the same bit for bit (`-ffp-contract=off` keeps any
/// fused multiply-add out).
typedef float float4 __attribute__((vector_size(16)));
typedef int32_t int4 __attribute__((vector_size(16)));
typedef uint32_t uint4 __attribute__((vector_size(16)));

static float4 load4(const float *values) { float4 v; memcpy(&v, values, sizeof(v)); return v; }
static int4 load4i(const int32_t *values) { int4 v; memcpy(&v, values, sizeof(v)); return v; }

static uint4 hash4(uint4 x) {
    x ^= x >> 16; x *= 0x7feb352dU;
    x ^= x >> 15; x *= 0x846ca68bU;
    x ^= x >> 16;
    return x;
}

/// Value noise in -1...1 at integer lattice points, hashed with each octave's seed.
static float4 lattice4(int4 x, int4 y, uint4 seed) {
    uint4 h = hash4(seed ^ (uint4)x * 0x8da6b343U ^ (uint4)y * 0xd8163841U);
    return __builtin_convertvector((int4)(h & 0xffff), float4) / 32767.5f - 1.f;
}

/// floor() of each lane, as integers: truncation, one less where that went up (no SSE4.1 needed).
static int4 floor4(float4 x) {
    int4 truncated = __builtin_convertvector(x, int4);
    return truncated + (int4)(x < __builtin_convertvector(truncated, float4));
}

/// The sum of the texture's octaves of value noise at (x, y), each on a lattice turned and scaled its
/// own way, with a quintic fade between a cell's corners. Octaves past `count` are zero and not summed.
static float fbm(texture *t, float x, float y) {
    float sum = 0.f;
    for (int base = 0; base < t->count; base += 4) {
        float4 f = load4(t->frequency + base), cosine = load4(t->cosine + base), sine = load4(t->sine + base);
        float4 u = x * f, v = y * f * t->stretch;
        float4 nx = u * cosine - v * sine, ny = u * sine + v * cosine;
        int4 ix = floor4(nx), iy = floor4(ny);
        float4 tx = nx - __builtin_convertvector(ix, float4), ty = ny - __builtin_convertvector(iy, float4);
        tx = tx * tx * tx * (tx * (tx * 6.f - 15.f) + 10.f);
        ty = ty * ty * ty * (ty * (ty * 6.f - 15.f) + 10.f);
        float4 a, b, c, d;
        int4 same = (load4i(t->cell_x + base) == ix) & (load4i(t->cell_y + base) == iy);
        if (same[0] & same[1] & same[2] & same[3]) {
            a = load4(t->corner[0] + base);
            b = load4(t->corner[1] + base);
            c = load4(t->corner[2] + base);
            d = load4(t->corner[3] + base);
        } else {
            uint4 seed;
            memcpy(&seed, t->seed + base, sizeof(seed));
            a = lattice4(ix, iy, seed);
            b = lattice4(ix + 1, iy, seed);
            c = lattice4(ix, iy + 1, seed);
            d = lattice4(ix + 1, iy + 1, seed);
            memcpy(t->cell_x + base, &ix, sizeof(ix));
            memcpy(t->cell_y + base, &iy, sizeof(iy));
            memcpy(t->corner[0] + base, &a, sizeof(a));
            memcpy(t->corner[1] + base, &b, sizeof(b));
            memcpy(t->corner[2] + base, &c, sizeof(c));
            memcpy(t->corner[3] + base, &d, sizeof(d));
        }
        float4 top = a + (b - a) * tx, bottom = c + (d - c) * tx;
        float4 octaves = load4(t->weight + base) * (top + (bottom - top) * ty);
        int lanes = t->count - base < 4 ? t->count - base : 4;
        for (int lane = 0; lane < lanes; lane++) sum += octaves[lane];
    }
    return sum;
}

/// Coverage of a blurred edge `distance` pixels inside it (negative outside): the Gaussian's
/// cumulative distribution, approximated by a logistic.
static float coverage(float distance, const sampling *s) {
    float z = 1.702f * distance / s->spread;
    if (z > 12.f) return 1.f;
    if (z < -12.f) return 0.f;
    return 1.f / (1.f + expf(-z));
}

enum { MAX_TREES = 9, MAX_POSTS = 14 };

typedef struct {
    float x, base, height, radius, trunk;  // units of the long edge; base is the ground's y
    rgbf leaves;
    uint32_t seed;
} tree;

typedef struct {
    // Light.
    rgbf zenith, horizon_sky, sun, haze, tint;
    float sun_x, sun_y, sun_size, clouds, cloud_level, land_light;
    // Ground.
    float horizon;           // y of the horizon, units of the long edge
    float far_height, far_frequency, mid_height, mid_frequency, bank_level, bank_height;
    rgbf far_colour, mid_colour, ground, bank, rock;
    int water;
    rgbf water_tint;
    tree trees[MAX_TREES];
    int tree_count;
    float posts[MAX_POSTS];
    int post_count;
    float post_width, post_top, wire;
    uint32_t seed;
} landscape_design;

static void design(uint64_t seed, float aspect_height, landscape_design *d) {
    uint64_t state = seed ^ 0x5CE7E5EEDULL;
    memset(d, 0, sizeof(*d));
    d->seed = (uint32_t)next64(&state);
    int light = pick(&state, 5);
    switch (light) {
    case 0:  // noon
        d->zenith = rgb(38, 88, 186); d->horizon_sky = rgb(172, 202, 236); d->sun = rgb(255, 252, 238);
        d->tint = rgb(1.f, 1.f, 1.f); d->land_light = 1.f; d->clouds = uniform(&state, 0.f, 0.5f);
        break;
    case 1:  // golden hour
        d->zenith = rgb(64, 86, 150); d->horizon_sky = rgb(250, 182, 112); d->sun = rgb(255, 214, 150);
        d->tint = rgb(1.08f, 0.97f, 0.82f); d->land_light = 0.85f; d->clouds = uniform(&state, 0.1f, 0.6f);
        break;
    case 2:  // overcast
        d->zenith = rgb(140, 146, 158); d->horizon_sky = rgb(206, 207, 212); d->sun = rgb(220, 220, 222);
        d->tint = rgb(0.96f, 0.98f, 1.02f); d->land_light = 0.78f; d->clouds = uniform(&state, 0.7f, 1.f);
        break;
    case 3:  // dusk
        d->zenith = rgb(26, 32, 84); d->horizon_sky = rgb(232, 124, 92); d->sun = rgb(255, 170, 110);
        d->tint = rgb(0.86f, 0.78f, 0.92f); d->land_light = 0.5f; d->clouds = uniform(&state, 0.f, 0.5f);
        break;
    default:  // hazy morning
        d->zenith = rgb(118, 150, 204); d->horizon_sky = rgb(226, 222, 214); d->sun = rgb(255, 246, 225);
        d->tint = rgb(1.f, 1.f, 0.98f); d->land_light = 0.9f; d->clouds = uniform(&state, 0.f, 0.3f);
        break;
    }
    d->haze = mix(d->horizon_sky, rgb(200, 205, 215), 0.3f);
    d->cloud_level = uniform(&state, -0.1f, 0.25f);
    d->horizon = aspect_height * uniform(&state, 0.4f, 0.62f);
    d->sun_x = uniform(&state, 0.1f, 0.9f);
    d->sun_y = d->horizon * uniform(&state, light == 1 || light == 3 ? 0.55f : 0.1f, light == 1 || light == 3 ? 0.95f : 0.5f);
    d->sun_size = uniform(&state, 0.012f, 0.022f);
    d->far_height = aspect_height * uniform(&state, 0.04f, 0.18f);
    d->far_frequency = uniform(&state, 1.5f, 3.5f);
    d->mid_height = aspect_height * uniform(&state, 0.02f, 0.09f);
    d->mid_frequency = uniform(&state, 2.5f, 5.f);
    static const rgbf foliage[5][3] = {
        { { 52, 96, 40 }, { 92, 130, 52 }, { 112, 104, 92 } },     // summer
        { { 158, 82, 32 }, { 150, 122, 64 }, { 118, 100, 86 } },   // autumn
        { { 88, 150, 62 }, { 130, 170, 72 }, { 124, 118, 104 } },  // spring
        { { 112, 106, 66 }, { 182, 152, 100 }, { 160, 128, 96 } }, // dry
        { { 40, 54, 46 }, { 222, 226, 236 }, { 92, 92, 98 } },     // snow
    };
    int season = pick(&state, 5);
    rgbf leaves = foliage[season][0];
    d->ground = scale(foliage[season][1], d->land_light);
    d->rock = scale(foliage[season][2], d->land_light);
    d->bank = scale(mix(foliage[season][1], leaves, 0.4f), d->land_light);
    d->far_colour = mix(d->haze, rgb(70, 88, 112), 0.45f);
    d->mid_colour = mix(d->haze, scale(leaves, d->land_light), 0.7f);
    d->water = uniform(&state, 0.f, 1.f) < 0.45f;
    d->water_tint = rgb(0.62f, 0.72f, 0.8f);
    d->bank_level = d->horizon + (aspect_height - d->horizon) * uniform(&state, 0.45f, 0.8f);
    d->bank_height = aspect_height * uniform(&state, 0.03f, 0.12f);
    d->tree_count = pick(&state, MAX_TREES + 1);
    for (int index = 0; index < d->tree_count; index++) {
        tree *t = &d->trees[index];
        int near = uniform(&state, 0.f, 1.f) < 0.4f;
        t->x = uniform(&state, 0.f, 1.f);
        t->base = near ? d->bank_level + uniform(&state, 0.f, 0.06f) * aspect_height : d->horizon;
        float size = near ? uniform(&state, 0.12f, 0.35f) : uniform(&state, 0.03f, 0.09f);
        t->height = size * aspect_height;
        t->radius = t->height * uniform(&state, 0.22f, 0.4f);
        t->trunk = t->height * uniform(&state, 0.025f, 0.05f);
        t->leaves = scale(mix(leaves, rgb(30, 40, 30), uniform(&state, 0.f, 0.4f)), near ? d->land_light : d->land_light * 0.9f);
        if (!near) t->leaves = mix(t->leaves, d->haze, 0.35f);
        t->seed = (uint32_t)next64(&state);
    }
    // Sort far to near, so the nearest tree is drawn last and sits in front.
    for (int a = 1; a < d->tree_count; a++) {
        for (int b = a; b > 0 && d->trees[b].base < d->trees[b - 1].base; b--) {
            tree swap = d->trees[b]; d->trees[b] = d->trees[b - 1]; d->trees[b - 1] = swap;
        }
    }
    if (uniform(&state, 0.f, 1.f) < 0.4f) {
        d->post_count = 5 + pick(&state, MAX_POSTS - 5);
        float spacing = 1.f / (float)d->post_count, offset = uniform(&state, 0.f, spacing);
        for (int index = 0; index < d->post_count; index++) d->posts[index] = offset + spacing * (float)index;
        d->post_width = uniform(&state, 0.004f, 0.009f);
        d->post_top = d->bank_level - aspect_height * uniform(&state, 0.05f, 0.1f);
        d->wire = uniform(&state, 0.3f, 0.7f);
    }
}

/// Every texture of a picture, made ready for its sampling.
typedef struct {
    texture far_ridge, mid_ridge, bank_ridge, cloud, cloud_lit, far, mid, trunk, ripple, patches, grass, blades, stones, post;
    texture crown[MAX_TREES], leaves[MAX_TREES];
} textures;

static void make_textures(const landscape_design *d, const sampling *s, textures *t) {
    t->far_ridge = make_texture(s, d->far_frequency, 9, 0.52f, 1.f, d->seed + 11U);
    t->mid_ridge = make_texture(s, d->mid_frequency, 12, 0.58f, 1.f, d->seed + 23U);
    t->bank_ridge = make_texture(s, 1.3f, 12, 0.55f, 1.f, d->seed + 37U);
    t->cloud = make_texture(s, 2.2f, 6, 0.55f, 1.f, d->seed + 51U);
    t->cloud_lit = make_texture(s, 2.2f, 3, 0.55f, 1.f, d->seed + 51U);
    t->far = make_texture(s, 9.f, 7, 0.5f, 1.f, d->seed + 61U);
    t->mid = make_texture(s, 40.f, 12, 0.62f, 1.f, d->seed + 71U);
    t->trunk = make_texture(s, 300.f, 6, 0.6f, 0.1f, d->seed + 75U);
    t->ripple = make_texture(s, 30.f, 11, 0.6f, 14.f, d->seed + 81U);
    t->patches = make_texture(s, 6.f, 6, 0.5f, 3.f, d->seed + 91U);
    t->grass = make_texture(s, 160.f, 10, 0.68f, 0.35f, d->seed + 93U);
    t->blades = make_texture(s, 220.f, 11, 0.72f, 0.25f, d->seed + 101U);
    t->stones = make_texture(s, 12.f, 6, 0.55f, 1.f, d->seed + 103U);
    t->post = make_texture(s, 500.f, 7, 0.6f, 0.08f, d->seed + 111U);
    for (int index = 0; index < d->tree_count; index++) {
        t->crown[index] = make_texture(s, 60.f / d->trees[index].height, 13, 0.66f, 1.f, d->trees[index].seed + 3U);
        t->leaves[index] = make_texture(s, 420.f, 10, 0.7f, 1.f, d->trees[index].seed + 5U);
    }
}

/// The ridge of distant hills at x: its top's y.
static float far_ridge(const landscape_design *d, textures *tx, float x) {
    return d->horizon - d->far_height * (0.55f + 0.9f * fbm(&tx->far_ridge, x, 0.5f));
}

static float mid_ridge(const landscape_design *d, textures *tx, float x) {
    return d->horizon - d->mid_height * (0.5f + 1.2f * fbm(&tx->mid_ridge, x, 2.5f));
}

static float bank_top(const landscape_design *d, textures *tx, float x) {
    return d->bank_level - d->bank_height * (0.4f + fbm(&tx->bank_ridge, x, 4.5f));
}

/// Per-column ridge heights, computed once per picture.
typedef struct {
    float *far, *mid, *bank;
} ridges;

static rgbf sky(const landscape_design *d, const sampling *s, textures *tx, float x, float y) {
    float t = clampf(y / d->horizon, 0.f, 1.f);
    rgbf colour = mix(d->zenith, d->horizon_sky, powf(t, 1.6f));
    float dx = x - d->sun_x, dy = y - d->sun_y;
    float distance = sqrtf(dx * dx + dy * dy);
    colour = mix(colour, d->sun, 0.55f * expf(-distance / 0.09f));
    if (d->clouds > 0.f) {
        float c = fbm(&tx->cloud, x, y * 2.6f) + d->cloud_level;
        float cover = smooth(0.18f - 0.35f * d->clouds, 0.45f - 0.3f * d->clouds, c) * (0.35f + 0.65f * d->clouds);
        float lit = fbm(&tx->cloud_lit, x + 0.013f, y * 2.6f - 0.02f);
        rgbf cloud = mix(scale(d->horizon_sky, 0.78f), mix(d->sun, rgb(250, 250, 250), 0.5f), smooth(-0.2f, 0.3f, c - lit + 0.1f));
        colour = mix(colour, cloud, cover * smooth(0.f, 0.08f, d->horizon - y));
    }
    float disc = coverage((d->sun_size - distance) * s->pixels, s);
    return mix(colour, d->sun, disc * (d->clouds > 0.9f ? 0.2f : 1.f));
}

/// Everything from the horizon up at one point: trees on the horizon, the hills and the sky.
static rgbf above_horizon(const landscape_design *d, const sampling *s, textures *tx, const ridges *r, int column, float x, float y) {
    // Front to back in what is computed: nothing is drawn that a nearer layer hides.
    float far_top = r->far[column], mid_top = r->mid[column];
    float far = coverage((y - far_top) * s->pixels, s);
    float mid = coverage((y - mid_top) * s->pixels, s);
    rgbf back = far < 0.999f && mid < 0.999f ? sky(d, s, tx, x, y) : rgb(0, 0, 0);
    if (far > 0.001f && mid < 0.999f) {
        float texture = fbm(&tx->far, x, y);
        rgbf hill = scale(mix(d->far_colour, d->haze, clampf(0.4f - (y - far_top) * 4.f, 0.f, 0.4f)), 1.f + 0.18f * texture);
        back = mix(back, hill, far);
    }
    if (mid > 0.001f) {
        float texture = fbm(&tx->mid, x, y);
        back = mix(back, scale(d->mid_colour, 1.f + 0.5f * texture), mid);
    }
    return back;
}

static rgbf tree_colour(const landscape_design *d, const sampling *s, textures *tx, int index, float x, float y, rgbf back) {
    const tree *t = &d->trees[index];
    float top = t->base - t->height;
    if (y < top - t->radius * 0.5f || y > t->base + 0.01f || fabsf(x - t->x) > t->radius * 1.4f) return back;
    // The trunk: a straight, sharp-edged post from the base to the crown's centre.
    float trunk_in = fminf(t->trunk - fabsf(x - t->x), fminf(y - (top + t->radius), t->base - y));
    float trunk = coverage(trunk_in * s->pixels, s);
    rgbf colour = mix(back, scale(rgb(62, 48, 38), d->land_light * (1.f + 0.3f * fbm(&tx->trunk, x + t->x, y))), trunk);
    // The crown: an ellipse whose edge is ragged with leaves down to the pixel.
    float dx = (x - t->x) / t->radius, dy = (y - (top + t->radius * 0.9f)) / (t->radius * 1.15f);
    float leafy = fbm(&tx->crown[index], x, y);
    float inside = (1.f - sqrtf(dx * dx + dy * dy) + 0.35f * leafy) * t->radius;
    float crown = coverage(inside * s->pixels, s);
    if (crown > 0.001f) {
        float light = 1.f + 0.9f * fbm(&tx->leaves[index], x, y) - 0.35f * (dx + dy);
        colour = mix(colour, scale(t->leaves, clampf(light, 0.2f, 2.f)), crown);
    }
    return colour;
}

/// The scene's colour at one point, before exposure and noise.
/// The lake or meadow below the horizon at one point.
static rgbf ground_at(const landscape_design *d, const sampling *s, textures *tx, textures *soft, const ridges *r, int column, float x, float y) {
    float depth = clampf((y - d->horizon) * 6.f, 0.f, 1.f);
    if (d->water) {
        // A lake: the hills and sky mirrored, broken by ripples that grow nearer the shore.
        float ripple = fbm(&tx->ripple, x, y);
        float mirrored = 2.f * d->horizon - y + ripple * (0.004f + 0.03f * depth);
        rgbf reflection = above_horizon(d, s, soft, r, column, x + ripple * 0.003f, fmaxf(mirrored, 0.f));
        rgbf ground = rgb(reflection.r * d->water_tint.r, reflection.g * d->water_tint.g, reflection.b * d->water_tint.b);
        return scale(ground, 0.82f + 0.25f * ripple);
    }
    // A meadow: coarse patches and fine grass, paler towards the horizon.
    float patches = fbm(&tx->patches, x, y);
    float grass = fbm(&tx->grass, x, y);
    rgbf ground = scale(mix(d->ground, d->rock, smooth(0.1f, 0.4f, patches)), 1.f + 0.35f * patches + 0.4f * grass * depth);
    return mix(d->haze, ground, 0.55f + 0.45f * depth);
}

/// The scene's colour at one point, before exposure and noise. Layers are composed back to front,
/// but a layer a nearer one hides wholly is never computed.
static rgbf scene_at(const landscape_design *d, const sampling *s, textures *tx, textures *soft, const ridges *r, int column, float x, float y) {
    rgbf colour = rgb(0, 0, 0);
    float bank_y = r->bank[column];
    float bank = coverage((y - bank_y) * s->pixels, s);
    if (bank < 0.999f) {
        float below = coverage((y - d->horizon) * s->pixels, s);
        if (below < 0.999f) {
            colour = above_horizon(d, s, tx, r, column, x, y);
            for (int index = 0; index < d->tree_count; index++) {
                if (d->trees[index].base <= d->horizon) colour = tree_colour(d, s, tx, index, x, y, colour);
            }
        }
        if (below > 0.001f) colour = mix(colour, ground_at(d, s, tx, soft, r, column, x, y), below);
    }
    if (bank > 0.001f) {
        float blades = fbm(&tx->blades, x, y);
        float stones = fbm(&tx->stones, x, y);
        rgbf surface = mix(d->bank, d->rock, smooth(0.12f, 0.3f, stones));
        float shade = 1.f + 0.75f * blades + 0.3f * stones - 0.4f * clampf((y - bank_y) * 3.f, 0.f, 0.5f);
        colour = mix(colour, scale(surface, clampf(shade, 0.15f, 2.f)), bank);
    }
    for (int index = 0; index < d->tree_count; index++) {
        if (d->trees[index].base > d->bank_level) colour = tree_colour(d, s, tx, index, x, y, colour);
    }
    for (int index = 0; index < d->post_count; index++) {
        float inside = fminf(d->post_width - fabsf(x - d->posts[index]), fminf(y - d->post_top, d->bank_level + 0.05f - y));
        float post = coverage(inside * s->pixels, s);
        if (post > 0.001f) {
            float grain = fbm(&tx->post, x + (float)index * 7.31f, y);
            colour = mix(colour, scale(rgb(96, 80, 64), d->land_light * (1.f + 0.45f * grain)), post);
        }
    }
    if (d->post_count > 0) {
        float wire_y = d->post_top + (d->bank_level - d->post_top) * d->wire * 0.5f;
        float wire = coverage((0.0012f - fabsf(y - wire_y)) * s->pixels, s) * 0.85f;
        colour = mix(colour, rgb(40, 40, 44), wire);
    }
    return colour;
}

struct cjpeg_landscape_renderer {
    landscape_design design;
    sampling sampling;
    int width, height, margin;
    float motion;            // box length in pixels
    float gain, grain;
    uint32_t noise_seed;
    ridges ridges;
    /// The textures, and softer ones for reflections in water.
    textures textures, soft;
    float *row;              // (width + 2 * margin) * 3
};

static float long_edge(int width, int height) { return (float)(width > height ? width : height); }

/// Where a frame's left edge falls in the scene: a portrait frame is the middle of a landscape one.
static float portrait_offset(int width, int height) {
    return width >= height ? 0.f : (1.f - (float)width / (float)height) / 2.f;
}

cjpeg_landscape_renderer *cjpeg_landscape_start(const cjpeg_landscape *landscape, int width, int height) {
    if (landscape == NULL || width <= 0 || height <= 0 || width > 65500 || height > 65500) return NULL;
    cjpeg_landscape_renderer *r = calloc(1, sizeof(*r));
    if (r == NULL) return NULL;
    float edge = long_edge(width, height);
    design(landscape->seed, (float)height / edge, &r->design);
    r->sampling = make_sampling(edge, fmaxf(0.f, landscape->defocus) * edge);
    r->width = width;
    r->height = height;
    r->motion = fmaxf(0.f, landscape->motion) * edge;
    r->margin = (int)ceilf(r->motion / 2.f) + 1;
    r->gain = landscape->gain > 0.f ? landscape->gain : 1.f;
    r->grain = fmaxf(0.f, landscape->grain);
    r->noise_seed = hash32((uint32_t)landscape->seed ^ (uint32_t)(landscape->seed >> 32) ^ 0x6A09E667U);
    int columns = width + 2 * r->margin;
    r->ridges.far = malloc(sizeof(float) * (size_t)columns);
    r->ridges.mid = malloc(sizeof(float) * (size_t)columns);
    r->ridges.bank = malloc(sizeof(float) * (size_t)columns);
    r->row = malloc(sizeof(float) * 3 * (size_t)columns);
    if (!r->ridges.far || !r->ridges.mid || !r->ridges.bank || !r->row) {
        cjpeg_landscape_finish(r);
        return NULL;
    }
    make_textures(&r->design, &r->sampling, &r->textures);
    // Water blurs what it reflects by about a thousandth of the frame.
    sampling soft = make_sampling(edge, sqrtf(r->sampling.sigma * r->sampling.sigma + 0.0012f * edge * 0.0012f * edge));
    make_textures(&r->design, &soft, &r->soft);
    float offset = portrait_offset(width, height);
    for (int column = 0; column < columns; column++) {
        float x = ((float)(column - r->margin) + 0.5f) / edge + offset;
        r->ridges.far[column] = far_ridge(&r->design, &r->textures, x);
        r->ridges.mid[column] = mid_ridge(&r->design, &r->textures, x);
        r->ridges.bank[column] = bank_top(&r->design, &r->textures, x);
    }
    return r;
}

void cjpeg_landscape_row(cjpeg_landscape_renderer *r, int row, uint8_t *pixels) {
    int columns = r->width + 2 * r->margin;
    float edge = r->sampling.pixels;
    float y = ((float)row + 0.5f) / edge;
    float offset = portrait_offset(r->width, r->height);
    for (int column = 0; column < columns; column++) {
        float x = ((float)(column - r->margin) + 0.5f) / edge + offset;
        rgbf c = scene_at(&r->design, &r->sampling, &r->textures, &r->soft, &r->ridges, column, x, y);
        r->row[column * 3 + 0] = c.r;
        r->row[column * 3 + 1] = c.g;
        r->row[column * 3 + 2] = c.b;
    }
    // Motion: each pixel averages the scene over the shake's length, with fractional ends.
    float half = r->motion / 2.f;
    int whole = (int)floorf(half);
    float part = half - (float)whole;
    const landscape_design *d = &r->design;
    float cx = (float)r->width / 2.f, cy = (float)r->height / 2.f;
    for (int column = 0; column < r->width; column++) {
        int centre = column + r->margin;
        float sum[3] = { 0, 0, 0 }, weight = 0.f;
        for (int offset_px = -whole - 1; offset_px <= whole + 1; offset_px++) {
            float w = abs(offset_px) <= whole ? 1.f : part;
            if (w <= 0.f) continue;
            int at = centre + offset_px;
            for (int channel = 0; channel < 3; channel++) sum[channel] += w * r->row[at * 3 + channel];
            weight += w;
        }
        float du = ((float)column - cx) / edge, dv = ((float)row - cy) / edge;
        float shade = r->gain * (1.f - 0.35f * (du * du + dv * dv) * 1.6f);
        float noise = 0.f;
        if (r->grain > 0.f) {
            uint32_t h = hash32(r->noise_seed ^ hash32((uint32_t)row * 73856093U ^ (uint32_t)column * 19349663U));
            noise = ((float)(h & 0xff) / 255.f - 0.5f) * 2.f * r->grain;
        }
        float tint[3] = { d->tint.r, d->tint.g, d->tint.b };
        for (int channel = 0; channel < 3; channel++) {
            pixels[column * 3 + channel] = (uint8_t)clampf(sum[channel] / weight * tint[channel] * shade + noise + 0.5f, 0.f, 255.f);
        }
    }
}

void cjpeg_landscape_finish(cjpeg_landscape_renderer *r) {
    if (r == NULL) return;
    free(r->ridges.far);
    free(r->ridges.mid);
    free(r->ridges.bank);
    free(r->row);
    free(r);
}
