import CPixelLoops
import Foundation

/// Pixels in the working space (linear, premultiplied, float RGBA) covering a rectangle, rows bottom to top.
/// Reads outside the rectangle give transparent black, as Core Image does outside an image's extent.
public final class PixelBuffer: @unchecked Sendable {
    public let rect: PixelRect
    public let pixels: UnsafeMutablePointer<Pixel>

    /// A buffer of transparent pixels, or with `uninitialized` one its writer promises to fill entirely
    /// (the renderer's intermediate buffers: zeroing a 1080p float frame first costs a few milliseconds).
    public init(rect: PixelRect, uninitialized: Bool = false) {
        self.rect = rect
        let count = max(1, rect.area)
        pixels = StoragePool.shared.take(count) ?? .allocate(capacity: count)
        if !uninitialized { pixels.initialize(repeating: Pixel(0, 0, 0, 0), count: count) }
    }

    deinit { StoragePool.shared.give(pixels, count: max(1, rect.area)) }

    /// The first pixel of row `y` (image coordinates).
    @inline(__always) public func row(_ y: Int) -> UnsafeMutablePointer<Pixel> {
        pixels + (y - rect.y) * rect.width
    }

    @inline(__always) public func pixel(x: Int, y: Int) -> Pixel {
        guard x >= rect.x, x < rect.maxX, y >= rect.y, y < rect.maxY else { return Pixel(0, 0, 0, 0) }
        return pixels[(y - rect.y) * rect.width + (x - rect.x)]
    }

    /// Copies `count` pixels of row `y` from `x0` on, with zeros where the row leaves the buffer.
    @inline(__always) func readRow(x0: Int, y: Int, count: Int, into out: UnsafeMutablePointer<Pixel>) {
        guard y >= rect.y, y < rect.maxY else {
            out.update(repeating: Pixel(0, 0, 0, 0), count: count)
            return
        }
        let start = max(x0, rect.x), end = min(x0 + count, rect.maxX)
        guard end > start else {
            out.update(repeating: Pixel(0, 0, 0, 0), count: count)
            return
        }
        if start > x0 { out.update(repeating: Pixel(0, 0, 0, 0), count: start - x0) }
        (out + (start - x0)).update(from: row(y) + (start - rect.x), count: end - start)
        if end < x0 + count { (out + (end - x0)).update(repeating: Pixel(0, 0, 0, 0), count: x0 + count - end) }
    }

    /// Bilinear sample at a point in image space (pixel centres at half-integers).
    @inline(__always) public func sampleLinear(_ sx: Float, _ sy: Float) -> Pixel {
        let fx = sx - 0.5, fy = sy - 0.5
        let flx = fx.rounded(.down), fly = fy.rounded(.down)
        // Far outside (or NaN) reads nothing; Int conversion of such values would trap.
        guard flx > Float(rect.x - 2), flx < Float(rect.maxX + 1), fly > Float(rect.y - 2), fly < Float(rect.maxY + 1)
        else { return Pixel(0, 0, 0, 0) }
        let ix = Int(flx), iy = Int(fly)
        let tx = fx - flx, ty = fy - fly
        if ix >= rect.x, ix + 1 < rect.maxX, iy >= rect.y, iy + 1 < rect.maxY {
            let p = pixels + (iy - rect.y) * rect.width + (ix - rect.x), q = p + rect.width
            return Self.bilinear(p[0], p[1], q[0], q[1], tx, ty)
        }
        return Self.bilinear(pixel(x: ix, y: iy), pixel(x: ix + 1, y: iy), pixel(x: ix, y: iy + 1),
                             pixel(x: ix + 1, y: iy + 1), tx, ty)
    }

    /// The bilinear blend of a texel's four corners (bottom row first) at fractions `tx`, `ty`.
    @inline(__always) static func bilinear(_ p00: Pixel, _ p10: Pixel, _ p01: Pixel, _ p11: Pixel,
                                           _ tx: Float, _ ty: Float) -> Pixel {
        let bottom = p00 + (p10 - p00) * tx, top = p01 + (p11 - p01) * tx
        return bottom + (top - bottom) * ty
    }

