import Foundation

// What this module needs of the Core Graphics types beyond their public API.

extension CGColorSpace {
    /// The name the engine understands for colour-space filter inputs (CIColorCubeWithColorSpace ...).
    var engineName: String {
        switch name {
        case Self.linearSRGB?, Self.extendedLinearSRGB?, Self.genericRGBLinear?: "linear"
        case Self.displayP3?, Self.extendedDisplayP3?: "Display P3"
        default: "sRGB"
        }
    }
}

extension CGImage {
    /// The pixels as straight-alpha RGBA bytes, rows top to bottom, tightly packed (for decoding into a CIImage).
    func straightRGBA() -> [UInt8] {
        let data = dataProvider?.data ?? Data()
        var bytes = [UInt8](repeating: 0, count: width * height * 4)
        let alpha = alphaInfo
        data.withUnsafeBytes { (src: UnsafeRawBufferPointer) in
            for y in 0..<height {
                for x in 0..<width {
                    let s = y * bytesPerRow + x * 4, o = (y * width + x) * 4
                    var r = src[s], g = src[s + 1], b = src[s + 2], a = src[s + 3]
                    if alpha == .noneSkipLast { a = 255 }
                    if alpha == .premultipliedLast, a != 255 {
                        // Undo the premultiplication, rounding to the nearest byte.
                        func straight(_ v: UInt8) -> UInt8 { a == 0 ? 0 : UInt8(min(255, (Int(v) * 255 + Int(a) / 2) / Int(a))) }
                        r = straight(r); g = straight(g); b = straight(b)
                    }
                    bytes[o] = r; bytes[o + 1] = g; bytes[o + 2] = b; bytes[o + 3] = a
                }
            }
        }
        return bytes
    }
}
