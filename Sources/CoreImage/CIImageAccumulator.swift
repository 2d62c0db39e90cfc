import Foundation
internal import FilterEngine

/// Pixels kept between passes, as iterative effects (feedback, painting, reaction–diffusion) use them: each
/// `setImage` renders now, into storage of the accumulator's extent and format, and `image()` gives the stored
/// pixels as an image that later `setImage` calls do not change (each call makes new storage, so an image
/// taken before it, or read while it renders, keeps its pixels).
open class CIImageAccumulator: NSObject, @unchecked Sendable {
    public let extent: CGRect
    public let format: CIFormat
    private let area: PixelRect
    private var stored: PixelBuffer
    private let lock = NSLock()
    private static let renderer = EngineContext(options: .init())

    /// Nil for an infinite, empty or non-finite extent, one larger than a render may be, or a format the
    /// renderer cannot write (see `CIContext.render(_:toBitmap:…)`).
    public init?(extent: CGRect, format: CIFormat) {
        let rect = extent.engineRect
        guard format.layout?.channels.count == 4, !rect.isInfinite, !rect.isEmpty,
              [rect.x, rect.y, rect.width, rect.height].allSatisfy({ $0.isFinite && abs($0) < 1e6 })
        else {
            LibraryWarnings.report("CIImageAccumulator: extent \(extent) or format \(format.rawValue) cannot be stored")
            return nil
        }
        area = PixelRect(covering: rect)
        guard area.area <= 16384 * 16384 else { return nil }
        self.extent = CGRect(area.rect)
        self.format = format
        stored = PixelBuffer(rect: area)
    }

    public convenience init?(extent: CGRect, format: CIFormat, colorSpace: CGColorSpace) {
        self.init(extent: extent, format: format)
    }

    /// The stored pixels.
    open func image() -> CIImage {
        lock.lock()
        defer { lock.unlock() }
        return CIImage(engine: EngineImage(buffer: stored))
    }

    /// Replaces the whole contents with `image` (transparent where it has no pixels).
    open func setImage(_ image: CIImage) {
        update(with: image, in: area)
    }

    /// Replaces the contents inside `dirtyRect` only.
    open func setImage(_ image: CIImage, dirtyRect: CGRect) {
        let dirty = dirtyRect.engineRect
        guard !dirty.isEmpty else { return }
        let clipped = dirty.isInfinite ? area : PixelRect(covering: dirty.intersection(area.rect)).intersection(area)
        update(with: image, in: clipped)
    }

    /// Transparent black everywhere.
    open func clear() {
        lock.lock()
        stored = PixelBuffer(rect: area)
        lock.unlock()
    }

    private func update(with image: CIImage, in rect: PixelRect) {
        guard !rect.isEmpty else { return }
        let rendered: PixelBuffer
        do { rendered = try Self.renderer.render(image.engine, rect: rect.rect) } catch {
            LibraryWarnings.report("CIImageAccumulator.setImage: \(error)")
            return
        }
        lock.lock()
        defer { lock.unlock() }
        let next = PixelBuffer(rect: area, uninitialized: true)
        next.pixels.update(from: stored.pixels, count: area.area)
        for y in rect.y..<rect.maxY {
            let line = next.row(y) + (rect.x - area.x), source = rendered.row(y)
            for x in 0..<rect.width { line[x] = Self.quantised(source[x], format) }
        }
        stored = next
    }

    /// A pixel as the format stores it: integer formats keep the sRGB-encoded straight colour to their
    /// precision, half floats the working values to theirs, floats everything.
    private static func quantised(_ p: Pixel, _ format: CIFormat) -> Pixel {
        guard let layout = format.layout, !(layout.float && layout.bytesPerChannel == 4) else { return p }
        var slot = SIMD4<Float>()
        return withUnsafeMutableBytes(of: &slot) { memory -> Pixel in
            if layout.float {
                format.store(p, memory.baseAddress!, 0)
                return format.load(memory.baseAddress!, 0)
            }
            let a = p.w, inverse: Float = a > 0 ? 1 / a : 0
            var encoded = p
            for c in 0..<3 { encoded[c] = Float(CIColor.encodeSRGB(Double(p[c] * inverse))) }
            format.store(encoded, memory.baseAddress!, 0)
            var stored = format.load(memory.baseAddress!, 0)
            for c in 0..<3 { stored[c] = Float(CIColor.decodeSRGB(Double(stored[c]))) * stored.w }
            return stored
        }
    }
}
