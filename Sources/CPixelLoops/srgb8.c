// The table look-ups of the engine's 8-bit sRGB conversions, eight pixels at a time with AVX2 gathers (sixteen
// with AVX-512), which Swift cannot express. The tables and the index arithmetic stay in Swift (ColorMath,
// PixelEncoding): these loops only fetch entries, so their results are the scalar loops' bit for bit.
#include "include/pixelloops.h"
#include "simd512.h"
#if defined(__AVX2__)
#include <immintrin.h>
#endif

// Float arithmetic here must round as Swift's does: a multiply then an add, never fused.
#pragma clang fp contract(off)

#if defined(__AVX512VBMI__)
// The decoding table (256 floats) held in sixteen registers and looked up sixteen lanes at a time by permutes:
// eight two-register permutes and a tree of blends on the index's top three bits. Measured on Zen 5 (C model, one
// thread, rows of 1920): 0.57 ms a frame against 1.48 by eight-lane gathers and 1.60 by sixteen-lane ones.
typedef struct { __m512 part[16]; } Table256;

static inline Table256 table256(const float *table) {
    Table256 t;
    for (int k = 0; k < 16; k++) t.part[k] = _mm512_loadu_ps(table + 16 * k);
    return t;
}

// `index` holds bytes (0…255) in its 32-bit lanes.
static inline __m512 lookup256(const Table256 *t, __m512i index) {
    __m512 q[8];
    for (int k = 0; k < 8; k++) q[k] = _mm512_permutex2var_ps(t->part[2 * k], index, t->part[2 * k + 1]);
    const __mmask16 b5 = _mm512_test_epi32_mask(index, _mm512_set1_epi32(32));
    const __mmask16 b6 = _mm512_test_epi32_mask(index, _mm512_set1_epi32(64));
    const __mmask16 b7 = _mm512_test_epi32_mask(index, _mm512_set1_epi32(128));
    for (int k = 0; k < 4; k++) q[k] = _mm512_mask_blend_ps(b5, q[2 * k], q[2 * k + 1]);
    for (int k = 0; k < 2; k++) q[k] = _mm512_mask_blend_ps(b6, q[2 * k], q[2 * k + 1]);
    return _mm512_mask_blend_ps(b7, q[0], q[1]);
}

#endif

void pixelloops_decode_srgb8(const uint8_t *rgba, int count, const float *table,
                           float *r, float *g, float *b, float *a) {
    int i = 0;
#if defined(__AVX512VBMI__)
    const Table256 t = table256(table);
    const __m512i byte16 = _mm512_set1_epi32(0xFF);
    for (; i + 16 <= count; i += 16) {
        // The source 2 KiB ahead: the hardware prefetch falls behind this loop (measured, 2 threads: vintage
        // 2.01–2.25 → 1.90–2.01 ms, Gaussian 3.66–3.72 → 3.31–3.32).
        _mm_prefetch((const char *)(rgba + 4 * i + 2048), _MM_HINT_T0);
        const __m512i words = _mm512_loadu_si512((const void *)(rgba + 4 * i));
        _mm512_storeu_ps(r + i, lookup256(&t, _mm512_and_si512(words, byte16)));
        _mm512_storeu_ps(g + i, lookup256(&t, _mm512_and_si512(_mm512_srli_epi32(words, 8), byte16)));
        _mm512_storeu_ps(b + i, lookup256(&t, _mm512_and_si512(_mm512_srli_epi32(words, 16), byte16)));
        if (a) _mm512_storeu_ps(a + i, _mm512_cvtepi32_ps(_mm512_srli_epi32(words, 24)));
    }
#endif
#if defined(__AVX2__)
    const __m256i byte = _mm256_set1_epi32(0xFF);
    for (; i + 8 <= count; i += 8) {
        __m256i words = _mm256_loadu_si256((const __m256i *)(rgba + 4 * i));
        _mm256_storeu_ps(r + i, _mm256_i32gather_ps(table, _mm256_and_si256(words, byte), 4));
        _mm256_storeu_ps(g + i, _mm256_i32gather_ps(table, _mm256_and_si256(_mm256_srli_epi32(words, 8), byte), 4));
        _mm256_storeu_ps(b + i, _mm256_i32gather_ps(table, _mm256_and_si256(_mm256_srli_epi32(words, 16), byte), 4));
        if (a) _mm256_storeu_ps(a + i, _mm256_cvtepi32_ps(_mm256_srli_epi32(words, 24)));
    }
#endif
    for (; i < count; i++) {
        r[i] = table[rgba[4 * i]];
        g[i] = table[rgba[4 * i + 1]];
        b[i] = table[rgba[4 * i + 2]];
        if (a) a[i] = (float)rgba[4 * i + 3];
    }
}

