#ifndef CFREETYPE_SHIM_H
#define CFREETYPE_SHIM_H
#include <ft2build.h>
#include FT_FREETYPE_H

// FT_LOAD_TARGET_NORMAL is a function-like macro, which Swift does not import.
static inline FT_Int32 cfreetype_load_render_normal(void) { return FT_LOAD_RENDER | FT_LOAD_TARGET_NORMAL; }
#endif
