// The AVX-512 byte-permute helpers the table loops share (srgb8.c, table8.c); empty without AVX-512 VBMI.
#ifndef PIXELLOOPS_SIMD512_H
#define PIXELLOOPS_SIMD512_H
#include "include/pixelloops.h"
#if defined(__AVX512VBMI__)
#include <immintrin.h>

// The encode table's index of sixteen floats before its clamp: (bits >> shift) − base (`first` holds base).
static inline __m512i encode_offset16(__m512 v, __m128i shift, __m512i first) {
    return _mm512_sub_epi32(_mm512_sra_epi32(_mm512_castps_si512(v), shift), first);
}

// Where `split_indices` takes each index's high byte (its low byte is the one before): byte 16L + m of the slices is
// the word of pack 0 (m < 8) or pack 1 at 8L + m % 8, as packs of words to bytes would place them.
static const uint8_t high_bytes[64] = {
    1, 3, 5, 7, 9, 11, 13, 15, 65, 67, 69, 71, 73, 75, 77, 79, 17, 19, 21, 23, 25, 27, 29, 31, 81, 83, 85, 87, 89,
    91, 93, 95, 33, 35, 37, 39, 41, 43, 45, 47, 97, 99, 101, 103, 105, 107, 109, 111, 49, 51, 53, 55, 57, 59, 61, 63,
    113, 115, 117, 119, 121, 123, 125, 127};

// Sixty-four indices of one channel (32-bit lanes: pixels 0–15, 16–31, 32–47, 48–63) clamped to
// 0…PIXELLOOPS_STEP_TOP by a saturating pack and a minimum, as slice (high) and place (low) bytes in `packed_order`.
typedef struct { __m512i slices, places; } SplitIndices;

static inline SplitIndices split_indices(__m512i i0, __m512i i1, __m512i i2, __m512i i3) {
    const __m512i top = _mm512_set1_epi16(PIXELLOOPS_STEP_TOP);
    const __m512i w0 = _mm512_min_epu16(_mm512_packus_epi32(i0, i1), top);
    const __m512i w1 = _mm512_min_epu16(_mm512_packus_epi32(i2, i3), top);
    const __m512i high = _mm512_loadu_si512((const void *)high_bytes);
    const SplitIndices split = {_mm512_permutex2var_epi8(w0, high, w1),
                                _mm512_permutex2var_epi8(w0, _mm512_sub_epi8(high, _mm512_set1_epi8(1)), w1)};
    return split;
}

// One channel of sixty-four pixels encoded by steps (ColorMath.steps) from their indices: each colour's slice picks
// its first byte and `count` thresholds, one two-register byte permute a table for the 64 colours at once, and the
// byte is the first plus the thresholds its place is above. Every step serves 64 colours of one channel. The bytes
// come out in `packed_order`. Measured on Zen 5 (C model, one thread, rows of 1920): the opaque encode 0.80 → 0.62
// ms a frame (1.73 by AVX2 gathers) against steps of 48 colours; the slice and place by two permutes rather than
// shifts, masks and packs, the matrix loop 0.83 → 0.78 ms.
static inline __m512i step_bytes(const uint8_t *steps, int count, SplitIndices split) {
    __m512i bytes = _mm512_permutex2var_epi8(_mm512_loadu_si512((const void *)steps), split.slices,
                                             _mm512_loadu_si512((const void *)(steps + 64)));
    for (int k = 1; k <= count; k++) {
        const __m512i threshold = _mm512_permutex2var_epi8(_mm512_loadu_si512((const void *)(steps + 128 * k)), split.slices,
                                                           _mm512_loadu_si512((const void *)(steps + 128 * k + 64)));
        bytes = _mm512_mask_add_epi8(bytes, _mm512_cmpgt_epu8_mask(split.places, threshold), bytes, _mm512_set1_epi8(1));
    }
    return bytes;
}

// Where `split_indices` puts sixty-four pixels' bytes, for pixel-order registers k (pixels 16k…16k + 15):
// byte 4j + c of register k takes channel c's byte at 16·(j / 4) + 4k + j % 4 (+ 64 for green: the second of two
// registers); the alpha lanes are 0.
static inline __m512i packed_order(int k) {
    uint8_t order[64];
    for (int j = 0; j < 16; j++) {
        const uint8_t at = (uint8_t)(16 * (j / 4) + 4 * k + j % 4);
        order[4 * j] = at;
        order[4 * j + 1] = (uint8_t)(64 + at);
        order[4 * j + 2] = at;
        order[4 * j + 3] = 0;
    }
    return _mm512_loadu_si512((const void *)order);
}

// Pixels 16k…16k + 15 of three channels' `step_bytes` (`order` = packed_order(k)), with `alpha`'s top bytes.
static inline __m512i planes_to_pixels(__m512i red, __m512i green, __m512i blue, __m512i order, __m512i alpha) {
    // The alpha lanes zero, for `alpha`'s bytes.
    const __m512i rg = _mm512_maskz_permutex2var_epi8(0x3333333333333333ull, red, order, green);
    return _mm512_or_si512(_mm512_mask_permutexvar_epi8(rg, 0x4444444444444444ull, order, blue), alpha);
}

