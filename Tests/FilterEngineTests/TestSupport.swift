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

/// A small seeded generator, so that fuzzed cases are the same on every run.
struct SplitMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Feeds `attempt` the prefixes of each seed (one every `cutStride` characters) and `mutants` random variants
/// of it, each with 1 to 4 characters replaced, removed or inserted, or with `duplicatingSlices` also a slice
/// repeated (repeated directives, nested loops).
func feedMutants(of seeds: [String], alphabet: [Character], cutStride: Int, mutants: Int, duplicatingSlices: Bool = false,
                 generator: inout SplitMix, _ attempt: (String) -> Void) {
    func pick(_ bound: Int) -> Int { Int(generator.next() % UInt64(bound)) }
    for seed in seeds {
        let chars = Array(seed)
        for cut in stride(from: 0, to: chars.count, by: cutStride) { attempt(String(chars[0..<cut])) }
        for _ in 0..<mutants {
            var mutated = chars
            for _ in 0..<(1 + pick(4)) {
                let i = pick(mutated.count)
                switch pick(duplicatingSlices ? 4 : 3) {
                case 0: mutated[i] = alphabet[pick(alphabet.count)]
                case 1: mutated.remove(at: i)
                case 2: mutated.insert(alphabet[pick(alphabet.count)], at: i)
                default: mutated.insert(contentsOf: mutated[i..<min(mutated.count, i + pick(40))], at: i)
                }
            }
            attempt(String(mutated))
        }
    }
}