void pixelloops_encode_srgb8(const uint16_t *ir, const uint16_t *ig, const uint16_t *ib, const uint16_t *ia,
                           int count, const uint8_t *table, uint8_t *rgba) {
    int i = 0;
#if defined(__AVX2__)
    const __m256i byte = _mm256_set1_epi32(0xFF);
    const int *words = (const int *)table;
    for (; i + 8 <= count; i += 8) {
        // A 32-bit gather at byte offsets: the entry is the low byte (the table has 3 bytes of padding).
        __m256i r8 = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(ir + i)));
        __m256i g8 = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(ig + i)));
        __m256i b8 = _mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(ib + i)));
        __m256i alpha = ia ? _mm256_slli_epi32(_mm256_cvtepu16_epi32(_mm_loadu_si128((const __m128i *)(ia + i))), 24)
                           : _mm256_set1_epi32((int)0xFF000000u);
        __m256i pixel = _mm256_and_si256(_mm256_i32gather_epi32(words, r8, 1), byte);
        pixel = _mm256_or_si256(pixel, _mm256_slli_epi32(_mm256_and_si256(_mm256_i32gather_epi32(words, g8, 1), byte), 8));
        pixel = _mm256_or_si256(pixel, _mm256_slli_epi32(_mm256_and_si256(_mm256_i32gather_epi32(words, b8, 1), byte), 16));
        _mm256_storeu_si256((__m256i *)(rgba + 4 * i), _mm256_or_si256(pixel, alpha));
    }
#endif
    for (; i < count; i++) {
        rgba[4 * i] = table[ir[i]];
        rgba[4 * i + 1] = table[ig[i]];
        rgba[4 * i + 2] = table[ib[i]];
        rgba[4 * i + 3] = ia ? (uint8_t)ia[i] : 255;
    }
}

void pixelloops_encode_srgb8_opaque(const float *r, const float *g, const float *b, int count, const uint8_t *table,
                                  int shift, int base, int top, const uint8_t *steps, uint8_t *rgba) {
    int i = 0;
#if defined(__AVX512VBMI__)
    if (steps) {
        // The steps' index has one bit more than the table's.
        const __m512i first = _mm512_set1_epi32(2 * base), alpha = _mm512_set1_epi32((int)0xFF000000u);
        const __m128i count_ = _mm_cvtsi32_si128(shift - 1);
        const __m512i order[4] = {packed_order(0), packed_order(1), packed_order(2), packed_order(3)};
        const float *channel[3] = {r, g, b};
        for (; i + 64 <= count; i += 64) {
            __m512i bytes[3];
            for (int c = 0; c < 3; c++) {
                const float *v = channel[c] + i;
                bytes[c] = step_bytes(steps, PIXELLOOPS_ENCODE_STEPS,
                                      split_indices(encode_offset16(_mm512_loadu_ps(v), count_, first),
                                                    encode_offset16(_mm512_loadu_ps(v + 16), count_, first),
                                                    encode_offset16(_mm512_loadu_ps(v + 32), count_, first),
                                                    encode_offset16(_mm512_loadu_ps(v + 48), count_, first)));
            }
            for (int k = 0; k < 4; k++)
                _mm512_storeu_si512((void *)(rgba + 4 * (i + 16 * k)),
                                    planes_to_pixels(bytes[0], bytes[1], bytes[2], order[k], alpha));
        }
    }
#endif
#if defined(__AVX2__)
    const __m256i byte = _mm256_set1_epi32(0xFF), opaque = _mm256_set1_epi32((int)0xFF000000u);
    const __m256i zero = _mm256_setzero_si256(), first = _mm256_set1_epi32(base), last = _mm256_set1_epi32(top);
    const __m128i count_ = _mm_cvtsi32_si128(shift);
    const int *words = (const int *)table;
#define CIMAGEIO_INDEX(v) _mm256_min_epi32(_mm256_max_epi32(_mm256_sub_epi32( \
        _mm256_sra_epi32(_mm256_castps_si256(_mm256_loadu_ps(v)), count_), first), zero), last)
    for (; i + 8 <= count; i += 8) {
        __m256i pixel = _mm256_and_si256(_mm256_i32gather_epi32(words, CIMAGEIO_INDEX(r + i), 1), byte);
        pixel = _mm256_or_si256(pixel, _mm256_slli_epi32(_mm256_and_si256(_mm256_i32gather_epi32(words, CIMAGEIO_INDEX(g + i), 1), byte), 8));
        pixel = _mm256_or_si256(pixel, _mm256_slli_epi32(_mm256_and_si256(_mm256_i32gather_epi32(words, CIMAGEIO_INDEX(b + i), 1), byte), 16));
        _mm256_storeu_si256((__m256i *)(rgba + 4 * i), _mm256_or_si256(pixel, opaque));
    }
