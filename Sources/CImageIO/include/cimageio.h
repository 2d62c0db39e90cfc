// Image decoding and encoding in memory through libpng and libjpeg-turbo, with errors returned as messages
// (both libraries report errors by longjmp, which Swift cannot catch, so that part lives in C); and the engine's
// inner loops that need what Swift cannot express (AVX2 gathers, lane permutations, transposes) or that Swift
// keeps from vectorising: the 8-bit sRGB conversions, CISepiaTone's look-ups, the resampling passes and the blur
// pyramid's rows.
#ifndef CIMAGEIO_H
#define CIMAGEIO_H
#include <stddef.h>
#include <stdint.h>

enum { CIMAGEIO_RGB = 0, CIMAGEIO_GRAY = 1, CIMAGEIO_CMYK = 2 };

typedef struct {
    int width, height;
    /// 1: pixels are uint16 RGBA (host byte order), straight alpha, as encoded in the file (not linearised);
    /// 0: uint8 RGBA, straight alpha, as encoded in the file.
    int is16bit;
    void *pixels;            // rows top to bottom, tightly packed
    // What the file says about itself.
    int bit_depth;           // bits per sample in the file (1, 2, 4, 8 or 16)
    int color_model;         // CIMAGEIO_RGB, _GRAY or _CMYK (palette images are RGB)
    int has_alpha;           // an alpha channel or a transparency chunk
    int srgb_chunk;          // PNG: an sRGB chunk
    double gamma;            // PNG: the gAMA chunk's file gamma (0.45455 for sRGB-like), 0 when absent
    unsigned char *icc;      // an embedded ICC profile (PNG iCCP, JPEG APP2), or NULL
    size_t icc_length;
    char icc_name[80];       // PNG: the iCCP chunk's profile name
    char icc_problem[160];   // PNG: why libpng dropped an iCCP chunk (an invalid profile), or empty
    unsigned char *exif;     // EXIF data as a TIFF structure ("II*\0" or "MM\0*"), or NULL
    size_t exif_length;
    double dpi_x, dpi_y;     // from PNG pHYs or JPEG JFIF density; 0 when absent
    unsigned long long declared_pixels;  // width × height the header declares (set even when refused)
    int too_large;           // 1 when refused for exceeding max_pixels
    int stored_width, stored_height;  // the size the file declares (width, height: the decoded, maybe reduced)
    char error[256];         // set when the call returns non-zero
} cimageio_image;

typedef struct {
    unsigned char *data;
    size_t size;
} cimageio_buffer;

/// Decodes a PNG or JPEG held in memory. A header declaring more than `max_pixels` pixels is refused before any
/// pixel memory is allocated (`too_large` set). Free the result with `cimageio_free`, also after an error.
int cimageio_decode_png(const void *data, size_t size, unsigned long long max_pixels, cimageio_image *out);
int cimageio_decode_jpeg(const void *data, size_t size, unsigned long long max_pixels, cimageio_image *out);
/// The same at 1/scale_denom of the size in each direction (2, 4 or 8; 1: full size), rounded up; `width` and
/// `height` are then the reduced size, `declared_pixels` the full image's.
int cimageio_decode_jpeg_scaled(const void *data, size_t size, unsigned long long max_pixels, int scale_denom,
                                cimageio_image *out);
void cimageio_free(cimageio_image *image);

/// Encodes to memory. rgba: rows top to bottom. 8-bit: sRGB straight alpha. 16-bit: linear premultiplied
/// (libpng's linear format, written with gAMA 1.0). Free the buffer with `cimageio_buffer_free`.
int cimageio_encode_png(const void *rgba, int width, int height, int is16bit, cimageio_buffer *out, char error[256]);
/// rgba: 8-bit sRGB RGBA rows top to bottom (alpha is dropped).
int cimageio_encode_jpeg(const uint8_t *rgba, int width, int height, int quality, cimageio_buffer *out, char error[256]);
void cimageio_buffer_free(cimageio_buffer *buffer);

// The engine's 8-bit sRGB conversions (srgb8.c): table look-ups only, eight at a time with AVX2 gathers.
/// `count` RGBA8 pixels to planar floats: r, g, b = table[byte]; a = the alpha byte as a float (NULL: skipped).
void cimageio_decode_srgb8(const uint8_t *rgba, int count, const float *table,
                           float *r, float *g, float *b, float *a);
