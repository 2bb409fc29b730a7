#include "cjpeg.h"

#include <stdlib.h>
#include <string.h>

#include "internal.h"

#include <jerror.h>

int cjpeg_scale_numerator(int source_width, int source_height, int target_width, int target_height) {
    for (int n = 1; n < 8; n++) {
        // libjpeg sizes a DCT-scaled output by rounding up: jdiv_round_up(size * n, 8).
        long width = ((long)source_width * n + 7) / 8;
        long height = ((long)source_height * n + 7) / 8;
        if (width >= target_width && height >= target_height) return n;
    }
    return 8;
}

void cjpeg_fit(int source_width, int source_height, int orientation, int box_width, int box_height,
               int *width, int *height) {
    int shown_width = orientation >= 5 ? source_height : source_width;
    int shown_height = orientation >= 5 ? source_width : source_height;
    if (shown_width <= box_width && shown_height <= box_height) {
        *width = shown_width;
        *height = shown_height;
        return;
    }
    // Compare box_width / shown_width with box_height / shown_height without rounding.
    if ((long long)box_width * shown_height <= (long long)box_height * shown_width) {
        *width = box_width;
        *height = (int)(((long long)shown_height * box_width + shown_width / 2) / shown_width);
    } else {
        *height = box_height;
        *width = (int)(((long long)shown_width * box_height + shown_height / 2) / shown_height);
    }
    if (*width < 1) *width = 1;
    if (*height < 1) *height = 1;
}

static unsigned read16(const uint8_t *p, int big_endian) {
    return big_endian ? (unsigned)(p[0] << 8 | p[1]) : (unsigned)(p[1] << 8 | p[0]);
}

static uint32_t read32(const uint8_t *p, int big_endian) {
    return big_endian ? ((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3])
                      : ((uint32_t)p[3] << 24 | (uint32_t)p[2] << 16 | (uint32_t)p[1] << 8 | p[0]);
}

/// The Orientation tag of IFD0 in an APP1 `Exif` segment, or 1; every offset is bounds-checked.
static int exif_orientation(const uint8_t *data, size_t length) {
    if (length < 14 || memcmp(data, "Exif\0\0", 6) != 0) return 1;
    const uint8_t *tiff = data + 6;
    size_t size = length - 6;
    int big_endian;
    if (tiff[0] == 'M' && tiff[1] == 'M') big_endian = 1;
    else if (tiff[0] == 'I' && tiff[1] == 'I') big_endian = 0;
    else return 1;
    if (read16(tiff + 2, big_endian) != 42) return 1;
    uint32_t ifd = read32(tiff + 4, big_endian);
    if (ifd > size || size - ifd < 2) return 1;
    unsigned count = read16(tiff + ifd, big_endian);
    for (unsigned i = 0; i < count; i++) {
        size_t entry = (size_t)ifd + 2 + (size_t)i * 12;
        if (entry + 12 > size) return 1;
        // Orientation (0x0112), type SHORT (3): the value sits in the first two bytes of the value field.
        if (read16(tiff + entry, big_endian) == 0x0112 && read16(tiff + entry + 2, big_endian) == 3) {
            unsigned value = read16(tiff + entry + 8, big_endian);
            return value >= 1 && value <= 8 ? (int)value : 1;
        }
    }
    return 1;
}

static int orientation_of(j_decompress_ptr cinfo) {
    for (jpeg_saved_marker_ptr marker = cinfo->marker_list; marker != NULL; marker = marker->next) {
        if (marker->marker == JPEG_APP0 + 1) {
            int orientation = exif_orientation(marker->data, marker->data_length);
            if (orientation != 1) return orientation;
        }
    }
    return 1;
}

size_t cjpeg_stored_index(int orientation, int x, int y, int stored_width, int stored_height) {
    int sx, sy;
    switch (orientation) {
    case 2: sx = stored_width - 1 - x; sy = y; break;
    case 3: sx = stored_width - 1 - x; sy = stored_height - 1 - y; break;
    case 4: sx = x; sy = stored_height - 1 - y; break;
    case 5: sx = y; sy = x; break;
    case 6: sx = y; sy = stored_height - 1 - x; break;
    case 7: sx = stored_width - 1 - y; sy = stored_height - 1 - x; break;
    case 8: sx = stored_width - 1 - y; sy = x; break;
    default: sx = x; sy = y; break;
    }
    return ((size_t)sy * (size_t)stored_width + (size_t)sx) * 3;
}

