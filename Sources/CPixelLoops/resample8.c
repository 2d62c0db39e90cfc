// Separable resampling of an 8-bit picture in 16-bit fixed point (Resampling.fixedPointFromSource8): linear
// premultiplied values with 1.0 = 2^14 (room for the filters' overshoot either side), integer weights that sum
// to exactly 2^bits, sums of pairs by one multiply-add instruction (pmaddwd), 32-bit sums rounded back to 16
// bits. Half the bytes of the float passes a pixel and twice the lanes an instruction.
#include "include/pixelloops.h"
#include "simd512.h"
#if defined(__AVX2__)
#include <immintrin.h>
#endif

static inline int16_t pixelloops_saturate16(int32_t v) {
    return v > 32767 ? 32767 : v < -32768 ? -32768 : (int16_t)v;
}

#if defined(__AVX512VBMI__)
// Where sixteen pixels' 64 bytes go so that unpacking each 128-bit lane's low and high halves gives their values in
// order: bytes 0–7 of the first 32 then of the last 32, lane by lane.
static const uint8_t unpack_order[64] = {
    0, 1, 2, 3, 4, 5, 6, 7, 32, 33, 34, 35, 36, 37, 38, 39, 8, 9, 10, 11, 12, 13, 14, 15, 40, 41, 42, 43, 44, 45,
    46, 47, 16, 17, 18, 19, 20, 21, 22, 23, 48, 49, 50, 51, 52, 53, 54, 55, 24, 25, 26, 27, 28, 29, 30, 31, 56, 57,
    58, 59, 60, 61, 62, 63};
#endif

void pixelloops_fixed_decode_opaque_rgba(const uint8_t *rgba, int count, const uint64_t *words, int16_t *out) {
    int i = 0;
#if defined(__AVX512VBMI__)
    {
        const uint8_t *bytes = (const uint8_t *)(words + 768);
        // Sixteen pixels a step: every byte (alpha's too, replaced after) looks up its value's low and high byte,
        // four two-register byte permutes and two blends on the index's top bit, and unpacking pairs them into
        // 16-bit values. The pixels are first put in the order the unpacks' 128-bit lanes want. Measured on Zen 5
        // (perf, bench k, one thread): 1.35 → 0.68 ms a frame.
        const __m512i order = _mm512_loadu_si512((const void *)unpack_order);
        const ByteTable low = byte_table(bytes), high = byte_table(bytes + 256);
        const __m512i alpha = _mm512_set1_epi16((int16_t)(words[512] >> 48));
        for (; i + 16 <= count; i += 16) {
            // The source 2 KiB ahead (measured: bench k 2.01–2.13 → 1.89–1.91 ms, 2 threads).
            _mm_prefetch((const char *)(rgba + 4 * i + 2048), _MM_HINT_T0);
            const __m512i p = _mm512_permutexvar_epi8(order, _mm512_loadu_si512((const void *)(rgba + 4 * i)));
            const __mmask64 upper = _mm512_movepi8_mask(p);
            const __m512i lo = lookup_table(&low, p, upper), hi = lookup_table(&high, p, upper);
            _mm512_storeu_si512((void *)(out + 4 * i), _mm512_mask_blend_epi16(0x88888888u, _mm512_unpacklo_epi8(lo, hi), alpha));
            _mm512_storeu_si512((void *)(out + 4 * i + 32), _mm512_mask_blend_epi16(0x88888888u, _mm512_unpackhi_epi8(lo, hi), alpha));
        }
    }
#endif
    // Scalar look-ups, one 32-bit load and one 64-bit store a pixel: measured on the 2-core dev VM (AMD EPYC, C
    // model, 1080p, one thread) 2.2 ms a frame, against 3.9 ms by AVX2 gathers (slow on that CPU). The words
    // come placed, so a pixel is three loads and two adds: 3.6–4.0 → 3.1–3.3 ms (C model, rows of 1920, a noisier
    // day) against a table of values shifted and joined a pixel.
    const uint64_t *red = words, *green = words + 256, *blue = words + 512;
    for (; i < count; i++) {
        uint32_t p;
        __builtin_memcpy(&p, rgba + 4 * i, 4);
        const uint64_t v = red[p & 255] + green[p >> 8 & 255] + blue[p >> 16 & 255];
        __builtin_memcpy(out + 4 * i, &v, 8);
    }
}

