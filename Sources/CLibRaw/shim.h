#ifndef CLIBRAW_SHIM_H
#define CLIBRAW_SHIM_H

#include <libraw/libraw.h>
#include <stdlib.h>
#include <string.h>

// LibRaw's C API catches its own C++ exceptions and answers with codes. Its data structure is large
// and full of unions; these read the few fields photopick needs, so Swift never lays it out.

/// What a RAW file's header says.
typedef struct {
    /// The image's size after LibRaw's crop, before `flip`.
    int width, height;
    /// The sensor's size as stored.
    int raw_width, raw_height;
    /// LibRaw's orientation: 0 none, 3 turned 180°, 5 turned 90° anticlockwise, 6 turned 90° clockwise.
    int flip;
    /// The embedded preview's size; 0 when there is none. Its format is known once unpacked.
    int thumb_width, thumb_height;
    /// The camera, for the loupe's line.
    char make[64], model[64];
} craw_info;

/// Opens a RAW file held in memory (which must stay alive while the handle does), reading its header.
/// NULL, with LibRaw's code in *error, when it is not a RAW LibRaw knows, or is damaged.
static inline libraw_data_t *craw_open(const void *data, size_t length, craw_info *info, int *error) {
    libraw_data_t *raw = libraw_init(0);
    if (!raw) { *error = LIBRAW_UNSUFFICIENT_MEMORY; return NULL; }
    int status = libraw_open_buffer(raw, (void *)data, length);
    if (status != LIBRAW_SUCCESS) { *error = status; libraw_close(raw); return NULL; }
    info->width = raw->sizes.width;
    info->height = raw->sizes.height;
    info->raw_width = raw->sizes.raw_width;
    info->raw_height = raw->sizes.raw_height;
    info->flip = raw->sizes.flip;
    info->thumb_width = raw->thumbnail.twidth;
    info->thumb_height = raw->thumbnail.theight;
    strncpy(info->make, raw->idata.make, sizeof info->make - 1);
    info->make[sizeof info->make - 1] = 0;
    strncpy(info->model, raw->idata.model, sizeof info->model - 1);
    info->model[sizeof info->model - 1] = 0;
    *error = 0;
    return raw;
}

/// The embedded preview's bytes when it is a JPEG: a malloc'd copy the caller frees. NULL otherwise.
static inline uint8_t *craw_preview_jpeg(libraw_data_t *raw, size_t *length, int *error) {
    int status = libraw_unpack_thumb(raw);
    if (status != LIBRAW_SUCCESS) { *error = status; return NULL; }
    if (raw->thumbnail.tformat != LIBRAW_THUMBNAIL_JPEG || raw->thumbnail.tlength == 0 || !raw->thumbnail.thumb) {
        *error = LIBRAW_NO_THUMBNAIL;
        return NULL;
    }
    uint8_t *copy = malloc(raw->thumbnail.tlength);
    if (!copy) { *error = LIBRAW_UNSUFFICIENT_MEMORY; return NULL; }
    memcpy(copy, raw->thumbnail.thumb, raw->thumbnail.tlength);
    *length = raw->thumbnail.tlength;
    *error = 0;
    return copy;
}

/// Demosaics at half size (each 2×2 block of the sensor one pixel), camera white balance, sRGB, 8 bits,
/// turned upright per `flip`. The caller checks the sensor's size first. The image is the caller's to
/// free with libraw_dcraw_clear_mem.
static inline libraw_processed_image_t *craw_demosaic_half(libraw_data_t *raw, int *error) {
    raw->params.half_size = 1;
    raw->params.use_camera_wb = 1;
    raw->params.output_bps = 8;
    int status = libraw_unpack(raw);
    if (status != LIBRAW_SUCCESS) { *error = status; return NULL; }
    status = libraw_dcraw_process(raw);
    if (status != LIBRAW_SUCCESS) { *error = status; return NULL; }
    libraw_processed_image_t *image = libraw_dcraw_make_mem_image(raw, error);
    if (image && (image->type != LIBRAW_IMAGE_BITMAP || image->colors != 3 || image->bits != 8)) {
        libraw_dcraw_clear_mem(image);
        *error = LIBRAW_UNSPECIFIED_ERROR;
        return NULL;
    }
    return image;
}

/// The image's packed RGB rows.
static inline void craw_count_data_error(void *count, const char *file, const INT64 offset) {
    (void)file; (void)offset;
    (*(int *)count)++;
}

/// Unpacks the sensor's data, as a check that it is all there: LibRaw's code, or LIBRAW_DATA_ERROR when
/// it read past the end or met data it could not decode (LibRaw counts those and goes on).
static inline int craw_verify_data(libraw_data_t *raw) {
    int errors = 0;
    libraw_set_dataerror_handler(raw, craw_count_data_error, &errors);
    int status = libraw_unpack(raw);
    libraw_set_dataerror_handler(raw, NULL, NULL);
    if (status != LIBRAW_SUCCESS) return status;
    return errors > 0 ? LIBRAW_DATA_ERROR : LIBRAW_SUCCESS;
}

static inline const uint8_t *craw_image_pixels(const libraw_processed_image_t *image) { return image->data; }

#endif
