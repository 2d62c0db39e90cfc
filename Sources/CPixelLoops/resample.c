// The inner loops of the separable resampling (Resampling.swift), with AVX: Swift's one sum a pixel is a single
// chain of dependent adds (12 taps × the add latency at 50 %), so these keep several sums in flight.
// Every sum is still taken in tap order as a multiply then an add (no FMA), so the results are the Swift
// loops' bit for bit.
#include "include/pixelloops.h"
#if defined(__AVX__)
#include <immintrin.h>
#endif

#pragma clang fp contract(off)

void pixelloops_resample_rows4_rgba(const float *const *src, const int32_t *start, const float *weights, int taps,
                                  int count, float *const *out) {
    int k = 0;
#if defined(__AVX__)
    // A register holds one output pixel of two rows (low and high half): the weight is one broadcast for four
    // rows, and two outputs of four rows give four independent sums. Measured on the 2-core dev VM (C model,
    // 1080p 50 %, 12 taps, best of 15): 2.9 ms a frame against 5.5 for one row with four outputs in flight.
#define CIMAGEIO_PAIR(a, b, o, j) _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps(src[a] + 4 * ((o) + (j)))), \
                                                       _mm_loadu_ps(src[b] + 4 * ((o) + (j))), 1)
    for (; k + 2 <= count; k += 2) {
        const float *w = weights + (size_t)k * taps;
        const int o0 = start[k], o1 = start[k + 1];
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        for (int j = 0; j < taps; j++) {
            const __m256 w0 = _mm256_broadcast_ss(w + j), w1 = _mm256_broadcast_ss(w + taps + j);
            a0 = _mm256_add_ps(a0, _mm256_mul_ps(CIMAGEIO_PAIR(0, 1, o0, j), w0));
            a1 = _mm256_add_ps(a1, _mm256_mul_ps(CIMAGEIO_PAIR(2, 3, o0, j), w0));
            a2 = _mm256_add_ps(a2, _mm256_mul_ps(CIMAGEIO_PAIR(0, 1, o1, j), w1));
            a3 = _mm256_add_ps(a3, _mm256_mul_ps(CIMAGEIO_PAIR(2, 3, o1, j), w1));
        }
        _mm_storeu_ps(out[0] + 4 * k, _mm256_castps256_ps128(a0));
        _mm_storeu_ps(out[1] + 4 * k, _mm256_extractf128_ps(a0, 1));
        _mm_storeu_ps(out[2] + 4 * k, _mm256_castps256_ps128(a1));
        _mm_storeu_ps(out[3] + 4 * k, _mm256_extractf128_ps(a1, 1));
        _mm_storeu_ps(out[0] + 4 * k + 4, _mm256_castps256_ps128(a2));
        _mm_storeu_ps(out[1] + 4 * k + 4, _mm256_extractf128_ps(a2, 1));
        _mm_storeu_ps(out[2] + 4 * k + 4, _mm256_castps256_ps128(a3));
        _mm_storeu_ps(out[3] + 4 * k + 4, _mm256_extractf128_ps(a3, 1));
    }
#undef CIMAGEIO_PAIR
#endif
    for (; k < count; k++) {
        const float *w = weights + (size_t)k * taps;
        for (int r = 0; r < 4; r++) {
            const float *s = src[r] + 4 * start[k];
            float a[4] = {0, 0, 0, 0};
            for (int j = 0; j < taps; j++)
                for (int c = 0; c < 4; c++) a[c] = a[c] + s[4 * j + c] * w[j];
            for (int c = 0; c < 4; c++) out[r][4 * k + c] = a[c];
        }
    }
}