// Where sixty-four pixels' bytes of one channel are taken from, as offsets in two registers of sixteen pixels: the
// order that `pixelloops_table8_luminance`'s unpacks and widening turn back into pixel order (pixels 0–7, 32–39,
// 8–15, 40–47 and so on: each 128-bit lane's low half becomes earlier pixels' words, its high half later ones').
static const uint8_t plane_order[64] = {
    0, 4, 8, 12, 16, 20, 24, 28, 0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 44, 48, 52, 56, 60, 32, 36, 40, 44,
    48, 52, 56, 60, 64, 68, 72, 76, 80, 84, 88, 92, 64, 68, 72, 76, 80, 84, 88, 92, 96, 100, 104, 108, 112, 116,
    120, 124, 96, 100, 104, 108, 112, 116, 120, 124};

// As `plane_order`, for loops that pair words before widening (unpacks of bytes, then of words): byte 16L + 4q + m
// of a plane is pixel 16q + 4L + m, so that the pairs' quarter q holds pixels 16q…16q + 15 in order.
static const uint8_t pair_order[64] = {
    0, 4, 8, 12, 64, 68, 72, 76, 0, 4, 8, 12, 64, 68, 72, 76, 16, 20, 24, 28, 80, 84, 88, 92, 16, 20, 24, 28,
    80, 84, 88, 92, 32, 36, 40, 44, 96, 100, 104, 108, 32, 36, 40, 44, 96, 100, 104, 108, 48, 52, 56, 60, 112, 116,
    120, 124, 48, 52, 56, 60, 112, 116, 120, 124};

// One channel's bytes of sixty-four pixels (four registers of sixteen), in an order plus the channel.
static inline __m512i channel_plane(__m512i p0, __m512i p1, __m512i p2, __m512i p3, __m512i order) {
    return _mm512_mask_blend_epi8(0xFF00FF00FF00FF00ull, _mm512_permutex2var_epi8(p0, order, p1),
                                  _mm512_permutex2var_epi8(p2, order, p3));
}

// A 256-entry byte table in four registers, for a loop to load once (`lookup_bytes` loads it at each call: the
// stores between calls may alias it).
typedef struct { __m512i part[4]; } ByteTable;

static inline ByteTable byte_table(const uint8_t *table) {
    ByteTable t;
    for (int k = 0; k < 4; k++) t.part[k] = _mm512_loadu_si512((const void *)(table + 64 * k));
    return t;
}

// The table looked up by sixty-four bytes (`upper`: their top bits).
static inline __m512i lookup_table(const ByteTable *t, __m512i index, __mmask64 upper) {
    return _mm512_mask_blend_epi8(upper, _mm512_permutex2var_epi8(t->part[0], index, t->part[1]),
                                  _mm512_permutex2var_epi8(t->part[2], index, t->part[3]));
}

// A 256-entry byte table in memory looked up by sixty-four bytes.
static inline __m512i lookup_bytes(const uint8_t *table, __m512i index, __mmask64 upper) {
    const ByteTable t = byte_table(table);
    return lookup_table(&t, index, upper);
}

// Sixty-four pixels' sums of three 16-bit table values, one a channel: `split` holds each channel's 256 values as
// low bytes then high bytes; `planes` are the channels' bytes in `plane_order`, `upper` their top bits. The sums
// as words: `*lo` those of pixels 0–31, `*hi` of 32–63 (in pixel order once widened to 32 bits, a half at a time).
static inline void sum_words64(const uint8_t *split, const __m512i planes[3], const __mmask64 upper[3], __m512i *lo,
                               __m512i *hi) {
    __m512i l = _mm512_setzero_si512(), h = l;
    for (int c = 0; c < 3; c++) {
        const __m512i low = lookup_bytes(split + 512 * c, planes[c], upper[c]);
        const __m512i high = lookup_bytes(split + 512 * c + 256, planes[c], upper[c]);
        l = _mm512_add_epi16(l, _mm512_unpacklo_epi8(low, high));
        h = _mm512_add_epi16(h, _mm512_unpackhi_epi8(low, high));
    }
    *lo = l;
    *hi = h;
}

// The three channels of sixty-four pixels (four registers of sixteen) in `order` (`plane_order` or `pair_order`),
// and their top bits.
static inline void channel_planes(const uint8_t *src, const uint8_t order_[64], __m512i planes[3], __mmask64 upper[3]) {
    const __m512i p0 = _mm512_loadu_si512((const void *)src), p1 = _mm512_loadu_si512((const void *)(src + 64));
    const __m512i p2 = _mm512_loadu_si512((const void *)(src + 128)), p3 = _mm512_loadu_si512((const void *)(src + 192));
    for (int c = 0; c < 3; c++) {
        const __m512i order = _mm512_add_epi8(_mm512_loadu_si512((const void *)order_), _mm512_set1_epi8((char)c));
        planes[c] = channel_plane(p0, p1, p2, p3, order);
        upper[c] = _mm512_movepi8_mask(planes[c]);
    }
}

// Words `half` (0 or 1: the lower or upper sixteen) of `words` as 32-bit lanes.
static inline __m512i widen_words(__m512i words, int half) {
    return _mm512_cvtepu16_epi32(half ? _mm512_extracti64x4_epi64(words, 1) : _mm512_castsi512_si256(words));
}
#endif
#endif
