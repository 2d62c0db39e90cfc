// The engine's inner loops that need what Swift cannot express (gathers, byte permutes, lane permutations) or
// that Swift keeps from vectorising: the 8-bit sRGB conversions, CISepiaTone's look-ups, the resampling passes and
// the blur pyramid's rows.
#ifndef PIXELLOOPS_H
#define PIXELLOOPS_H
#include <stddef.h>
#include <stdint.h>

// The engine's 8-bit sRGB conversions (srgb8.c): table look-ups only, eight at a time with AVX2 gathers (sixteen
// with AVX-512: permutes of the decode table held in registers, and of the encode table's steps).
/// `count` RGBA8 pixels to planar floats: r, g, b = table[byte]; a = the alpha byte as a float (NULL: skipped).
void pixelloops_decode_srgb8(const uint8_t *rgba, int count, const float *table,
                           float *r, float *g, float *b, float *a);
/// The AVX-512 encoders' steps (ColorMath.steps): indices 0…PIXELLOOPS_STEP_TOP, a slice of 256 a byte permute's
/// entry, and the thresholds a slice holds for the encode table (ColorMath.encodeSteps, an index one bit finer than
/// the table's) and for the matrix loop.
#define PIXELLOOPS_STEP_TOP 32767
#define PIXELLOOPS_ENCODE_STEPS 10
#define PIXELLOOPS_ROOT_STEPS 5
/// Planar 16-bit table indices to RGBA8 pixels: table[index] per colour; alpha the `ia` values (NULL: 255).
/// The table must have 3 readable bytes after its last entry.
void pixelloops_encode_srgb8(const uint16_t *ir, const uint16_t *ig, const uint16_t *ib, const uint16_t *ia,
                           int count, const uint8_t *table, uint8_t *rgba);
/// `count` RGBA8 pixels to interleaved premultiplied floats (r, g, b = table[byte] × alpha; alpha 1 if `opaque`).
void pixelloops_decode_srgb8_rgba(const uint8_t *rgba, int count, const float *table, int opaque, float *out);
/// `count` interleaved RGBA float pixels to four planes (PlanarRow.load).
void pixelloops_deinterleave_rgba(const float *pixels, int count, float *r, float *g, float *b, float *a);
/// Opaque planar floats to RGBA8 (alpha 255), the index computed here: clamp((bits >> shift) - base, 0, top),
/// as ColorMath.encodeTable defines it. Same table padding. `steps`: ColorMath.encodeSteps, the same table for
/// byte permutes (AVX-512), or NULL.
void pixelloops_encode_srgb8_opaque(const float *r, const float *g, const float *b, int count, const uint8_t *table,
                                  int shift, int base, int top, const uint8_t *steps, uint8_t *rgba);
/// CISepiaTone's curve look-ups and mix (sepia.c), eight pixels at a time with AVX2; same arithmetic as the
/// Swift loops in ColorEffectFilters.sepiaTone, which do what is left. `entries`: 8 floats a table cell k,
/// v[k].xyz then v[k + 1].xyz − v[k].xyz, two unused; `cells` and `fractions` as that kernel computes them.
/// Returns how many pixels it did (a multiple of 8; 0 without AVX2).
int pixelloops_sepia_mix(const int32_t *cells, const float *fractions, const float *entries, int count, float t,
                       float *r, float *g, float *b, const float *a);

/// out[i] = powf(base[i], power) within a few ulp (power.c), vectorised; `base` and `out` must not overlap.
void pixelloops_powf(const float *base, float *out, int count, float power);

// Colour tables (table8.c); `src` may be `dst`.
/// Opaque RGBA8 pixels through three 256-byte tables (red's, green's, blue's, one after the other); alpha 255.
void pixelloops_table8_channels(const uint8_t *src, int count, const uint8_t *tables, uint8_t *dst);
/// Opaque RGBA8 pixels by sums over their three colours: `sums` holds red's 256 words, then green's and blue's,
/// each of three 16-bit lanes whose sums stay under 65536.
/// The luminance: each pixel is `entries[sum of lane 0]`; `sums` is followed by 192 words: lane 0 of red's 256 as
/// low bytes then high bytes, then green's and blue's (AVX-512 byte permutes).
void pixelloops_table8_luminance(const uint8_t *src, int count, const uint64_t *sums, const uint32_t *entries,
                                 uint8_t *dst);
/// An affine map: channel c is `outputs[c · stride + sum of lane c]` (a stride of 0: one table for all); alpha 255.
void pixelloops_table8_affine(const uint8_t *src, int count, const uint64_t *sums, const uint8_t *outputs,
                              int stride, uint8_t *dst);