    /// Bilinear samples at `points`, written planar (the renderer's warp path). A first plain loop, which the
    /// compiler vectorises, turns each point into its top-left texel's offset and its weights; a second reads
    /// the four texels. Points whose texels are not all inside take `sampleLinear`'s checked path.
    /// `scratch` holds 12 bytes a point.
    package func sampleLinear(_ points: UnsafePointer<SIMD2<Float>>, count: Int, into out: PlanarRow,
                      scratch: UnsafeMutableRawPointer) {
        // The first loop vectorises only as written: coordinates read as plain floats (element reads of SIMD2
        // stop it), three output arrays (more pointers exceed LLVM's run-time alias checks), selects rather
        // than `&&`. Offset -1 marks a point for the checked path.
        let offsets = scratch.bindMemory(to: Int32.self, capacity: count)
        let tx = (scratch + 4 * count).bindMemory(to: Float.self, capacity: count)
        let ty = (scratch + 8 * count).bindMemory(to: Float.self, capacity: count)
        let xy = UnsafeRawPointer(points).assumingMemoryBound(to: Float.self)
        let left = Float(rect.x), bottom = Float(rect.y)
        let lastX = Float(rect.maxX - 1), lastY = Float(rect.maxY - 1), width = Int32(rect.width)
        for i in 0..<count {
            let fx = xy[2 * i] - 0.5, fy = xy[2 * i + 1] - 0.5
            let flx = fx.rounded(.down), fly = fy.rounded(.down)
            // NaN fails every comparison, so it takes the checked path too.
            let inside = (flx >= left ? 1 : 0) & (flx < lastX ? 1 : 0) & (fly >= bottom ? 1 : 0) & (fly < lastY ? 1 : 0) as Int32
            // Positions clamped into the buffer (NaN to its corner) before the conversion, which is undefined
            // for huge or NaN values; the offset is used only inside.
            let gx = flx > left ? flx : left, gy = fly > bottom ? fly : bottom
            let cx = gx < lastX ? gx : lastX, cy = gy < lastY ? gy : lastY
            let offset = Int32(cy - bottom) &* width &+ Int32(cx - left)
            offsets[i] = inside != 0 ? offset : -1
            tx[i] = fx - flx; ty[i] = fy - fly
        }
        let stride = rect.width
        for i in 0..<count {
            let value: Pixel
            if offsets[i] >= 0 {
                let p = pixels + Int(offsets[i]), q = p + stride
                value = Self.bilinear(p[0], p[1], q[0], q[1], tx[i], ty[i])
            } else {
                value = sampleLinear(points[i].x, points[i].y)
            }
            out.r[i] = value.x; out.g[i] = value.y; out.b[i] = value.z; out.a[i] = value.w
        }
    }

    @inline(__always) public func sampleNearest(_ sx: Float, _ sy: Float) -> Pixel {
        let fx = sx.rounded(.down), fy = sy.rounded(.down)
        guard fx >= Float(rect.x), fx < Float(rect.maxX), fy >= Float(rect.y), fy < Float(rect.maxY)
        else { return Pixel(0, 0, 0, 0) }
        return pixels[(Int(fy) - rect.y) * rect.width + (Int(fx) - rect.x)]
    }
}

/// A decoded picture kept in its compact file form until rendered: 8-bit sRGB with straight alpha, or
/// working-space floats (16-bit files, generated pixels). Rows bottom to top.
public final class SourcePixels: @unchecked Sendable {
    public enum Storage {
        case rgba8(UnsafeMutablePointer<UInt8>)
        case working(PixelBuffer)
    }

    public let width: Int
    public let height: Int
    public let storage: Storage
    /// Every alpha byte is 255 (the usual photo): decoding then skips the premultiply.
    let isOpaque: Bool

    /// Takes 8-bit sRGB RGBA rows given top to bottom (file order).
    public init(rgba8TopDown bytes: UnsafePointer<UInt8>, width: Int, height: Int) {
        self.width = width
        self.height = height
        let memory = UnsafeMutablePointer<UInt8>.allocate(capacity: max(1, width * height * 4))
        let rowBytes = width * 4
        var opaque = true
        for y in 0..<height {
            (memory + y * rowBytes).update(from: bytes + (height - 1 - y) * rowBytes, count: rowBytes)
        }
        for i in stride(from: 3, to: width * height * 4, by: 4) where memory[i] != 255 {
            opaque = false
            break
        }
        isOpaque = opaque
        storage = .rgba8(memory)
    }