void cjpeg_orient_rgb(const uint8_t *stored, int stored_width, int stored_height, int orientation, uint8_t *out) {
    int turned = orientation >= 5 && orientation <= 8;
    int width = turned ? stored_height : stored_width, height = turned ? stored_width : stored_height;
    for (int y = 0; y < height; y++) {
        for (int x = 0; x < width; x++) {
            memcpy(out + ((size_t)y * (size_t)width + (size_t)x) * 3,
                   stored + cjpeg_stored_index(orientation, x, y, stored_width, stored_height), 3);
        }
    }
}

/// libjpeg's own memory for a progressive decode, which keeps every coefficient; past it, the decode
/// fails instead of growing.
static const long maximum_decoder_memory = 256L << 20;

/// Reads the header, filling in the declared size, orientation and progression.
static void read_header(j_decompress_ptr cinfo, const uint8_t *data, size_t length, cjpeg_decode_info *info) {
    jpeg_CreateDecompress(cinfo, JPEG_LIB_VERSION, sizeof(*cinfo));
    jpeg_mem_src(cinfo, data, (unsigned long)length);
    jpeg_save_markers(cinfo, JPEG_APP0 + 1, 0xFFFF);
    jpeg_read_header(cinfo, TRUE);
    info->source_width = (int)cinfo->image_width;
    info->source_height = (int)cinfo->image_height;
    info->orientation = orientation_of(cinfo);
    info->progressive = cinfo->progressive_mode ? 1 : 0;
    info->scale_numerator = 8;
}

static int is_jpeg(const uint8_t *data, size_t length) {
    return length >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF;
}

static void release_buffers(decode_buffers *buffers) {
    free(buffers->row);
    free(buffers->sums);
    free(buffers->column_bin);
    free(buffers->column_count);
    free(buffers->small);
    free(buffers->result);
    free(buffers);
}

/// libjpeg-turbo's advice against files with a flood of tiny progressive scans: stop after this many.
static const int maximum_scans = 500;

static void limit_scans(j_common_ptr cinfo) {
    j_decompress_ptr decompress = (j_decompress_ptr)cinfo;
    if (decompress->input_scan_number > maximum_scans) {
        cjpeg_error_manager *manager = (cjpeg_error_manager *)cinfo->err;
        snprintf(manager->message, sizeof(manager->message), "more than %d progressive scans", maximum_scans);
        longjmp(manager->escape, 1);  // as error_exit does
    }
}

/// After the header: the scan limit, the memory cap a progressive file's coefficients get, and the
/// pixel cap. Returns 0, with the message, when the image declares more than `max_pixels`.
static int within_limits(j_decompress_ptr cinfo, struct jpeg_progress_mgr *progress, uint64_t max_pixels,
                         char *message, size_t message_capacity) {
    cinfo->progress = progress;
    // Only a progressive file keeps the whole image's coefficients; the limit would slow a baseline
    // decode's allocations for nothing.
    if (cinfo->progressive_mode) cinfo->mem->max_memory_to_use = maximum_decoder_memory;
    if ((uint64_t)cinfo->image_width * (uint64_t)cinfo->image_height <= max_pixels) return 1;
    char text[160];
    snprintf(text, sizeof(text), "the image declares %ux%u pixels, more than the %llu allowed",
             (unsigned)cinfo->image_width, (unsigned)cinfo->image_height, (unsigned long long)max_pixels);
    copy_message(message, message_capacity, text);
    return 0;
}

void cjpeg_pixel_rgb(const uint8_t *pixel, int cmyk, int inverted, unsigned rgb[3]) {
    if (!cmyk) {
        rgb[0] = pixel[0];
        rgb[1] = pixel[1];
        rgb[2] = pixel[2];
        return;
    }
    unsigned c = pixel[0], m = pixel[1], y = pixel[2], k = pixel[3];
    if (!inverted) { c = 255 - c; m = 255 - m; y = 255 - y; k = 255 - k; }
    rgb[0] = c * k / 255;
    rgb[1] = m * k / 255;
    rgb[2] = y * k / 255;
}

