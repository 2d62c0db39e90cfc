// Colour filters over opaque 8-bit pictures by tables (ColorTables.swift): byte in, byte out, one pass.
#include "include/pixelloops.h"
#include "simd512.h"
#include <string.h>

// Float arithmetic here must round as Swift's does (ColorTables' greys): each operation on its own, never fused.
#pragma clang fp contract(off)

void pixelloops_table8_channels(const uint8_t *src, int count, const uint8_t *tables, uint8_t *dst) {
    int i = 0;
#if defined(__AVX512VBMI__)
    // Sixteen pixels a step: every byte looks up the three tables by byte permutes, and each channel keeps its own.
    for (; i + 16 <= count; i += 16) {
        const __m512i p = _mm512_loadu_si512((const void *)(src + 4 * i));
        const __mmask64 upper = _mm512_movepi8_mask(p);
        __m512i out = _mm512_mask_blend_epi8(0x2222222222222222ull, lookup_bytes(tables, p, upper),
                                             lookup_bytes(tables + 256, p, upper));
        out = _mm512_mask_blend_epi8(0x4444444444444444ull, out, lookup_bytes(tables + 512, p, upper));
        _mm512_storeu_si512((void *)(dst + 4 * i), _mm512_mask_blend_epi8(0x8888888888888888ull, out, _mm512_set1_epi8(-1)));
    }
#endif
    const uint8_t *tr = tables, *tg = tables + 256, *tb = tables + 512;
    for (; i < count; i++) {
        dst[4 * i] = tr[src[4 * i]];
        dst[4 * i + 1] = tg[src[4 * i + 1]];
        dst[4 * i + 2] = tb[src[4 * i + 2]];
        dst[4 * i + 3] = 255;
    }
}