void pixelloops_resample_column(const float *const *rows, const float *weights, int taps, int n, float *out) {
    int i = 0;
#if defined(__AVX__)
    // 32 floats summed in registers over every tap: one load a tap instead of a load and store of the sum too.
    for (; i + 32 <= n; i += 32) {
        __m256 w = _mm256_broadcast_ss(weights);
        const float *r = rows[0] + i;
        __m256 a0 = _mm256_mul_ps(_mm256_loadu_ps(r), w), a1 = _mm256_mul_ps(_mm256_loadu_ps(r + 8), w);
        __m256 a2 = _mm256_mul_ps(_mm256_loadu_ps(r + 16), w), a3 = _mm256_mul_ps(_mm256_loadu_ps(r + 24), w);
        for (int j = 1; j < taps; j++) {
            w = _mm256_broadcast_ss(weights + j);
            r = rows[j] + i;
            a0 = _mm256_add_ps(a0, _mm256_mul_ps(_mm256_loadu_ps(r), w));
            a1 = _mm256_add_ps(a1, _mm256_mul_ps(_mm256_loadu_ps(r + 8), w));
            a2 = _mm256_add_ps(a2, _mm256_mul_ps(_mm256_loadu_ps(r + 16), w));
            a3 = _mm256_add_ps(a3, _mm256_mul_ps(_mm256_loadu_ps(r + 24), w));
        }
        _mm256_storeu_ps(out + i, a0);
        _mm256_storeu_ps(out + i + 8, a1);
        _mm256_storeu_ps(out + i + 16, a2);
        _mm256_storeu_ps(out + i + 24, a3);
    }
#endif
    for (; i < n; i++) {
        float a = rows[0][i] * weights[0];
        for (int j = 1; j < taps; j++) a = a + rows[j][i] * weights[j];
        out[i] = a;
    }
}

void pixelloops_upsample_row(const float *const *small, int first, float inv, int x0, int count, float *const *out) {
    // Output x blends small pixels k = ⌊s⌋ and k + 1 (s = (x + 0.5) · inv − 0.5), each index less `first`.
    int i = 0;
#if defined(__AVX2__)
    // Eight outputs need at most five neighbouring small pixels (the factor is 2 or more): one unaligned load of
    // eight from the first, and a lane permutation, instead of a gather a lane.
    const __m256 half = _mm256_set1_ps(0.5f), vinv = _mm256_set1_ps(inv);
    const __m256i lanes = _mm256_setr_epi32(0, 1, 2, 3, 4, 5, 6, 7), vfirst = _mm256_set1_epi32(first);
    for (; i + 8 <= count; i += 8) {
        const __m256 x = _mm256_cvtepi32_ps(_mm256_add_epi32(_mm256_set1_epi32(x0 + i), lanes));
        const __m256 s = _mm256_sub_ps(_mm256_mul_ps(_mm256_add_ps(x, half), vinv), half);
        const __m256 fs = _mm256_floor_ps(s), t = _mm256_sub_ps(s, fs);
        const __m256i k = _mm256_sub_epi32(_mm256_cvttps_epi32(fs), vfirst);
        const int base = _mm_cvtsi128_si32(_mm256_castsi256_si128(k));
        const __m256i rel = _mm256_sub_epi32(k, _mm256_set1_epi32(base));
        for (int c = 0; c < 4; c++) {
            const __m256 left = _mm256_permutevar8x32_ps(_mm256_loadu_ps(small[c] + base), rel);
            const __m256 right = _mm256_permutevar8x32_ps(_mm256_loadu_ps(small[c] + base + 1), rel);
            _mm256_storeu_ps(out[c] + i, _mm256_add_ps(left, _mm256_mul_ps(_mm256_sub_ps(right, left), t)));
        }
    }
#endif
    for (; i < count; i++) {
        const float s = ((float)(x0 + i) + 0.5f) * inv - 0.5f;
        const float fs = __builtin_floorf(s), t = s - fs;
        const int k = (int)fs - first;
        for (int c = 0; c < 4; c++) {
            const float left = small[c][k];
            out[c][i] = left + (small[c][k + 1] - left) * t;
        }
    }
}

void pixelloops_blend_rows(const float *below, const float *above, float t, int count, float *const *out) {
    // Interleaved RGBA in, planar out: below + (above − below) · t, channel by channel.
    for (int i = 0; i < count; i++) {
        for (int c = 0; c < 4; c++) {
            const float b = below[4 * i + c];
            out[c][i] = b + (above[4 * i + c] - b) * t;
        }
    }
}

// out[i] += ((in[f·i] + in[f·i + 1]) + …) + in[f·i + f − 1]: a constant stride the vectoriser turns into shuffles.
#define CIMAGEIO_BLOCK_SUMS(F) \
    for (int i = 0; i < count; i++) { \
        float sum = in[(F) * i]; \
        for (int j = 1; j < (F); j++) sum += in[(F) * i + j]; \
        out[i] += sum; \
    }

void pixelloops_add_block_sums(const float *in, int f, int count, float *out) {
    switch (f) {
    case 2: CIMAGEIO_BLOCK_SUMS(2) break;
    case 4: CIMAGEIO_BLOCK_SUMS(4) break;
    case 8: CIMAGEIO_BLOCK_SUMS(8) break;
    default: CIMAGEIO_BLOCK_SUMS(f) break;
    }
}
#undef CIMAGEIO_BLOCK_SUMS
