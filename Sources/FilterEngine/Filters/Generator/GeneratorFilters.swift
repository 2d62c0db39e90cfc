import Foundation

enum GeneratorFilters {
    static let all: [String: FilterImplementation] = [
        "CIConstantColorGenerator": constantColor,
        "CICheckerboardGenerator": checkerboard,
        "CIRandomGenerator": random,
    ]

    static func constantColor(_ inputs: FilterInputs) throws -> Image {
        Image(color: try inputs.color("inputColor"))
    }

    /// Squares of `width` pixels with a corner at the centre; sharpness 1 gives hard edges, lower values blend
    /// the two colours over a band (1 - sharpness) of the square's width.
    /// 0 for an even whole number, 1 for an odd one (beyond 2^24 every float is even; NaN gives NaN ≠ 0).
    @inline(__always) static func parity(_ whole: Float) -> Float { whole - 2 * (whole * 0.5).rounded(.down) }

    static func checkerboard(_ inputs: FilterInputs) throws -> Image {
        let center = try inputs.point("inputCenter")
        let c0 = try inputs.color("inputColor0").workingPixel
        let c1 = try inputs.color("inputColor1").workingPixel
        let width = Float(try inputs.number("inputWidth"))
        let sharpness = try inputs.float("inputSharpness")
        guard width > 0 else { return Image(color: try inputs.color("inputColor0")) }
        let cx = Float(center.x), cy = Float(center.y)
        // Blend band, in squares: at sharpness 1 just under a pixel, for antialiasing.
        let band = max((1 - sharpness) * 0.5, 0.5 / width)
        return ColorKernel(name: "checkerboard") { span in
            let fy = (Float(span.y) + 0.5 - cy) / width
            let ty = fy - fy.rounded(.down)
            // Parity in floats: a width of 1e-30 makes fy huge, where an integer conversion is undefined.
            let sy: Float = parity(fy.rounded(.down)) == 0 ? 1 : -1
            // Distance to the nearest horizontal edge, in squares, and the mix it gives.
            let my = min(min(ty, 1 - ty) / band, 1) * sy
            let out = span.out
            for i in 0..<span.count {
                let fx = (Float(span.x0 + i) + 0.5 - cx) / width
                let tx = fx - fx.rounded(.down)
                let sx: Float = parity(fx.rounded(.down)) == 0 ? 1 : -1
                let mx = min(min(tx, 1 - tx) / band, 1) * sx
                // mx·my runs from -1 (colour 1) to 1 (colour 0), 0 on an edge.
                let t = (mx * my + 1) * 0.5
                out[i] = c1 + (c0 - c1) * t
            }
        }.apply(extent: .infinite, inputs: [])
    }

    /// Apple's noise: one 256×256 texture of bytes repeated over the plane (its iOS 7 and iOS 13.3 renders,
    /// shared/conformance CIRandomGenerator, are the same pixels with period 256 in x and y). The texture is the
    /// C library's additive-feedback `random()` after `srandom(42)` (glibc's algorithm, which BSD/macOS share for
    /// this seed), one call per byte, each byte the call's low 8 bits: pixels in rows from the top row down
    /// (Core Image y 255 first), left to right, each pixel alpha then red, green, blue (ARGB). Every byte k is
    /// the linear value k/255, stored as is: colour is above alpha about half the time. Found by matching the
    /// renders' alpha, which the PNG holds exactly: all 65536 alpha bytes agree, and the colours are the ones
    /// these bytes give through the PNG's un-premultiplied 8-bit encoding (99.6 % of bytes exact, the rest one
    /// level off from the two roundings of that encoding).
    static func random(_ inputs: FilterInputs) throws -> Image {
        ColorKernel(name: "random", repeating: RandomTexture.texture).apply(extent: .infinite, inputs: [])
    }
}

/// The random generator's texture, built once (1 MiB) and never written after.
enum RandomTexture {
    static let size = 256, plane = 256 * 256
    static let seed: Int32 = 42

    /// The bytes of `random()` after `srandom(seed)`, in the C library's algorithm: 31 words seeded by the
    /// Park–Miller generator (×16807 modulo 2³¹ − 1), then each new word is the sum (mod 2³²) of the words 3 and
    /// 31 back; the first 310 sums are dropped, and each output is a sum shifted right by one bit.
    static func randomBytes(seed: Int32, count: Int) -> [UInt8] {
        var words = [UInt32](repeating: 0, count: 34)
        words[0] = UInt32(seed == 0 ? 1 : seed)
        for i in 1..<31 {
            // The product fits in 64 bits; a negative seed is taken as its unsigned word, as C does.
            let next = (16807 * Int64(Int32(bitPattern: words[i - 1]))) % 2_147_483_647
            words[i] = UInt32(truncatingIfNeeded: next < 0 ? next + 2_147_483_647 : next)
        }
        for i in 31..<34 { words[i] = words[i - 31] }
        // A ring of the last 34 words: word n is at n % 34.
        var n = 34
        var bytes = [UInt8](repeating: 0, count: count)
        for j in 0..<(310 + count) {
            let w = words[(n - 31) % 34] &+ words[(n - 3) % 34]
            words[n % 34] = w
            n += 1
            if j >= 310 { bytes[j - 310] = UInt8(truncatingIfNeeded: w >> 1) }
        }
        return bytes
    }

