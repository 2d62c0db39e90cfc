// Image decoding and encoding through libpng and libjpeg-turbo, with errors returned as messages
// (both libraries report errors by longjmp, which Swift cannot catch, so that part lives in C).
#ifndef CIMAGEIO_H
#define CIMAGEIO_H
#include <stddef.h>
#include <stdint.h>

typedef struct {
    int width, height;
    int is16bit;          // 1: pixels are uint16 linear-light RGBA, premultiplied; 0: uint8 sRGB RGBA, straight alpha
    void *pixels;         // rows top to bottom, tightly packed; free with cimageio_free
    char error[256];      // set when the call returns non-zero
} cimageio_image;

/// Largest image accepted, in pixels: a header claiming more is refused before any allocation.
#define CIMAGEIO_MAX_PIXELS (1ULL << 28)

int cimageio_read_png(const char *path, int keep16, cimageio_image *out);
int cimageio_read_jpeg(const char *path, cimageio_image *out);
/// rgba: rows top to bottom. 8-bit: sRGB straight alpha. 16-bit: linear premultiplied (libpng's linear format).
int cimageio_write_png(const char *path, const void *rgba, int width, int height, int is16bit, char error[256]);
/// rgba: 8-bit sRGB RGBA rows top to bottom (alpha is dropped).
int cimageio_write_jpeg(const char *path, const uint8_t *rgba, int width, int height, int quality, char error[256]);
void cimageio_free(cimageio_image *image);
#endif
