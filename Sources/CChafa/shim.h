#ifndef CCHAFA_SHIM_H
#define CCHAFA_SHIM_H

#include <chafa.h>
#include <string.h>

/// Symbol tags as plain integers: the enum's combined values do not import as one type.
static inline ChafaSymbolTags cch_tags(unsigned int bits) { return (ChafaSymbolTags)bits; }

/// Renders RGB pixels into `canvas` and copies what chafa_canvas_print wrote (a sixel image, or any
/// other pixel mode) into a malloc'd buffer the caller frees with cch_free; returns its length.
static inline size_t cch_print(ChafaCanvas *canvas, char **out) {
    ChafaTermInfo *info = chafa_term_db_get_fallback_info(chafa_term_db_get_default());
    GString *printed = chafa_canvas_print(canvas, info);
    chafa_term_info_unref(info);
    size_t length = printed->len;
    *out = (char *)malloc(length > 0 ? length : 1);
    if (*out != NULL) memcpy(*out, printed->str, length);
    g_string_free(printed, TRUE);
    return *out != NULL ? length : 0;
}

static inline void cch_free(char *buffer) { free(buffer); }
#endif