    public init(buffer: PixelBuffer) {
        width = buffer.rect.width
        height = buffer.rect.height
        isOpaque = false
        storage = .working(buffer)
    }

    deinit {
        if case .rgba8(let memory) = storage { memory.deallocate() }
    }

    /// Row `y` (0 = bottom), pixels `x0..<x0+count`, all inside, as working-space pixels: the same values as
    /// `read`, for the resampling's horizontal pass.
    @inline(__always) func readInterleaved(x0: Int, y: Int, count: Int, into out: UnsafeMutablePointer<Pixel>) {
        switch storage {
        case .working(let buffer):
            out.update(from: buffer.pixels + y * width + x0, count: count)
        case .rgba8(let memory):
            ColorMath.decodeTable.withUnsafeBufferPointer { table in
                pixelloops_decode_srgb8_rgba(memory + (y * width + x0) * 4, Int32(count), table.baseAddress!,
                                           isOpaque ? 1 : 0, UnsafeMutableRawPointer(out).assumingMemoryBound(to: Float.self))
            }
        }
    }

    /// Row `y` (0 = bottom), pixels `x0..<x0+count`, all inside, converted to the working space.
    @inline(__always) func read(x0: Int, y: Int, count: Int, into out: PlanarRow, scratch: UnsafeMutablePointer<Pixel>) {
        switch storage {
        case .working(let buffer):
            out.load(buffer.pixels + y * width + x0, count: count)
        case .rgba8(let memory):
            // The look-ups by AVX2 gathers or AVX-512 permutes (C: Swift has neither). Measured on the 2-core dev machine (Intel Xeon,
            // one thread, 1080p opaque, a C model of both loops): 2.9 ms a frame for the scalar look-ups (one
            // 32-bit load a pixel, the channels taken apart with shifts), 2.0 ms gathered.
            ColorMath.decodeTable.withUnsafeBufferPointer { table in
                let src = memory + (y * width + x0) * 4
                pixelloops_decode_srgb8(src, Int32(count), table.baseAddress!, out.r, out.g, out.b, isOpaque ? nil : out.a)
            }
            if isOpaque {
                out.a.update(repeating: 1, count: count)
                return
            }
            // The alpha bytes came as floats; the premultiply is a plain vectorised loop.
            let (r, g, b, a) = (out.r, out.g, out.b, out.a)
            for i in 0..<count {
                let alpha = a[i] * (1 / 255)
                r[i] *= alpha; g[i] *= alpha; b[i] *= alpha; a[i] = alpha
            }
        }
    }
}

/// Freed storage of large buffers, kept for the next buffer of the same size. A 1080p float frame (33 MB) is above
/// glibc's largest mmap threshold (32 MB), so without this every render maps its intermediates anew and faults
/// in every page (measured: about a fifth of a zoom blur's CPU a frame, mostly in the kernel).
final class StoragePool: @unchecked Sendable {
    static let shared = StoragePool()
    /// Smaller blocks come from malloc's own free lists; at most this many bytes are kept idle.
    static let smallest = 1 << 20, limit = 256 << 20, blocks = 4
    private var free: [(pointer: UnsafeMutablePointer<Pixel>, count: Int)] = []
    private var bytes = 0
    private let lock = NSLock()

    func take(_ count: Int) -> UnsafeMutablePointer<Pixel>? {
        guard count * MemoryLayout<Pixel>.stride >= Self.smallest else { return nil }
        lock.lock()
        defer { lock.unlock() }
        guard let index = free.lastIndex(where: { $0.count == count }) else { return nil }
        bytes -= count * MemoryLayout<Pixel>.stride
        return free.remove(at: index).pointer
    }

    func give(_ pointer: UnsafeMutablePointer<Pixel>, count: Int) {
        let size = count * MemoryLayout<Pixel>.stride
        guard size >= Self.smallest, size <= Self.limit else { pointer.deallocate(); return }
        lock.lock()
        var dropped: [UnsafeMutablePointer<Pixel>] = []
        // The oldest go first.
        while !free.isEmpty, free.count >= Self.blocks || bytes + size > Self.limit {
            let old = free.removeFirst()
            bytes -= old.count * MemoryLayout<Pixel>.stride
            dropped.append(old.pointer)
        }
        free.append((pointer, count))
        bytes += size
        lock.unlock()
        for p in dropped { p.deallocate() }
    }
}
