// The inner loops of the separable resampling (Resampling.swift), with AVX: Swift's one sum a pixel is a single
// chain of dependent adds (12 taps × the add latency at 50 %), so these keep several output pixels in flight.
// Every sum is still taken in tap order as a multiply then an add (no FMA), so the results are the Swift
// loops' bit for bit.
#include "include/cimageio.h"
#if defined(__AVX__)
#include <immintrin.h>
#endif

#pragma clang fp contract(off)

void cimageio_resample_row_rgba(const float *src, const int32_t *start, const float *weights, int taps, int count,
                                float *out) {
    int k = 0;
#if defined(__AVX__)
    // Two output pixels share a register (low and high half); four such pairs are summed together.
    const size_t block = (size_t)taps * 8;
#define CIMAGEIO_PAIR(s, t, j) _mm256_insertf128_ps(_mm256_castps128_ps256(_mm_loadu_ps((s) + 4 * (j))), \
                                                    _mm_loadu_ps((t) + 4 * (j)), 1)
    for (; k + 8 <= count; k += 8) {
        const float *w = weights + (size_t)(k / 2) * block;
        const float *s0 = src + 4 * start[k], *s1 = src + 4 * start[k + 1], *s2 = src + 4 * start[k + 2];
        const float *s3 = src + 4 * start[k + 3], *s4 = src + 4 * start[k + 4], *s5 = src + 4 * start[k + 5];
        const float *s6 = src + 4 * start[k + 6], *s7 = src + 4 * start[k + 7];
        __m256 a0 = _mm256_setzero_ps(), a1 = a0, a2 = a0, a3 = a0;
        for (int j = 0; j < taps; j++) {
            a0 = _mm256_add_ps(a0, _mm256_mul_ps(CIMAGEIO_PAIR(s0, s1, j), _mm256_loadu_ps(w + 8 * j)));
            a1 = _mm256_add_ps(a1, _mm256_mul_ps(CIMAGEIO_PAIR(s2, s3, j), _mm256_loadu_ps(w + block + 8 * j)));
            a2 = _mm256_add_ps(a2, _mm256_mul_ps(CIMAGEIO_PAIR(s4, s5, j), _mm256_loadu_ps(w + 2 * block + 8 * j)));
            a3 = _mm256_add_ps(a3, _mm256_mul_ps(CIMAGEIO_PAIR(s6, s7, j), _mm256_loadu_ps(w + 3 * block + 8 * j)));
        }
        _mm256_storeu_ps(out + 4 * k, a0);
        _mm256_storeu_ps(out + 4 * k + 8, a1);
        _mm256_storeu_ps(out + 4 * k + 16, a2);
        _mm256_storeu_ps(out + 4 * k + 24, a3);
    }
#undef CIMAGEIO_PAIR
#endif
    // The rest one pixel at a time (its weights are the splatted four in its pair's half).
    for (; k < count; k++) {
        const float *w = weights + (size_t)(k / 2) * taps * 8 + 4 * (k & 1);
        const float *s = src + 4 * start[k];
        float a[4] = {0, 0, 0, 0};
        for (int j = 0; j < taps; j++)
            for (int c = 0; c < 4; c++) a[c] = a[c] + s[4 * j + c] * w[8 * j + c];
        for (int c = 0; c < 4; c++) out[4 * k + c] = a[c];
    }
}

void cimageio_resample_column(const float *const *rows, const float *weights, int taps, int n, float *out) {
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