void pixelloops_table8_luminance(const uint8_t *src, int count, const uint64_t *sums, const uint32_t *entries,
                                 uint8_t *dst) {
    int i = 0;
#if defined(__AVX512VBMI__)
    // Sixty-four pixels a step: their sums' 16-bit values by byte permutes of the tables' low and high bytes
    // (`sums` + 768: red's 256 low bytes, then its high bytes, then green's and blue's), summed as words, and the
    // pixels by sixteen-lane gathers from `entries`. Measured on Zen 5 (bench d, one thread): 1.19 → 0.82–0.84 ms
    // a frame.
    const uint8_t *split = (const uint8_t *)(sums + 768);
    const int *words = (const int *)entries;
    for (; i + 64 <= count; i += 64) {
        // The source 2 KiB ahead (measured: bench d 0.54–0.63 → 0.50–0.61 ms, the hardware prefetch falling behind).
        for (int k = 0; k < 256; k += 64) _mm_prefetch((const char *)(src + 4 * i + 2048 + k), _MM_HINT_T0);
        __m512i planes[3], lo, hi;
        __mmask64 upper[3];
        channel_planes(src + 4 * i, plane_order, planes, upper);
        sum_words64(split, planes, upper, &lo, &hi);
        // The entries by gathers (measured on Zen 5 faster than scalar loads from this L2-sized table: 0.82–0.84
        // against 0.94–0.96 ms a frame, one thread).
        uint8_t *out = dst + 4 * i;
        _mm512_storeu_si512((void *)out, _mm512_i32gather_epi32(widen_words(lo, 0), words, 4));
        _mm512_storeu_si512((void *)(out + 64), _mm512_i32gather_epi32(widen_words(lo, 1), words, 4));
        _mm512_storeu_si512((void *)(out + 128), _mm512_i32gather_epi32(widen_words(hi, 0), words, 4));
        _mm512_storeu_si512((void *)(out + 192), _mm512_i32gather_epi32(widen_words(hi, 1), words, 4));
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
    int i = 0;
    const uint64_t *sr = sums, *sg = sums + 256, *sb = sums + 512;
    const uint8_t *outr = outputs, *outg = outputs + stride, *outb = outputs + 2 * stride;
    // Bytes read and written one by one: fewer instructions than a word taken apart and put together. Measured
    // (C model, AMD EPYC, one thread, rows of 1920, min of 8, eight runs): 4.6–5.0 ms a frame against 5.1–5.5.
    for (; i < count; i++) {
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

int pixelloops_has_byte_permutes(void) {
#if defined(__AVX512VBMI__)
    return 1;
#else
    return 0;
#endif
}

#if defined(__AVX512VBMI__)
// A sum times a factor stays under 2^31, as sums do, so that its root's conversion to an integer cannot overflow.
static const float largest_value = 2147483648.0f;
enum { root_table = 128 * (PIXELLOOPS_ROOT_STEPS + 1) };

// The sixty-four-pixel loop for `rows` (1 or 3) and `step_count` thresholds, constants where it is called: always
// inlined, so that each call is its own loop (the package's build otherwise kept one loop of variables). Each
// channel's words by byte permutes of their low and high bytes, paired (red, green) and (blue, one) in 32-bit lanes
// for the multiply-adds, a row's sum of two each, then each output's steps by the sum's square root, all in
// registers. The channels' bytes are gathered in `pair_order`, so that the pairs come out in pixel order. The square
// root (its reciprocal's estimate, within 2^−14, times the value) spreads the sRGB curve's 255 steps over its 128
// slices at three or fewer a slice, where the float's bits (a slice an eighth of an octave) need ten. Measured on
// Zen 5 (C model, one thread, rows of 1920): 1.65 → 1.31 ms a frame against the nine tables' sums; 1.13 → 0.84 by
// the roots.
static inline __attribute__((always_inline)) void
matrix_loop(const uint8_t *src, int count, const uint8_t *bytes, const int16_t *coefficients, const int rows, int one,
            float scale, const float *const gains[3], const uint8_t *steps, const int step_count, uint8_t *dst) {
    const __m512 scaling = _mm512_set1_ps(scale), limit = _mm512_set1_ps(largest_value);
    const __m512i alpha = _mm512_set1_epi32((int)0xFF000000u), ones = _mm512_set1_epi16((short)one);
    const __m512i order[4] = {packed_order(0), packed_order(1), packed_order(2), packed_order(3)};
    __m512i rg[3], bo[3];
    for (int c = 0; c < rows; c++) {
        const int16_t *m = coefficients + 4 * c;
        rg[c] = _mm512_set1_epi32((int)((uint32_t)(uint16_t)m[0] | (uint32_t)(uint16_t)m[1] << 16));
        bo[c] = _mm512_set1_epi32((int)((uint32_t)(uint16_t)m[2] | (uint32_t)(uint16_t)m[3] << 16));
    }
    const ByteTable low[3] = {byte_table(bytes), byte_table(bytes + 512), byte_table(bytes + 1024)};
    const ByteTable high[3] = {byte_table(bytes + 256), byte_table(bytes + 768), byte_table(bytes + 1280)};
    for (int i = 0; i + 64 <= count; i += 64) {
        __m512i planes[3], lo[3], hi[3];
        __mmask64 upper[3];
        channel_planes(src + 4 * i, pair_order, planes, upper);
        for (int j = 0; j < 3; j++) {
            const __m512i l = lookup_table(&low[j], planes[j], upper[j]), h = lookup_table(&high[j], planes[j], upper[j]);
            lo[j] = _mm512_unpacklo_epi8(l, h);
            hi[j] = _mm512_unpackhi_epi8(l, h);
        }
        // Quarter q: pixels 16q…16q + 15 in order.
        const __m512i pairs_rg[4] = {_mm512_unpacklo_epi16(lo[0], lo[1]), _mm512_unpackhi_epi16(lo[0], lo[1]),
                                     _mm512_unpacklo_epi16(hi[0], hi[1]), _mm512_unpackhi_epi16(hi[0], hi[1])};
        const __m512i pairs_bo[4] = {_mm512_unpacklo_epi16(lo[2], ones), _mm512_unpackhi_epi16(lo[2], ones),
                                     _mm512_unpacklo_epi16(hi[2], ones), _mm512_unpackhi_epi16(hi[2], ones)};
        __m512i encoded[3];
        SplitIndices split;
        for (int c = 0; c < 3; c++) {
            if (c < rows) {
                __m512i index[4];
                for (int q = 0; q < 4; q++) {
#if defined(__AVX512VNNI__)
                    const __m512i sum = _mm512_dpwssd_epi32(_mm512_madd_epi16(pairs_rg[q], rg[c]), pairs_bo[q], bo[c]);
#else
                    const __m512i sum = _mm512_add_epi32(_mm512_madd_epi16(pairs_rg[q], rg[c]), _mm512_madd_epi16(pairs_bo[q], bo[c]));
#endif
                    __m512 value = _mm512_cvtepi32_ps(sum);
                    if (gains[0]) value = _mm512_min_ps(limit, _mm512_mul_ps(value, _mm512_loadu_ps(gains[c] + i + 16 * q)));
                    // 0 and negative values give NaN, which converts to the lowest integer and packs to 0.
                    const __m512 root = _mm512_mul_ps(_mm512_mul_ps(value, _mm512_rsqrt14_ps(value)), scaling);
                    index[q] = _mm512_cvtps_epi32(root);
                }
                split = split_indices(index[0], index[1], index[2], index[3]);
            }
            encoded[c] = step_bytes(steps + root_table * c, step_count, split);
        }
        for (int k = 0; k < 4; k++)
            _mm512_storeu_si512((void *)(dst + 4 * (i + 16 * k)), planes_to_pixels(encoded[0], encoded[1], encoded[2], order[k], alpha));
    }
}

// Sixty-four pixels a step (`count` a multiple of 64) by the loop of these rows and steps.
static void matrix_pixels(const uint8_t *src, int count, const uint8_t *bytes, const int16_t *coefficients, int rows,
                          int one, float scale, const float *const gains[3], const uint8_t *steps, int step_count,
                          uint8_t *dst) {
    if (rows == 3 && step_count <= 3) matrix_loop(src, count, bytes, coefficients, 3, one, scale, gains, steps, 3, dst);
    else if (rows == 1) matrix_loop(src, count, bytes, coefficients, 1, one, scale, gains, steps, PIXELLOOPS_ROOT_STEPS, dst);
    else matrix_loop(src, count, bytes, coefficients, 3, one, scale, gains, steps, PIXELLOOPS_ROOT_STEPS, dst);
}
#endif

void pixelloops_table8_matrix(const uint8_t *src, int count, const uint64_t *words, const int16_t *coefficients,
                              int rows, int one, float scale, const float *gain_r, const float *gain_g,
                              const float *gain_b, const uint8_t *steps, int step_count, uint8_t *dst) {
#if defined(__AVX512VBMI__)
    const uint8_t *bytes = (const uint8_t *)words;
    const float *const gains[3] = {gain_r, gain_g, gain_b};
    const int done = count & ~63, left = count - done;
    matrix_pixels(src, done, bytes, coefficients, rows, one, scale, gains, steps, step_count, dst);
    if (left == 0) return;
    // The last pixels (under 64) by the same loop through a padded copy, so that a pixel's bytes never depend on
    // where it lies in a row (tiles and the whole picture agree).
    uint8_t in[256] = {0}, out[256];
    float padded[3][64] = {{0}};
    const float *padded_gains[3] = {NULL, NULL, NULL};
    for (int c = 0; c < 3 && gain_r; c++) {
        memcpy(padded[c], gains[c] + done, 4 * (size_t)left);
        padded_gains[c] = padded[c];
    }
    memcpy(in, src + 4 * done, 4 * (size_t)left);
    matrix_pixels(in, 64, bytes, coefficients, rows, one, scale, padded_gains, steps, step_count, out);
    memcpy(dst + 4 * done, out, 4 * (size_t)left);
#else
    (void)src, (void)count, (void)words, (void)coefficients, (void)rows, (void)one, (void)scale, (void)gain_r;
    (void)gain_g, (void)gain_b, (void)steps, (void)step_count, (void)dst;
#endif
}
