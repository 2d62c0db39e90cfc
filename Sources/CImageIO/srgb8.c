// The table look-ups of the engine's 8-bit sRGB conversions, eight pixels at a time with AVX2 gathers, which
// Swift cannot express. The tables and the index arithmetic stay in Swift (ColorMath, PixelEncoding): these
// loops only fetch entries, so their results are the scalar loops' bit for bit.
#include "include/cimageio.h"
#if defined(__AVX2__)
#include <immintrin.h>
#endif

// Float arithmetic here must round as Swift's does: a multiply then an add, never fused.
#pragma clang fp contract(off)

void cimageio_decode_srgb8(const uint8_t *rgba, int count, const float *table,
                           float *r, float *g, float *b, float *a) {
    int i = 0;
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

void cimageio_encode_srgb8(const uint16_t *ir, const uint16_t *ig, const uint16_t *ib, const uint16_t *ia,
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

void cimageio_encode_srgb8_opaque(const float *r, const float *g, const float *b, int count, const uint8_t *table,
                                  int shift, int base, int top, uint8_t *rgba) {
    int i = 0;
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

void cimageio_decode_srgb8_rgba(const uint8_t *rgba, int count, const float *table, int opaque, float *out) {
    // Interleaved, for the resampling's horizontal pass; the same numbers as the planar decode and Swift's
    // premultiply (alpha = byte × (1/255) as a float, each colour times it).
    for (int i = 0; i < count; i++) {
        const uint8_t *p = rgba + 4 * i;
        float r = table[p[0]], g = table[p[1]], b = table[p[2]], a = 1;
        if (!opaque) {
            a = (float)p[3] * (1.0f / 255.0f);
            r *= a; g *= a; b *= a;
        }
        out[4 * i] = r; out[4 * i + 1] = g; out[4 * i + 2] = b; out[4 * i + 3] = a;
    }
}

void cimageio_encode_srgb8_alpha(const float *r, const float *g, const float *b, const float *a, int count,
                                 const uint8_t *table, int shift, int base, int top, uint8_t *rgba) {
    // PixelEncoding.encodeSRGB8's loop with the indices computed where they are gathered, step for step the
    // same floats: inv = alpha > 0 ? 1 / alpha : 0 (a true division), alpha byte = trunc(min(max(alpha, 0), 1)
    // × 255 + 0.5) with Swift's min and max (a NaN alpha stays NaN there, as in Swift).
    int i = 0;
#if defined(__AVX2__)
    const __m256i byte = _mm256_set1_epi32(0xFF);
    const __m256i zero = _mm256_setzero_si256(), first = _mm256_set1_epi32(base), last = _mm256_set1_epi32(top);
    const __m256 fzero = _mm256_setzero_ps(), one = _mm256_set1_ps(1), levels = _mm256_set1_ps(255),
                 half = _mm256_set1_ps(0.5f);
    const __m128i count_ = _mm_cvtsi32_si128(shift);
    const int *words = (const int *)table;
#define CIMAGEIO_INDEX(v) _mm256_min_epi32(_mm256_max_epi32(_mm256_sub_epi32( \
        _mm256_sra_epi32(_mm256_castps_si256(v), count_), first), zero), last)
    for (; i + 8 <= count; i += 8) {
        const __m256 alpha = _mm256_loadu_ps(a + i);
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