void pixelloops_fixed_resample_row(const int16_t *src, const int32_t *start, const int16_t *weights, int taps,
                                 int bits, int count, int16_t *out) {
    const int32_t half = 1 << (bits - 1);
    int k = 0;
#if defined(__AVX2__)
    if ((taps & 3) == 0) {
        // Four source pixels a load: within each 128-bit half, two pixels' channels paired (r0 r1 g0 g1 …) for
        // pmaddwd with that half's two weights; the halves are added at the end. Two outputs in flight.
        const __m256i pair = _mm256_setr_epi8(0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15,
                                              0, 1, 8, 9, 2, 3, 10, 11, 4, 5, 12, 13, 6, 7, 14, 15);
        const __m256i spread = _mm256_setr_epi32(0, 0, 0, 0, 1, 1, 1, 1);
        const __m128i rounding = _mm_set1_epi32(half), shift = _mm_cvtsi32_si128(bits);
#define PIXELLOOPS_WEIGHTS(w) _mm256_permutevar8x32_epi32(_mm256_castsi128_si256(_mm_loadl_epi64((const __m128i *)(w))), spread)
#define PIXELLOOPS_PIXELS(p) _mm256_shuffle_epi8(_mm256_loadu_si256((const __m256i *)(p)), pair)
        for (; k + 2 <= count; k += 2) {
            const int16_t *s0 = src + 4 * start[k], *s1 = src + 4 * start[k + 1];
            const int16_t *w0 = weights + (size_t)k * taps, *w1 = w0 + taps;
            __m256i a0 = _mm256_setzero_si256(), a1 = a0;
            for (int j = 0; j < taps; j += 4) {
                a0 = _mm256_add_epi32(a0, _mm256_madd_epi16(PIXELLOOPS_PIXELS(s0 + 4 * j), PIXELLOOPS_WEIGHTS(w0 + j)));
                a1 = _mm256_add_epi32(a1, _mm256_madd_epi16(PIXELLOOPS_PIXELS(s1 + 4 * j), PIXELLOOPS_WEIGHTS(w1 + j)));
            }
            const __m128i r0 = _mm_add_epi32(_mm256_castsi256_si128(a0), _mm256_extracti128_si256(a0, 1));
            const __m128i r1 = _mm_add_epi32(_mm256_castsi256_si128(a1), _mm256_extracti128_si256(a1, 1));
            _mm_storeu_si128((__m128i *)(out + 4 * k),
                             _mm_packs_epi32(_mm_sra_epi32(_mm_add_epi32(r0, rounding), shift),
                                             _mm_sra_epi32(_mm_add_epi32(r1, rounding), shift)));
        }
#undef PIXELLOOPS_WEIGHTS
#undef PIXELLOOPS_PIXELS
    }
#endif
    for (; k < count; k++) {
        const int16_t *s = src + 4 * start[k], *w = weights + (size_t)k * taps;
        int32_t sum[4] = {0, 0, 0, 0};
        for (int j = 0; j < taps; j++)
            for (int c = 0; c < 4; c++) sum[c] += (int32_t)s[4 * j + c] * w[j];
        for (int c = 0; c < 4; c++) out[4 * k + c] = pixelloops_saturate16((sum[c] + half) >> bits);
    }
}

