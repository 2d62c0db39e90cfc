// A C interface to the QR code reader of zxing-cpp (a C++ library), for CIDetector.
#ifndef CZXING_H
#define CZXING_H

#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/// One QR code read from an image.
typedef struct {
    /// The message as UTF-8 (zxing-cpp's text, after its character-set handling), NUL-terminated.
    char *text;
    /// The message's bytes as encoded (before any character-set interpretation).
    uint8_t *bytes;
    size_t byteCount;
    /// The data codewords after error correction, in symbol order (what CIQRCodeDescriptor's payload holds).
    uint8_t *codewords;
    size_t codewordCount;
    /// The error-correction level's letter: 'L', 'M', 'Q' or 'H' (0 when zxing-cpp gives none).
    char level;
    /// The symbol's corners in pixels (x right, y down): top left, top right, bottom right, bottom left, as
    /// the symbol is read (its finder patterns at top left, top right and bottom left).
    double cornerX[4];
    double cornerY[4];
} CZXingQRCode;

/// Reads every QR code in an 8-bit luminance image (rows top to bottom, `rowBytes` apart). `thorough` spends
/// more time (rotations, lower-contrast symbols). Returns the number of codes and sets `*codes` to an array
/// to free with czxing_free (NULL when none).
int czxing_read_qr_codes(const uint8_t *luminance, int width, int height, int rowBytes, int thorough,
                         CZXingQRCode **codes);

void czxing_free(CZXingQRCode *codes, int count);

#ifdef __cplusplus
}
#endif

#endif