#undef CIMAGEIO_INDEX
#endif
    for (; i < count; i++) {
        const float *channel[3] = {r, g, b};
        for (int c = 0; c < 3; c++) {
            int32_t bits;
            __builtin_memcpy(&bits, channel[c] + i, 4);
            int index = (bits >> shift) - base;
            rgba[4 * i + c] = table[index < 0 ? 0 : index > top ? top : index];
        }
        rgba[4 * i + 3] = 255;
    }
}

void pixelloops_decode_srgb8_rgba(const uint8_t *rgba, int count, const float *table, int opaque, float *out) {
    // Interleaved, for the resampling's horizontal pass; the same numbers as the planar decode and Swift's
    // premultiply (alpha = byte × (1/255) as a float, each colour times it).
    int i = 0;
#if defined(__AVX2__)
    // The planar decode's three gathers, then a 4 × 8 transpose to pixel order. Measured on the 2-core dev VM
    // (Intel Xeon, C model, one thread, 1080p rows): opaque 3.3 → 2.3 ms a frame, with alpha 4.2 → 2.4 ms;
    // one gather of two whole pixels (the bytes as indices) took 2.7 ms.
    const __m256i byte = _mm256_set1_epi32(0xFF);
    const __m256 one = _mm256_set1_ps(1), scale = _mm256_set1_ps(1.0f / 255.0f);
    for (; i + 8 <= count; i += 8) {
        const __m256i words = _mm256_loadu_si256((const __m256i *)(rgba + 4 * i));
        __m256 r = _mm256_i32gather_ps(table, _mm256_and_si256(words, byte), 4);
        __m256 g = _mm256_i32gather_ps(table, _mm256_and_si256(_mm256_srli_epi32(words, 8), byte), 4);
        __m256 b = _mm256_i32gather_ps(table, _mm256_and_si256(_mm256_srli_epi32(words, 16), byte), 4);
        __m256 a = one;
        if (!opaque) {
            a = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_srli_epi32(words, 24)), scale);
            r = _mm256_mul_ps(r, a); g = _mm256_mul_ps(g, a); b = _mm256_mul_ps(b, a);
        }
        // r0 g0 r1 g1 | r4 g4 r5 g5 and so on, then r0 g0 b0 a0 | r4 g4 b4 a4, then two pixels a register.
        const __m256 t0 = _mm256_unpacklo_ps(r, g), t1 = _mm256_unpackhi_ps(r, g);
        const __m256 t2 = _mm256_unpacklo_ps(b, a), t3 = _mm256_unpackhi_ps(b, a);
        const __m256 p04 = _mm256_shuffle_ps(t0, t2, 0x44), p15 = _mm256_shuffle_ps(t0, t2, 0xEE);
        const __m256 p26 = _mm256_shuffle_ps(t1, t3, 0x44), p37 = _mm256_shuffle_ps(t1, t3, 0xEE);
        float *o = out + 4 * i;
        _mm256_storeu_ps(o, _mm256_permute2f128_ps(p04, p15, 0x20));
        _mm256_storeu_ps(o + 8, _mm256_permute2f128_ps(p26, p37, 0x20));
        _mm256_storeu_ps(o + 16, _mm256_permute2f128_ps(p04, p15, 0x31));
        _mm256_storeu_ps(o + 24, _mm256_permute2f128_ps(p26, p37, 0x31));
    }
#endif
    for (; i < count; i++) {
        const uint8_t *p = rgba + 4 * i;
        float r = table[p[0]], g = table[p[1]], b = table[p[2]], a = 1;
        if (!opaque) {
            a = (float)p[3] * (1.0f / 255.0f);
            r *= a; g *= a; b *= a;
        }
        out[4 * i] = r; out[4 * i + 1] = g; out[4 * i + 2] = b; out[4 * i + 3] = a;
    }
}

