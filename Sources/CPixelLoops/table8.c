// Colour filters over opaque 8-bit pictures by tables (ColorTables.swift): byte in, byte out, one pass.
#include "include/pixelloops.h"
#include <math.h>
#include <string.h>

void pixelloops_table8_channels(const uint8_t *src, int count, const uint8_t *tables, uint8_t *dst) {
    const uint8_t *tr = tables, *tg = tables + 256, *tb = tables + 512;
    for (int i = 0; i < count; i++) {
        dst[4 * i] = tr[src[4 * i]];
        dst[4 * i + 1] = tg[src[4 * i + 1]];
        dst[4 * i + 2] = tb[src[4 * i + 2]];
        dst[4 * i + 3] = 255;
    }
}

void pixelloops_table8_luminance(const uint8_t *src, int count, const float *weighted, float scale, int top,
                                 const uint32_t *entries, uint8_t *dst) {
    const float *wr = weighted, *wg = weighted + 256, *wb = weighted + 512;
    for (int i = 0; i < count; i++) {
        uint32_t pixel;
        memcpy(&pixel, src + 4 * i, 4);
        // The sum in the order the kernels make it: (r·wr + g·wg) + b·wb.
        const float y = wr[pixel & 0xff] + wg[pixel >> 8 & 0xff] + wb[pixel >> 16 & 0xff];
        const int k = (int)(sqrtf(y) * scale + 0.5f);
        memcpy(dst + 4 * i, &entries[k < top ? k : top], 4);
    }
}