/// An affine map worked out per pixel (ColorTables.Matrix): `words` holds each input channel's 256 16-bit values
/// as 256 low bytes then 256 high bytes; row r's sum is Σ_j coefficients[4r + j] · value j + coefficients[4r + 3] ·
/// one, for `rows` 3 (channel c's own row) or 1 (one row for all three). Channel c's index is its row's sum's square
/// root times `scale` (rounded, clamped to 0…PIXELLOOPS_STEP_TOP) and its byte by its steps, `steps` +
/// 128 · (PIXELLOOPS_ROOT_STEPS + 1) · c (ColorMath.steps), of which `step_count` thresholds a slice are used;
/// alpha 255. With `gain_r`, `gain_g` and `gain_b` (else NULL; three rows only), each channel's sum times its
/// plane's factor first. AVX-512 byte permutes only (pixelloops_has_byte_permutes; without them nothing is
/// written): sixty-four pixels a step, the square root by an estimate within 2^−14.
void pixelloops_table8_matrix(const uint8_t *src, int count, const uint64_t *words, const int16_t *coefficients,
                              int rows, int one, float scale, const float *gain_r, const float *gain_g,
                              const float *gain_b, const uint8_t *steps, int step_count, uint8_t *dst);
/// 1 where the loops have AVX-512 byte permutes (VBMI), where the matrix loop beats the affine tables.
int pixelloops_has_byte_permutes(void);

/// Planar premultiplied floats with alpha to RGBA8: the colours divided by alpha, then indexed as above.
void pixelloops_encode_srgb8_alpha(const float *r, const float *g, const float *b, const float *a, int count,
                                 const uint8_t *table, int shift, int base, int top, const uint8_t *steps,
                                 uint8_t *rgba);

// The resampling passes' inner loops (resample.c): sums in tap order, a multiply then an add, as in Swift.
/// Four rows of interleaved RGBA floats: out[r][k] = Σ_j weights[k · taps + j] · src[r][start[k] + j] for
/// j < taps (weights zero past an output's real taps; every src row readable that far).
void pixelloops_resample_rows4_rgba(const float *const *src, const int32_t *start, const float *weights, int taps,
                                  int count, float *const *out);
/// out[i] = Σ_j weights[j] · rows[j][i] over `n` floats, j from 0 to taps − 1 (taps ≥ 1).
void pixelloops_resample_column(const float *const *rows, const float *weights, int taps, int n, float *out);
/// Bilinear enlargement of one row by a whole factor (2 or more), planar: output x0 + i blends small pixels k and
/// k + 1, k = ⌊(x + 0.5) · inv − 0.5⌋, where small[c][k − first] holds pixel k of the rows already blended
/// vertically (readable 8 floats past the last one used).
void pixelloops_upsample_row(const float *const *small, int first, float inv, int x0, int count, float *const *out);
/// Planar out[c][i] = below[4i + c] + (above[4i + c] − below[4i + c]) · t: two interleaved RGBA rows blended.
void pixelloops_blend_rows(const float *below, const float *above, float t, int count, float *const *out);
/// out[i] += the sum of in[f · i ..< f · i + f], added in that order (a box downsample's row of one channel).
void pixelloops_add_block_sums(const float *in, int f, int count, float *out);
// The resampling of 8-bit pictures in 16-bit fixed point (resample8.c): linear premultiplied values, 1.0 = 2^14;
// sums of integer products, rounded to nearest (halves up) by `bits`.
/// `count` opaque RGBA8 pixels to interleaved 16-bit values, each pixel the sum of red's, green's and blue's word
/// for its bytes (`words`: red's 256, then green's and blue's, each the decoded value in its lane, blue's with
/// alpha 2^14 in the top lane), then 64 words: the values' 256 low bytes and 256 high bytes (AVX-512 permutes).
void pixelloops_fixed_decode_opaque_rgba(const uint8_t *rgba, int count, const uint64_t *words, int16_t *out);
/// One row, interleaved RGBA: out[k] = (Σ_j weights[k · taps + j] · src[start[k] + j] + 2^(bits−1)) >> bits,
/// saturated to 16 bits (zero weights past an output's real taps; src readable that far).
void pixelloops_fixed_resample_row(const int16_t *src, const int32_t *start, const int16_t *weights, int taps,
                                   int bits, int count, int16_t *out);
/// out[i] = ((Σ_j weights[j] · rows[j][i] + 2^(bits−1)) >> bits) × unit for `n` values.
void pixelloops_fixed_resample_column(const int16_t *const *rows, const int16_t *weights, int taps, int bits, int n,
                                      float unit, float *out);
/// The same sums for an opaque picture's 8-bit output: each colour value, clamped to 0…top, through `encode`
/// (its sRGB byte); alpha 255. `n` values (4 a pixel, from a pixel's first).
void pixelloops_fixed_resample_column_rgba8(const int16_t *const *rows, const int16_t *weights, int taps, int bits,
                                           int n, const uint8_t *encode, int top, uint8_t *out);
/// Asks for the cache line at `address` ahead of its use (Swift has no prefetch).
static inline void pixelloops_prefetch(const void *address) { __builtin_prefetch(address); }

#endif
