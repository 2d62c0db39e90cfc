// The QR code reader of zxing-cpp 1.4 behind a C interface (Swift cannot call its C++ API here).
#define ZX_USE_UTF8 1
#include "CZXing.h"

#include <ZXing/ReadBarcode.h>

#include <cstdlib>
#include <cstring>

namespace {

template <typename Bytes> uint8_t *copyBytes(const Bytes &bytes) {
    auto *copy = static_cast<uint8_t *>(std::malloc(bytes.size() ? bytes.size() : 1));
    if (copy && !bytes.empty()) std::memcpy(copy, bytes.data(), bytes.size());
    return copy;
}

}

extern "C" int czxing_read_qr_codes(const uint8_t *luminance, int width, int height, int rowBytes, int thorough,
                                    CZXingQRCode **codes) {
    *codes = nullptr;
    if (!luminance || width <= 0 || height <= 0 || rowBytes < width) return 0;
    try {
        ZXing::ImageView image(luminance, width, height, ZXing::ImageFormat::Lum, rowBytes);
        ZXing::DecodeHints hints;
        hints.setFormats(ZXing::BarcodeFormat::QRCode);
        hints.setTryHarder(thorough != 0);
        hints.setTryRotate(thorough != 0);
        ZXing::Results results = ZXing::ReadBarcodes(image, hints);
        int valid = 0;
        for (const auto &r : results) valid += r.isValid() ? 1 : 0;
        if (valid == 0) return 0;
        auto *out = static_cast<CZXingQRCode *>(std::calloc(static_cast<size_t>(valid), sizeof(CZXingQRCode)));
        if (!out) return 0;
        int n = 0;
        for (const auto &r : results) {
            if (!r.isValid()) continue;
            CZXingQRCode &code = out[n++];
            std::string text = r.text();
            code.text = static_cast<char *>(std::malloc(text.size() + 1));
            if (code.text) std::memcpy(code.text, text.c_str(), text.size() + 1);
            code.bytes = copyBytes(r.bytes());
            code.byteCount = r.bytes().size();
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wdeprecated-declarations"
            // For QR codes zxing-cpp 1.4 keeps the corrected data codewords here (its only accessor for them).
            const auto &raw = r.rawBytes();
#pragma GCC diagnostic pop
            code.codewords = copyBytes(raw);
            code.codewordCount = raw.size();
            std::string level = r.ecLevel();
            code.level = level.size() == 1 ? level[0] : 0;
            const auto &position = r.position();
            for (int i = 0; i < 4; ++i) {
                code.cornerX[i] = position[i].x;
                code.cornerY[i] = position[i].y;
            }
        }
        *codes = out;
        return n;
    } catch (...) {
        return 0;
    }
}

extern "C" void czxing_free(CZXingQRCode *codes, int count) {
    if (!codes) return;
    for (int i = 0; i < count; ++i) {
        std::free(codes[i].text);
        std::free(codes[i].bytes);
        std::free(codes[i].codewords);
    }
    std::free(codes);
}