#if defined(__AVX2__)
/// The vertical sums of values i … i + 15 over an even number of taps: two rows' values interleaved (unpack) meet
/// the pair of their weights in one pmaddwd. lo holds values 0–3 and 8–11, hi 4–7 and 12–15.
static inline void column_sums16(const int16_t *const *rows, const int16_t *weights, int taps, int i, __m256i *lo,
                                 __m256i *hi) {
    __m256i l = _mm256_setzero_si256(), h = l;
    for (int j = 0; j < taps; j += 2) {
        const __m256i a = _mm256_loadu_si256((const __m256i *)(rows[j] + i));
        const __m256i b = _mm256_loadu_si256((const __m256i *)(rows[j + 1] + i));
        const __m256i w = _mm256_set1_epi32((int32_t)((uint16_t)weights[j] | ((uint32_t)(uint16_t)weights[j + 1] << 16)));
        l = _mm256_add_epi32(l, _mm256_madd_epi16(_mm256_unpacklo_epi16(a, b), w));
        h = _mm256_add_epi32(h, _mm256_madd_epi16(_mm256_unpackhi_epi16(a, b), w));
    }
    *lo = l;
    *hi = h;
}
#endif

void pixelloops_fixed_resample_column(const int16_t *const *rows, const int16_t *weights, int taps, int bits, int n,
                                    float unit, float *out) {
    const int32_t half = 1 << (bits - 1);
    int i = 0;
#if defined(__AVX2__)
    if ((taps & 1) == 0) {
        const __m256i rounding = _mm256_set1_epi32(half);
        const __m128i shift = _mm_cvtsi32_si128(bits);
        const __m256 scale = _mm256_set1_ps(unit);
        for (; i + 16 <= n; i += 16) {
            __m256i lo, hi;
            column_sums16(rows, weights, taps, i, &lo, &hi);
            const __m256 flo = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_sra_epi32(_mm256_add_epi32(lo, rounding), shift)), scale);
            const __m256 fhi = _mm256_mul_ps(_mm256_cvtepi32_ps(_mm256_sra_epi32(_mm256_add_epi32(hi, rounding), shift)), scale);
            _mm256_storeu_ps(out + i, _mm256_permute2f128_ps(flo, fhi, 0x20));
            _mm256_storeu_ps(out + i + 8, _mm256_permute2f128_ps(flo, fhi, 0x31));
        }
    }
#endif
    for (; i < n; i++) {
        int32_t sum = 0;
        for (int j = 0; j < taps; j++) sum += (int32_t)rows[j][i] * weights[j];
        out[i] = (float)((sum + half) >> bits) * unit;
    }
}

void pixelloops_fixed_resample_column_rgba8(const int16_t *const *rows, const int16_t *weights, int taps, int bits,
                                           int n, const uint8_t *encode, int top, uint8_t *out) {
    const int32_t half = 1 << (bits - 1);
    int i = 0;
#if defined(__AVX2__)
    if ((taps & 1) == 0) {
        const __m256i rounding = _mm256_set1_epi32(half), zero = _mm256_setzero_si256(), most = _mm256_set1_epi32(top);
        const __m128i shift = _mm_cvtsi32_si128(bits);
        int32_t values[16];
        for (; i + 16 <= n; i += 16) {
            __m256i lo, hi;
            column_sums16(rows, weights, taps, i, &lo, &hi);
            // Each clamped to the table.
            lo = _mm256_min_epi32(_mm256_max_epi32(_mm256_sra_epi32(_mm256_add_epi32(lo, rounding), shift), zero), most);
            hi = _mm256_min_epi32(_mm256_max_epi32(_mm256_sra_epi32(_mm256_add_epi32(hi, rounding), shift), zero), most);
            _mm256_storeu_si256((__m256i *)values, _mm256_permute2x128_si256(lo, hi, 0x20));
            _mm256_storeu_si256((__m256i *)(values + 8), _mm256_permute2x128_si256(lo, hi, 0x31));
            for (int k = 0; k < 16; k += 4) {
                out[i + k] = encode[values[k]];
                out[i + k + 1] = encode[values[k + 1]];
                out[i + k + 2] = encode[values[k + 2]];
                out[i + k + 3] = 255;
            }
        }
    }
#endif
    for (; i < n; i++) {
        int32_t sum = 0;
        for (int j = 0; j < taps; j++) sum += (int32_t)rows[j][i] * weights[j];
        const int32_t v = (sum + half) >> bits;
        out[i] = (i & 3) == 3 ? 255 : encode[v < 0 ? 0 : (v > top ? top : v)];
    }
}
