#include "internal.h"

#include <jerror.h>

static void cjpeg_error_exit(j_common_ptr cinfo) {
    cjpeg_error_manager *manager = (cjpeg_error_manager *)cinfo->err;
    manager->base.format_message(cinfo, manager->message);
    longjmp(manager->escape, 1);
}

static void cjpeg_output_message(j_common_ptr cinfo) { (void)cinfo; }

static void cjpeg_emit_message(j_common_ptr cinfo, int level) {
    cjpeg_error_manager *manager = (cjpeg_error_manager *)cinfo->err;
    if (level < 0) {
        cinfo->err->num_warnings++;
        if (cinfo->err->msg_code != JWRN_EXTRANEOUS_DATA) {
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