/// Planar 16-bit table indices to RGBA8 pixels: table[index] per colour; alpha the `ia` values (NULL: 255).
/// The table must have 3 readable bytes after its last entry.
void cimageio_encode_srgb8(const uint16_t *ir, const uint16_t *ig, const uint16_t *ib, const uint16_t *ia,
                           int count, const uint8_t *table, uint8_t *rgba);
/// `count` RGBA8 pixels to interleaved premultiplied floats (r, g, b = table[byte] × alpha; alpha 1 if `opaque`).
void cimageio_decode_srgb8_rgba(const uint8_t *rgba, int count, const float *table, int opaque, float *out);
/// `count` interleaved RGBA float pixels to four planes (PlanarRow.load).
void cimageio_deinterleave_rgba(const float *pixels, int count, float *r, float *g, float *b, float *a);
/// Opaque planar floats to RGBA8 (alpha 255), the index computed here: clamp((bits >> shift) - base, 0, top),
/// as ColorMath.encodeTable defines it. Same table padding.
void cimageio_encode_srgb8_opaque(const float *r, const float *g, const float *b, int count, const uint8_t *table,
                                  int shift, int base, int top, uint8_t *rgba);
/// CISepiaTone's curve look-ups and mix (sepia.c), eight pixels at a time with AVX2; same arithmetic as the
/// Swift loops in ColorEffectFilters.sepiaTone, which do what is left. `entries`: 8 floats a table cell k,
/// v[k].xyz then v[k + 1].xyz − v[k].xyz, two unused; `cells` and `fractions` as that kernel computes them.
/// Returns how many pixels it did (a multiple of 8; 0 without AVX2).
int cimageio_sepia_mix(const int32_t *cells, const float *fractions, const float *entries, int count, float t,
                       float *r, float *g, float *b, const float *a);

/// Planar premultiplied floats with alpha to RGBA8: the colours divided by alpha, then indexed as above.
void cimageio_encode_srgb8_alpha(const float *r, const float *g, const float *b, const float *a, int count,
                                 const uint8_t *table, int shift, int base, int top, uint8_t *rgba);

// The resampling passes' inner loops (resample.c): sums in tap order, a multiply then an add, as in Swift.
/// Four rows of interleaved RGBA floats: out[r][k] = Σ_j weights[k · taps + j] · src[r][start[k] + j] for
/// j < taps (weights zero past an output's real taps; every src row readable that far).
void cimageio_resample_rows4_rgba(const float *const *src, const int32_t *start, const float *weights, int taps,
                                  int count, float *const *out);
/// out[i] = Σ_j weights[j] · rows[j][i] over `n` floats, j from 0 to taps − 1 (taps ≥ 1).
void cimageio_resample_column(const float *const *rows, const float *weights, int taps, int n, float *out);
/// Bilinear enlargement of one row by a whole factor (2 or more), planar: output x0 + i blends small pixels k and
/// k + 1, k = ⌊(x + 0.5) · inv − 0.5⌋, where small[c][k − first] holds pixel k of the rows already blended
/// vertically (readable 8 floats past the last one used).
void cimageio_upsample_row(const float *const *small, int first, float inv, int x0, int count, float *const *out);
/// Planar out[c][i] = below[4i + c] + (above[4i + c] − below[4i + c]) · t: two interleaved RGBA rows blended.
void cimageio_blend_rows(const float *below, const float *above, float t, int count, float *const *out);
/// out[i] += the sum of in[f · i ..< f · i + f], added in that order (a box downsample's row of one channel).
void cimageio_add_block_sums(const float *in, int f, int count, float *out);

// Temporary files removed when the program is killed (tempfiles.c): a fixed table, so the signal handler only
// reads memory and calls unlink, both safe in a handler.
/// Records `path` (shorter than 4096 bytes) to remove on SIGINT, SIGTERM or SIGHUP; the slot, or -1 when full.
int cimageio_temporary_register(const char *path);
/// Forgets a slot (the file was renamed or removed).
void cimageio_temporary_forget(int slot);
/// Installs the handlers once (and unblocks those signals): each removes the recorded files, then dies of its
/// signal as before. A signal that is ignored, or whose handler the program has set itself, is left alone.
void cimageio_temporary_remove_on_signals(void);
#endif
