// CISepiaTone's table look-ups need gathers, which Swift cannot express. Intrinsics only (no C arithmetic the
// compiler could fuse into FMAs), in the order of the Swift loops, so the results are theirs bit for bit.
#include "include/cimageio.h"
#if defined(__AVX2__)
#include <immintrin.h>
#endif

int cimageio_sepia_mix(const int32_t *cells, const float *fractions, const float *table, int count, float t,
                       float *r, float *g, float *b, const float *a) {
    int i = 0;
#if defined(__AVX2__)
    const __m256 vt = _mm256_set1_ps(t);
    for (; i + 8 <= count; i += 8) {
        // tone = v[k] + (v[k + 1] - v[k]) * fraction; channel = channel + (tone * alpha - channel) * t
        const __m256i k = _mm256_slli_epi32(_mm256_loadu_si256((const __m256i *)(cells + i)), 2);
        const __m256 f = _mm256_loadu_ps(fractions + i), alpha = _mm256_loadu_ps(a + i);
        float *out[3] = {r + i, g + i, b + i};
        for (int c = 0; c < 3; c++) {
            __m256 v0 = _mm256_i32gather_ps(table + c, k, 4), v1 = _mm256_i32gather_ps(table + 4 + c, k, 4);
            __m256 tone = _mm256_add_ps(v0, _mm256_mul_ps(_mm256_sub_ps(v1, v0), f));
            __m256 x = _mm256_loadu_ps(out[c]);
            _mm256_storeu_ps(out[c], _mm256_add_ps(x, _mm256_mul_ps(_mm256_sub_ps(_mm256_mul_ps(tone, alpha), x), vt)));
        }
    }
#endif
    return i;
}