/// Everything decodes share: the JPEG check, libjpeg's errors turned into codes (the setjmp is here,
/// so the body's errors land in this frame), the header, the pixel and scan caps, damage found on the
/// way, and freeing what was used.
cjpeg_status cjpeg_decode_with(const uint8_t *data, size_t length, uint64_t max_pixels, cjpeg_decode_body body,
                               const void *request, uint8_t **out, cjpeg_decode_info *info,
                               char *message, size_t message_capacity) {
    *out = NULL;
    if (!is_jpeg(data, length)) {
        copy_message(message, message_capacity, "not a JPEG file");
        return CJPEG_ERR_NOT_JPEG;
    }
    struct jpeg_decompress_struct cinfo;
    cjpeg_error_manager errors;
    // The buffers' pointers live on the heap, behind a pointer that does not change after setjmp, so
    // their values are well defined after a longjmp back into this frame.
    decode_buffers *const buffers = calloc(1, sizeof(decode_buffers));
    if (buffers == NULL) {
        copy_message(message, message_capacity, "out of memory");
        return CJPEG_ERR_MEMORY;
    }
    memset(&cinfo, 0, sizeof(cinfo));
    cinfo.err = cjpeg_errors(&errors);
    struct jpeg_progress_mgr progress = { .progress_monitor = limit_scans };
    if (setjmp(errors.escape)) {
        copy_message(message, message_capacity, errors.message);
        // Past libjpeg's own limit of 65,500 per side, or needing more memory than the decoder may use:
        // too large, like a claim past the pixel cap.
        int too_big = errors.base.msg_code == JERR_IMAGE_TOO_BIG || errors.base.msg_code == JERR_NO_BACKING_STORE;
        if (too_big) {
            info->source_width = (int)cinfo.image_width;
            info->source_height = (int)cinfo.image_height;
        }
        jpeg_destroy_decompress(&cinfo);
        release_buffers(buffers);
        return too_big ? CJPEG_ERR_TOO_MANY_PIXELS : CJPEG_ERR_CORRUPT;
    }
    memset(info, 0, sizeof(*info));
    read_header(&cinfo, data, length, info);
    cjpeg_status status = within_limits(&cinfo, &progress, max_pixels, message, message_capacity)
        ? body(&cinfo, buffers, info, request, message, message_capacity) : CJPEG_ERR_TOO_MANY_PIXELS;
    jpeg_destroy_decompress(&cinfo);
    if (status == CJPEG_OK && errors.damage_warnings > 0) {
        copy_message(message, message_capacity, errors.message[0] ? errors.message : "corrupt or truncated JPEG data");
        status = CJPEG_ERR_CORRUPT;
    }
    if (status == CJPEG_OK) {
        *out = buffers->result;
        buffers->result = NULL;
    }
    release_buffers(buffers);
    return status;
}

typedef struct {
    int width, height;
} fit_box;