    /// The planes as the generator repeats them.
    static let texture = PeriodicTexture(size: size, planes: planes, owned: false)

    /// Four planes (r, g, b, a) of 256×256 floats, row 0 at Core Image's y = 0.
    nonisolated(unsafe) static let planes: UnsafePointer<Float> = {
        let bytes = randomBytes(seed: seed, count: 4 * plane)
        let p = UnsafeMutablePointer<Float>.allocate(capacity: 4 * plane)
        for memoryRow in 0..<size {
            let y = size - 1 - memoryRow
            for x in 0..<size {
                let k = 4 * (memoryRow * size + x)
                let t = y * size + x
                p[3 * plane + t] = Float(bytes[k]) / 255      // alpha first
                p[t] = Float(bytes[k + 1]) / 255
                p[plane + t] = Float(bytes[k + 2]) / 255
                p[2 * plane + t] = Float(bytes[k + 3]) / 255
            }
        }
        return UnsafePointer(p)
    }()
}

/// A square texture of working-space pixels that a generator repeats over the plane (`ColorKernel(repeating:)`).
final class PeriodicTexture: @unchecked Sendable {
    /// The side, a power of two.
    let size: Int
    /// Four planes (r, g, b, a) of size × size floats, row 0 at y = 0; never written after `init`.
    let planes: UnsafePointer<Float>
    private let owned: Bool

    init(size: Int, planes: UnsafePointer<Float>, owned: Bool) {
        precondition(size > 0 && size & (size - 1) == 0)
        self.size = size; self.planes = planes; self.owned = owned
    }

    deinit { if owned { planes.deallocate() } }

    /// Writes the span's pixels, copied in runs up to the texture's right edge (a per-pixel wrapped index was
    /// 14% of bench case a).
    @inline(__always) func copy(into span: ColorSpan) {
        let plane = size * size, row = planes + (span.y & (size - 1)) * size
        let (r, g, b, a) = (span.out.r, span.out.g, span.out.b, span.out.a)
        var i = 0
        while i < span.count {
            let x = (span.x0 + i) & (size - 1), run = min(span.count - i, size - x)
            (r + i).update(from: row + x, count: run); (g + i).update(from: row + plane + x, count: run)
            (b + i).update(from: row + 2 * plane + x, count: run); (a + i).update(from: row + 3 * plane + x, count: run)
            i += run
        }
    }

    /// This texture through `kernel` (which must not read its place), made once a row.
    func through(_ kernel: ColorKernel) -> PeriodicTexture {
        let plane = size * size
        let baked = UnsafeMutablePointer<Float>.allocate(capacity: 4 * plane)
        baked.update(from: planes, count: 4 * plane)
        let others = UnsafeMutablePointer<PlanarRow>.allocate(capacity: 1)
        defer { others.deallocate() }
        for y in 0..<size {
            let row = PlanarRow(base: baked + y * size, stride: plane)
            kernel.body(ColorSpan(out: row, others: others, x0: 0, y: y, count: size))
        }
        return PeriodicTexture(size: size, planes: UnsafePointer(baked), owned: true)
    }

    /// Textures made through kernels for the last few chains, by the texture and the kernel's name and parameters
    /// (bit for bit): a graph built again for each frame or benchmark run makes them once.
    static let made = Made()

    final class Made: @unchecked Sendable {
        private let lock = NSLock()
        /// Each entry keeps its source texture, so that no other texture can take its identity while it is here.
        private var entries: [(source: PeriodicTexture, name: String, parameters: [UInt32], texture: PeriodicTexture)] = []
        static let capacity = 4

        func texture(_ source: PeriodicTexture, through kernel: ColorKernel) -> PeriodicTexture {
            let parameters = kernel.parameters.map(\.bitPattern)
            lock.lock()
            defer { lock.unlock() }
            if let entry = entries.first(where: { $0.source === source && $0.name == kernel.name && $0.parameters == parameters }) {
                return entry.texture
            }
            let baked = source.through(kernel)
            entries.append((source, kernel.name, parameters, baked))
            if entries.count > Self.capacity { entries.removeFirst() }
            return baked
        }
    }
}
