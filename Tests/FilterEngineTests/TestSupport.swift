import Foundation
import Testing
@testable import FilterEngine

/// Small images with known pixels, and renders back to numbers.
enum TestImages {
    static let context = RenderContext()

    /// PSNR of two 8-bit RGBA renders of one size, colour weighted by its alpha (so that what is transparent in
    /// both does not count); 99 when they are identical.
    static func psnr(_ x: [UInt8], _ y: [UInt8]) -> Double {
        var squared = 0.0
        for i in stride(from: 0, to: x.count, by: 4) {
            let xa = Double(x[i + 3]) / 255, ya = Double(y[i + 3]) / 255
            for c in 0..<3 {
                let d = Double(x[i + c]) * xa - Double(y[i + c]) * ya
                squared += d * d
            }
            let d = Double(x[i + 3]) - Double(y[i + 3])
            squared += d * d
        }
        let mse = squared / Double(x.count)
        return mse == 0 ? 99 : 10 * log10(255 * 255 / mse)
    }

    /// A width×height image whose working-space pixels come from `pixel(x, y)` (y up).
    static func make(width: Int, height: Int, _ pixel: (Int, Int) -> Pixel) -> Image {
        let buffer = PixelBuffer(rect: PixelRect(x: 0, y: 0, width: width, height: height))
        for y in 0..<height {
            for x in 0..<width { buffer.row(y)[x] = pixel(x, y) }
        }
        return Image(buffer: buffer)
    }

    /// A smooth, colourful test pattern with partial alpha in one corner.
    static func pattern(width: Int = 64, height: Int = 48) -> Image {
        make(width: width, height: height) { x, y in
            let a: Float = (x < 8 && y < 8) ? 0.5 : 1
            let r = Float(x) / Float(width), g = Float(y) / Float(height)
            let b = Float((x * 7 + y * 3) % 17) / 17
            return Pixel(r * a, g * a, b * a, a)
        }
    }

    /// An 8-bit sRGB source image (as decoded from a file) from RGBA bytes given top row first.
    static func rgba8(width: Int, height: Int, bytes: [UInt8]) -> Image {
        bytes.withUnsafeBufferPointer { Image(source: SourcePixels(rgba8TopDown: $0.baseAddress!, width: width, height: height)) }
    }

    static func render(_ image: Image, _ rect: Rect? = nil, context: RenderContext = context) throws -> PixelBuffer {
        try context.render(image, rect: rect ?? image.extent)
    }

    static func pixel(_ image: Image, x: Int, y: Int) throws -> Pixel {
        try render(image, Rect(x: Double(x), y: Double(y), width: 1, height: 1)).pixel(x: x, y: y)
    }

    /// Largest absolute difference between two buffers over the same rectangle.
    static func maxDifference(_ a: PixelBuffer, _ b: PixelBuffer) -> Float {
        precondition(a.rect == b.rect, "\(a.rect) vs \(b.rect)")
        var worst: Float = 0
        for i in 0..<a.rect.area {
            worst = max(worst, largestComponent(a.pixels[i] - b.pixels[i]))
        }
        return worst
    }

    static func filter(_ name: String, _ values: [String: FilterValue]) throws -> Image {
        let filter = try Filter(named: name)
        for (key, value) in values { try filter.setValue(value, forKey: key) }
        return try filter.makeOutputImage()
    }
}

func close(_ a: Pixel, _ b: Pixel, tolerance: Float = 1e-4) -> Bool {
    largestComponent(a - b) <= tolerance
}

/// The largest absolute component.
func largestComponent<T: SIMD>(_ v: T) -> T.Scalar where T.Scalar: FloatingPoint {
    v.indices.map { Swift.abs(v[$0]) }.max()!
}