/// The fitted decode: DCT-scaled to the smallest sufficient scale, area-averaged to the exact size,
/// turned upright.
static cjpeg_status fit_body(j_decompress_ptr cinfo, decode_buffers *buffers, cjpeg_decode_info *info,
                             const void *request, char *message, size_t message_capacity) {
    const fit_box *box = request;
    int width, height;
    cjpeg_fit(info->source_width, info->source_height, info->orientation, box->width, box->height, &width, &height);
    int swapped = info->orientation >= 5;
    int target_width = swapped ? height : width;   // in the stored orientation
    int target_height = swapped ? width : height;
    int numerator = cjpeg_scale_numerator(info->source_width, info->source_height, target_width, target_height);
    cinfo->scale_num = (unsigned)numerator;
    cinfo->scale_denom = 8;
    int cmyk = cinfo->jpeg_color_space == JCS_CMYK || cinfo->jpeg_color_space == JCS_YCCK;
    int inverted = cinfo->saw_Adobe_marker;
    cinfo->out_color_space = cmyk ? JCS_CMYK : JCS_RGB;
    jpeg_start_decompress(cinfo);
    info->scale_numerator = numerator;

    int scaled_width = (int)cinfo->output_width;
    int scaled_height = (int)cinfo->output_height;
    int components = cinfo->output_components;
    if (target_width > scaled_width) target_width = scaled_width;
    if (target_height > scaled_height) target_height = scaled_height;
    width = swapped ? target_height : target_width;
    height = swapped ? target_width : target_height;

    buffers->row = malloc((size_t)scaled_width * (size_t)components);
    buffers->sums = calloc((size_t)target_width * 3, sizeof(uint64_t));
    buffers->column_bin = malloc((size_t)scaled_width * sizeof(int));
    buffers->column_count = calloc((size_t)target_width, sizeof(int));
    buffers->small = malloc((size_t)target_width * (size_t)target_height * 3);
    if (!buffers->row || !buffers->sums || !buffers->column_bin || !buffers->column_count || !buffers->small) {
        copy_message(message, message_capacity, "out of memory");
        return CJPEG_ERR_MEMORY;
    }
    // Area averaging: source column x falls in output column x * target / scaled, and likewise for rows.
    for (int x = 0; x < scaled_width; x++) {
        int bin = (int)((long long)x * target_width / scaled_width);
        buffers->column_bin[x] = bin;
        buffers->column_count[bin]++;
    }
    int rows_in_bin = 0;
    while (cinfo->output_scanline < cinfo->output_height) {
        int y = (int)cinfo->output_scanline;
        JSAMPROW rows[1] = { buffers->row };
        jpeg_read_scanlines(cinfo, rows, 1);
        const uint8_t *pixel = buffers->row;
        for (int x = 0; x < scaled_width; x++, pixel += components) {
            uint64_t *sum = buffers->sums + buffers->column_bin[x] * 3;
            unsigned rgb[3];
            cjpeg_pixel_rgb(pixel, cmyk, inverted, rgb);
            sum[0] += rgb[0];
            sum[1] += rgb[1];
            sum[2] += rgb[2];
        }
        rows_in_bin++;
        int bin = (int)((long long)y * target_height / scaled_height);
        int next_bin = (int)((long long)(y + 1) * target_height / scaled_height);
        if (y + 1 == scaled_height || next_bin != bin) {
            uint8_t *destination = buffers->small + (size_t)bin * (size_t)target_width * 3;
            for (int x = 0; x < target_width; x++) {
                uint64_t area = (uint64_t)buffers->column_count[x] * (uint64_t)rows_in_bin;
                for (int c = 0; c < 3; c++) {
                    destination[x * 3 + c] = (uint8_t)((buffers->sums[x * 3 + c] + area / 2) / area);
                }
            }
            memset(buffers->sums, 0, (size_t)target_width * 3 * sizeof(uint64_t));
            rows_in_bin = 0;
        }
    }
    jpeg_finish_decompress(cinfo);

    if (info->orientation == 1) {
        buffers->result = buffers->small;
        buffers->small = NULL;
    } else {
        buffers->result = malloc((size_t)width * (size_t)height * 3);
        if (buffers->result == NULL) {
            copy_message(message, message_capacity, "out of memory");
            return CJPEG_ERR_MEMORY;
        }
        uint8_t *destination = buffers->result;
        for (int y = 0; y < height; y++) {
            for (int x = 0; x < width; x++, destination += 3) {
                memcpy(destination, buffers->small + cjpeg_stored_index(info->orientation, x, y, target_width, target_height), 3);
            }
        }
    }
    info->width = width;
    info->height = height;
    return CJPEG_OK;
}


cjpeg_status cjpeg_decode_fit(const uint8_t *data, size_t length, int box_width, int box_height,
                              uint64_t max_pixels, uint8_t **out, cjpeg_decode_info *info,
                              char *message, size_t message_capacity) {
    if (data == NULL || out == NULL || info == NULL || box_width <= 0 || box_height <= 0) {
        copy_message(message, message_capacity, "invalid decoder arguments");
        return CJPEG_ERR_ARGUMENT;
    }
    fit_box box = { box_width, box_height };
    return cjpeg_decode_with(data, length, max_pixels, fit_body, &box, out, info, message, message_capacity);
}
