#include "internal.h"

#include <jerror.h>

static void cjpeg_error_exit(j_common_ptr cinfo) {
    cjpeg_error_manager *manager = (cjpeg_error_manager *)cinfo->err;
    manager->base.format_message(cinfo, manager->message);
    longjmp(manager->escape, 1);
}

static void cjpeg_output_message(j_common_ptr cinfo) { (void)cinfo; }

/// Warnings that mean the picture is damaged, as opposed to merely unusual (stray bytes between
/// markers, an unknown JFIF or Adobe version).
static int is_damage(int code) {
    switch (code) {
    case JWRN_JPEG_EOF: case JWRN_HIT_MARKER: case JWRN_HUFF_BAD_CODE: case JWRN_MUST_RESYNC:
    case JWRN_NOT_SEQUENTIAL: case JWRN_BOGUS_PROGRESSION:
        return 1;
    default:
        return 0;
    }
}

static void cjpeg_emit_message(j_common_ptr cinfo, int level) {
    cjpeg_error_manager *manager = (cjpeg_error_manager *)cinfo->err;
    if (level < 0) {
        cinfo->err->num_warnings++;
        if (is_damage(cinfo->err->msg_code)) {
            manager->damage_warnings++;
            if (manager->damage_warnings == 1) manager->base.format_message(cinfo, manager->message);
        }
    }
}

struct jpeg_error_mgr *cjpeg_errors(cjpeg_error_manager *errors) {
    struct jpeg_error_mgr *manager = jpeg_std_error(&errors->base);
    errors->base.error_exit = cjpeg_error_exit;
    errors->base.output_message = cjpeg_output_message;
    errors->base.emit_message = cjpeg_emit_message;
    errors->message[0] = 0;
    errors->damage_warnings = 0;
    return manager;
}

void copy_message(char *message, size_t capacity, const char *text) {
    if (message == NULL || capacity == 0) return;
    snprintf(message, capacity, "%s", text);
}
