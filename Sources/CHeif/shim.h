#ifndef CHEIF_SHIM_H
#define CHEIF_SHIM_H

#include <libheif/heif.h>
#include <libheif/heif_items.h>
#include <libheif/heif_properties.h>

// The tile API (heif_image_handle_decode_image_tile, heif_context_add_grid_image) came with 1.19.
#if LIBHEIF_NUMERIC_VERSION < 0x01130000
#error "photopick needs libheif 1.19 or later (its tile API): on Debian 12, install libheif-dev from bookworm-backports (README.md, Quick start)"
#endif

#endif
