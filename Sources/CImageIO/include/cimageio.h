// Image decoding and encoding in memory through libpng and libjpeg-turbo, with errors returned as messages
// (both libraries report errors by longjmp, which Swift cannot catch, so that part lives in C); and the temporary
// files removed on signals (a handler must be C).
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