void pixelloops_deinterleave_rgba(const float *pixels, int count, float *r, float *g, float *b, float *a) {
    int i = 0;
#if defined(__AVX2__)
    // Eight pixels by a transpose in registers; Swift's loop stores each lane on its own.
    for (; i + 8 <= count; i += 8) {
        const float *p = pixels + 4 * i;
        const __m256 p01 = _mm256_loadu_ps(p), p23 = _mm256_loadu_ps(p + 8);
        const __m256 p45 = _mm256_loadu_ps(p + 16), p67 = _mm256_loadu_ps(p + 24);
        const __m256 x0 = _mm256_permute2f128_ps(p01, p45, 0x20), x1 = _mm256_permute2f128_ps(p01, p45, 0x31);
        const __m256 x2 = _mm256_permute2f128_ps(p23, p67, 0x20), x3 = _mm256_permute2f128_ps(p23, p67, 0x31);
        // r0 r1 g0 g1 | r4 r5 g4 g5 and so on.
        const __m256 t0 = _mm256_unpacklo_ps(x0, x1), t1 = _mm256_unpackhi_ps(x0, x1);
        const __m256 t2 = _mm256_unpacklo_ps(x2, x3), t3 = _mm256_unpackhi_ps(x2, x3);
        _mm256_storeu_ps(r + i, _mm256_shuffle_ps(t0, t2, 0x44));
        _mm256_storeu_ps(g + i, _mm256_shuffle_ps(t0, t2, 0xEE));
        _mm256_storeu_ps(b + i, _mm256_shuffle_ps(t1, t3, 0x44));
        _mm256_storeu_ps(a + i, _mm256_shuffle_ps(t1, t3, 0xEE));
    }
#endif
    for (; i < count; i++) {
        r[i] = pixels[4 * i]; g[i] = pixels[4 * i + 1]; b[i] = pixels[4 * i + 2]; a[i] = pixels[4 * i + 3];
    }
}

