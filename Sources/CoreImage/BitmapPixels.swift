import Foundation

/// One pixel of a `CIFormat` in memory, read or written as the four values r, g, b, a (the values as stored:
/// encoding, premultiplication and colour spaces are the caller's). The one place that knows each format's
/// channel order, width and integer scaling.
extension CIFormat {
    /// Bytes per pixel (0 for a format not supported here).
    var bytesPerPixel: Int { layout.map { $0.channels.count * $0.bytesPerChannel } ?? 0 }

    /// The pixel at `pixel`: missing colour channels are 0 (a luminance channel gives r = g = b), a missing or
    /// padding alpha is 1.
    func load(_ memory: UnsafeRawPointer, _ pixel: Int) -> SIMD4<Float> {
        guard let layout else { return SIMD4(0, 0, 0, 0) }
        var rgba = SIMD4<Float>(0, 0, 0, 1)
        let base = memory + pixel * bytesPerPixel
        for (i, channel) in layout.channels.enumerated() where channel != .one {
            let at = base + i * layout.bytesPerChannel
            let v: Float = switch (layout.bytesPerChannel, layout.float) {
            case (1, _): Float(at.load(as: UInt8.self)) / 255
            case (2, false): Float(at.loadUnaligned(as: UInt16.self)) / 65535
            case (2, true): Float(at.loadUnaligned(as: Float16.self))
            default: at.loadUnaligned(as: Float.self)
            }
            switch channel {
            case .r: rgba.x = v
            case .g: rgba.y = v
            case .b: rgba.z = v
            case .a: rgba.w = v
            case .luma: rgba.x = v; rgba.y = v; rgba.z = v
            case .one: break
            }
        }
        return rgba
    }

    /// Writes `rgba` as pixel `pixel`: integer formats clamp to 0…1 and round, a luminance channel takes the
    /// Rec. 709 weights, padding is 1.
    func store(_ rgba: SIMD4<Float>, _ memory: UnsafeMutableRawPointer, _ pixel: Int) {
        guard let layout else { return }
        let base = memory + pixel * bytesPerPixel
        for (i, channel) in layout.channels.enumerated() {
            let v: Float = switch channel {
            case .r: rgba.x
            case .g: rgba.y
            case .b: rgba.z
            case .a: rgba.w
            case .luma: 0.2126 * rgba.x + 0.7152 * rgba.y + 0.0722 * rgba.z
            case .one: 1
            }
            let at = base + i * layout.bytesPerChannel
            switch (layout.bytesPerChannel, layout.float) {
            case (1, _): at.storeBytes(of: Self.quantise(v, 255, as: UInt8.self), as: UInt8.self)
            case (2, false): at.storeBytes(of: Self.quantise(v, 65535, as: UInt16.self), as: UInt16.self)
            case (2, true): at.storeBytes(of: Float16(v), as: Float16.self)
            default: at.storeBytes(of: v, as: Float.self)
            }
        }
    }

    /// A value in 0…1 to an integer of `scale` levels (NaN to 0).
    @inline(__always) static func quantise<T: FixedWidthInteger>(_ v: Float, _ scale: Float, as: T.Type) -> T {
        let clamped = v > 0 ? (v < 1 ? v : 1) : 0
        return T(clamped * scale + 0.5)
    }
}
