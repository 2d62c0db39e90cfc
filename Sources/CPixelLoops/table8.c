// Colour filters over opaque 8-bit pictures by tables (ColorTables.swift): byte in, byte out, one pass.
#include "include/pixelloops.h"
#include <string.h>
#if defined(__AVX512VBMI__)
#include <immintrin.h>
#endif

void pixelloops_table8_channels(const uint8_t *src, int count, const uint8_t *tables, uint8_t *dst) {
    const uint8_t *tr = tables, *tg = tables + 256, *tb = tables + 512;
    for (int i = 0; i < count; i++) {
        dst[4 * i] = tr[src[4 * i]];
        dst[4 * i + 1] = tg[src[4 * i + 1]];
        dst[4 * i + 2] = tb[src[4 * i + 2]];
        dst[4 * i + 3] = 255;
    }
}

#if defined(__AVX512VBMI__)
// Where sixty-four pixels' bytes of one channel are taken from, as offsets in two registers of sixteen pixels: the
// order that `pixelloops_table8_luminance`'s unpacks and widening turn back into pixel order (pixels 0–7, 32–39,
// 8–15, 40–47 and so on: each 128-bit lane's low half becomes earlier pixels' words, its high half later ones').
static const uint8_t plane_order[64] = {
    0, 4, 8, 12, 16, 20, 24, 28, 0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 32, 36, 40, 44,
    48, 52, 56, 60, 64, 68, 72, 76, 80, 84, 88, 92, 64, 68, 72, 76, 80, 84, 88, 92, 96, 100, 104, 108, 112, 116,
    120, 124, 96, 100, 104, 108, 112, 116, 120, 124};

// One channel's bytes of sixty-four pixels (four registers of sixteen), in `plane_order` plus the channel.
static inline __m512i channel_plane(__m512i p0, __m512i p1, __m512i p2, __m512i p3, __m512i order) {
    return _mm512_mask_blend_epi8(0xFF00FF00FF00FF00ull, _mm512_permutex2var_epi8(p0, order, p1),
                                  _mm512_permutex2var_epi8(p2, order, p3));
}

// A 256-entry byte table (four registers) looked up by sixty-four bytes.
static inline __m512i lookup_bytes(const uint8_t *table, __m512i index, __mmask64 upper) {
    const __m512i low = _mm512_permutex2var_epi8(_mm512_loadu_si512((const void *)table), index,
                                                 _mm512_loadu_si512((const void *)(table + 64)));
    const __m512i high = _mm512_permutex2var_epi8(_mm512_loadu_si512((const void *)(table + 128)), index,
                                                  _mm512_loadu_si512((const void *)(table + 192)));
    return _mm512_mask_blend_epi8(upper, low, high);
}
#endif

void pixelloops_table8_luminance(const uint8_t *src, int count, const uint64_t *sums, const uint32_t *entries,
                                 uint8_t *dst) {
    int i = 0;
#if defined(__AVX512VBMI__)
    // Sixty-four pixels a step: their sums' 16-bit values by byte permutes of the tables' low and high bytes
    // (`sums` + 768: red's 256 low bytes, then its high bytes, then green's and blue's), summed as words, and the
    // pixels by sixteen-lane gathers from `entries`. Measured on Zen 5 (bench d, one thread): 1.19 → 0.82–0.84 ms
    // a frame.
    const uint8_t *split = (const uint8_t *)(sums + 768);
    for (; i + 64 <= count; i += 64) {
        // The source 2 KiB ahead (measured: bench d 0.54–0.63 → 0.50–0.61 ms, the hardware prefetch falling behind).
        for (int k = 0; k < 256; k += 64) _mm_prefetch((const char *)(src + 4 * i + 2048 + k), _MM_HINT_T0);
        const __m512i p0 = _mm512_loadu_si512((const void *)(src + 4 * i)), p1 = _mm512_loadu_si512((const void *)(src + 4 * i + 64));
        const __m512i p2 = _mm512_loadu_si512((const void *)(src + 4 * i + 128)), p3 = _mm512_loadu_si512((const void *)(src + 4 * i + 192));
        __m512i lo = _mm512_setzero_si512(), hi = lo;
        for (int c = 0; c < 3; c++) {
            const __m512i order = _mm512_add_epi8(_mm512_loadu_si512((const void *)plane_order), _mm512_set1_epi8((char)c));
            const __m512i plane = channel_plane(p0, p1, p2, p3, order);
            const __mmask64 upper = _mm512_movepi8_mask(plane);
            const __m512i low = lookup_bytes(split + 512 * c, plane, upper);
            const __m512i high = lookup_bytes(split + 512 * c + 256, plane, upper);
            lo = _mm512_add_epi16(lo, _mm512_unpacklo_epi8(low, high));
            hi = _mm512_add_epi16(hi, _mm512_unpackhi_epi8(low, high));
        }
        // The entries by gathers (measured on Zen 5 faster than scalar loads from this L2-sized table: 0.82–0.84
        // against 0.94–0.96 ms a frame, one thread).
        const int *words = (const int *)entries;
        uint8_t *out = dst + 4 * i;
        _mm512_storeu_si512((void *)out, _mm512_i32gather_epi32(_mm512_cvtepu16_epi32(_mm512_castsi512_si256(lo)), words, 4));
        _mm512_storeu_si512((void *)(out + 64), _mm512_i32gather_epi32(_mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(lo, 1)), words, 4));
        _mm512_storeu_si512((void *)(out + 128), _mm512_i32gather_epi32(_mm512_cvtepu16_epi32(_mm512_castsi512_si256(hi)), words, 4));
        _mm512_storeu_si512((void *)(out + 192), _mm512_i32gather_epi32(_mm512_cvtepu16_epi32(_mm512_extracti64x4_epi64(hi, 1)), words, 4));
    }
#endif
    const uint64_t *sr = sums, *sg = sums + 256, *sb = sums + 512;
    for (; i < count; i++) {
        uint32_t pixel;
        memcpy(&pixel, src + 4 * i, 4);
        const uint32_t y = (uint32_t)(sr[pixel & 0xff] + sg[pixel >> 8 & 0xff] + sb[pixel >> 16 & 0xff]);
        memcpy(dst + 4 * i, &entries[y], 4);
    }
}

void pixelloops_table8_affine(const uint8_t *src, int count, const uint64_t *sums, const uint8_t *outputs,
                              int stride, uint8_t *dst) {
    const uint64_t *sr = sums, *sg = sums + 256, *sb = sums + 512;
    const uint8_t *outr = outputs, *outg = outputs + stride, *outb = outputs + 2 * stride;
    // Bytes read and written one by one: fewer instructions than a word taken apart and put together. Measured
    // (C model, AMD EPYC, one thread, rows of 1920, min of 8, eight runs): 4.6–5.0 ms a frame against 5.1–5.5.
    for (int i = 0; i < count; i++) {
        const uint8_t *p = src + 4 * i;
        // Three 16-bit lanes summed at once: none carries into the next (each sum is at most 65535).
        const uint64_t v = sr[p[0]] + sg[p[1]] + sb[p[2]];
        uint8_t *q = dst + 4 * i;
        q[0] = outr[(uint16_t)v];
        q[1] = outg[(uint16_t)(v >> 16)];
        q[2] = outb[(uint16_t)(v >> 32)];
        q[3] = 255;
    }
}