void pixelloops_encode_srgb8_alpha(const float *r, const float *g, const float *b, const float *a, int count,
                                 const uint8_t *table, int shift, int base, int top, const uint8_t *steps,
                                 uint8_t *rgba) {
    // PixelEncoding.encodeSRGB8's loop with the indices computed where they are gathered, step for step the
    // same floats: inv = alpha > 0 ? 1 / alpha : 0 (a true division), alpha byte = trunc(min(max(alpha, 0), 1)
    // × 255 + 0.5) with Swift's min and max (a NaN alpha stays NaN there, as in Swift).
    int i = 0;
#if defined(__AVX512VBMI__)
    if (steps) {
        // Sixty-four pixels a step, each channel's encode by `step_bytes` (the steps' index has one bit more
        // than the table's).
        const __m512i first = _mm512_set1_epi32(2 * base);
        const __m512 fzero = _mm512_setzero_ps(), one = _mm512_set1_ps(1), levels = _mm512_set1_ps(255),
                     half = _mm512_set1_ps(0.5f);
        const __m128i count_ = _mm_cvtsi32_si128(shift - 1);
        const __m512i empty = _mm512_set1_epi32((int)(table[0] | (uint32_t)table[0] << 8 | (uint32_t)table[0] << 16));
        const __m512i order[4] = {packed_order(0), packed_order(1), packed_order(2), packed_order(3)};
        const float *channel[3] = {r, g, b};
        for (; i + 64 <= count; i += 64) {
            __m512i any = _mm512_setzero_si512();
            for (int k = 0; k < 64; k += 16)
                any = _mm512_or_si512(any, _mm512_or_si512(
                    _mm512_or_si512(_mm512_loadu_si512((const void *)(a + i + k)), _mm512_loadu_si512((const void *)(r + i + k))),
                    _mm512_or_si512(_mm512_loadu_si512((const void *)(g + i + k)), _mm512_loadu_si512((const void *)(b + i + k)))));
            if (!_mm512_test_epi32_mask(any, any)) {
                for (int k = 0; k < 4; k++) _mm512_storeu_si512((void *)(rgba + 4 * (i + 16 * k)), empty);
                continue;
            }
            __m512 inv[4];
            __m512i alphas[4], bytes[3];
            for (int q = 0; q < 4; q++) {
                const __m512 alpha = _mm512_loadu_ps(a + i + 16 * q);
                inv[q] = _mm512_maskz_div_ps(_mm512_cmp_ps_mask(alpha, fzero, _CMP_GT_OQ), one, alpha);
                const __m512 clamped = _mm512_min_ps(one, _mm512_max_ps(fzero, alpha));
                alphas[q] = _mm512_slli_epi32(_mm512_cvttps_epi32(_mm512_add_ps(_mm512_mul_ps(clamped, levels), half)), 24);
            }
            for (int c = 0; c < 3; c++) {
                __m512i index[4];
                for (int q = 0; q < 4; q++)
                    index[q] = encode_offset16(_mm512_mul_ps(_mm512_loadu_ps(channel[c] + i + 16 * q), inv[q]), count_, first);
                bytes[c] = step_bytes(steps, PIXELLOOPS_ENCODE_STEPS, split_indices(index[0], index[1], index[2], index[3]));
            }
            for (int k = 0; k < 4; k++)
                _mm512_storeu_si512((void *)(rgba + 4 * (i + 16 * k)), planes_to_pixels(bytes[0], bytes[1], bytes[2], order[k], alphas[k]));
        }
    }
#endif
#if defined(__AVX2__)
    const __m256i byte = _mm256_set1_epi32(0xFF);
    const __m256i zero = _mm256_setzero_si256(), first = _mm256_set1_epi32(base), last = _mm256_set1_epi32(top);
    const __m256 fzero = _mm256_setzero_ps(), one = _mm256_set1_ps(1), levels = _mm256_set1_ps(255),
                 half = _mm256_set1_ps(0.5f);
    const __m128i count_ = _mm_cvtsi32_si128(shift);
    const int *words = (const int *)table;
#define CIMAGEIO_INDEX(v) _mm256_min_epi32(_mm256_max_epi32(_mm256_sub_epi32( \
        _mm256_sra_epi32(_mm256_castps_si256(v), count_), first), zero), last)
    // Eight pixels of +0 in every channel (transparent areas: a cut-out, the margins of a transformed image
    // within its extent) give this loop's bytes for them, table[0] three times and alpha 0, without the gathers.
    const __m256i empty = _mm256_set1_epi32((int)(table[0] | (uint32_t)table[0] << 8 | (uint32_t)table[0] << 16));
    for (; i + 8 <= count; i += 8) {
        const __m256 alpha = _mm256_loadu_ps(a + i);
        const __m256i any = _mm256_or_si256(
            _mm256_or_si256(_mm256_castps_si256(alpha), _mm256_loadu_si256((const __m256i *)(r + i))),
            _mm256_or_si256(_mm256_loadu_si256((const __m256i *)(g + i)), _mm256_loadu_si256((const __m256i *)(b + i))));
        if (_mm256_testz_si256(any, any)) {
            _mm256_storeu_si256((__m256i *)(rgba + 4 * i), empty);
            continue;
        }
        const __m256 inv = _mm256_and_ps(_mm256_cmp_ps(alpha, fzero, _CMP_GT_OQ), _mm256_div_ps(one, alpha));
        // Swift's max(x, y) is y >= x ? y : x, which is maxps(y, x) (the second operand when unordered).
        const __m256 clamped = _mm256_min_ps(one, _mm256_max_ps(fzero, alpha));
        const __m256i alphaByte = _mm256_cvttps_epi32(_mm256_add_ps(_mm256_mul_ps(clamped, levels), half));
        __m256i pixel = _mm256_and_si256(
            _mm256_i32gather_epi32(words, CIMAGEIO_INDEX(_mm256_mul_ps(_mm256_loadu_ps(r + i), inv)), 1), byte);
        pixel = _mm256_or_si256(pixel, _mm256_slli_epi32(_mm256_and_si256(
            _mm256_i32gather_epi32(words, CIMAGEIO_INDEX(_mm256_mul_ps(_mm256_loadu_ps(g + i), inv)), 1), byte), 8));
        pixel = _mm256_or_si256(pixel, _mm256_slli_epi32(_mm256_and_si256(
            _mm256_i32gather_epi32(words, CIMAGEIO_INDEX(_mm256_mul_ps(_mm256_loadu_ps(b + i), inv)), 1), byte), 16));
        _mm256_storeu_si256((__m256i *)(rgba + 4 * i), _mm256_or_si256(pixel, _mm256_slli_epi32(alphaByte, 24)));
    }
#undef CIMAGEIO_INDEX
#endif
    for (; i < count; i++) {
        const float alpha = a[i];
        const float inv = alpha > 0 ? 1 / alpha : 0;
        const float colour[3] = {r[i] * inv, g[i] * inv, b[i] * inv};
        for (int c = 0; c < 3; c++) {
            int32_t bits;
            __builtin_memcpy(&bits, colour + c, 4);
            int index = (bits >> shift) - base;
            rgba[4 * i + c] = table[index < 0 ? 0 : index > top ? top : index];
        }
        float clamped = 0 >= alpha ? 0 : alpha;
        clamped = 1 < clamped ? 1 : clamped;
        rgba[4 * i + 3] = (uint8_t)(int32_t)(clamped * 255 + 0.5f);
    }
}
