import Foundation

/// An image as Core Image has it: an immutable recipe with an extent. Building one does no pixel work;
/// a `RenderContext` computes pixels when asked for a rectangle.
public final class Image: Sendable, CustomStringConvertible {
    enum Kind: Sendable {
        case source(SourcePixels)
        case constant(Pixel)
        case color(ColorKernel, [Image])
        case warp(WarpKernel, Image, @Sendable (Rect) -> Rect)
        case general(GeneralKernel, [Image])
        case crop(Image, PixelRect)
        case clamp(Image, PixelRect)
        case translate(Image, dx: Int, dy: Int)
        /// Each pixel the mean of a factor×factor block of the input (a pyramid level), computed from rows of the
        /// input as they stream by, so the full-size input is never stored.
        case downsample(Image, factor: Int)
        /// The input enlarged by a whole factor with bilinear interpolation (the way back up a pyramid); the
        /// input is materialised, then each output row blends two of its rows and each pixel two of its columns.
        case upsample(Image, factor: Int)
    }

    public let extent: Rect
    /// Set once after init: by deinit, to let go of the inputs (see `ImageRelease`).
    nonisolated(unsafe) private(set) var kind: Kind
    /// The filter (and its changed inputs) whose output this image is part of, for render-budget errors:
    /// "CIGaussianBlur with inputRadius = 1e+09".
    let origin: String?

    init(extent: Rect, kind: Kind) {
        self.extent = extent
        self.kind = kind
        origin = FilterOrigin.current
    }

    deinit {
        switch kind {
        case .source, .constant: return
        default:
            // The inputs go to this thread's list, then `kind` lets go of them, so that dropping this image
            // never drops an input inside this deinit; the outermost deinit drops the list's images one by one.
            ImageRelease.hold(inputs)
            kind = .constant(Pixel(0, 0, 0, 0))
            ImageRelease.drain()
        }
    }

    /// An image of decoded pixels, placed with its bottom-left corner at the origin.
    public convenience init(source: SourcePixels) {
        self.init(extent: Rect(x: 0, y: 0, width: Double(source.width), height: Double(source.height)),
                  kind: .source(source))
    }

    /// An image of working-space pixels covering the buffer's rectangle.
    public convenience init(buffer: PixelBuffer) {
        self.init(extent: buffer.rect.rect, kind: .source(SourcePixels(buffer: buffer)))
    }

    /// An infinite image of one colour.
    public convenience init(color: Color) {
        self.init(extent: .infinite, kind: .constant(color.workingPixel))
    }

    /// The empty image: nothing anywhere.
    public static let empty = Image(extent: .zero, kind: .constant(Pixel(0, 0, 0, 0)))

    /// Whether every pixel inside the extent is known to be opaque without rendering (decoded pixels whose alpha
    /// bytes are all 255, an opaque colour, and crops, clamps, shifts and rescalings of those). False when unknown.
    public var isOpaque: Bool {
        switch kind {
        case .source(let pixels): pixels.isOpaque
        case .constant(let pixel): pixel.w >= 1 && !extent.isEmpty
        case .crop(let input, _), .clamp(let input, _), .translate(let input, _, _), .downsample(let input, _),
             .upsample(let input, _): input.isOpaque
        case .color, .warp, .general: false
        }
    }

    // MARK: Recipes

    public func cropped(to rect: Rect) -> Image {
        let area = extent.intersection(rect)
        if area.isEmpty { return .empty }
        if area == extent { return self }
        return Image(extent: area, kind: .crop(self, PixelRect(covering: area)))
    }

    public func transformed(by transform: AffineTransform) -> Image {
        if transform == .identity { return self }
        if transform.isIntegerTranslation {
            return Image(extent: transform.apply(to: extent),
                         kind: .translate(self, dx: Int(saturating: transform.tx), dy: Int(saturating: transform.ty)))
        }
        guard transform.isInvertible else { return .empty }
        let inverse = transform.inverted
        let (a, b, c, d) = (Float(inverse.a), Float(inverse.b), Float(inverse.c), Float(inverse.d))
        let (tx, ty) = (Float(inverse.tx), Float(inverse.ty))
        let kernel = WarpKernel(name: "affine") { coords, x0, y, count in
            let py = Float(y) + 0.5
            for i in 0..<count {
                let px = Float(x0 + i) + 0.5
                coords[i] = SIMD2(a * px + c * py + tx, b * px + d * py + ty)
            }
        }
        // One pixel more around the input: bilinear sampling reaches half a pixel beyond the mapped point.
        let inputExtent = extent
        return kernel.apply(extent: transform.apply(to: extent), input: self) { rect in
            inverse.apply(to: rect).insetBy(dx: -1, dy: -1).intersection(inputExtent)
        }
    }

    /// The same pixels with a different extent: larger (transparent around) or smaller (cut off).
    func withExtent(_ newExtent: Rect) -> Image {
        if newExtent == extent { return self }
        if newExtent.isEmpty { return .empty }
        return Image(extent: newExtent, kind: .crop(self, PixelRect(covering: newExtent)))
    }

    /// The image shrunk by a whole factor, each pixel the mean of a block, on a grid anchored at the origin so
    /// that every render sees the same blocks. (Also the explorer's proxy of a large photo.)
    public func downsampled(by factor: Int) -> Image {
        guard factor > 1 else { return self }
        // The renderer streams at most 64 input pixels of a row per output pixel: larger factors are a chain of
        // levels (block means of block means on grids anchored at the origin are the same block means).
        if factor > 64 {
            precondition(factor & (factor - 1) == 0, "pyramid factors are powers of two")
            return downsampled(by: 64).downsampled(by: factor / 64)
        }
        let e = pixelExtent, f = factor
        func down(_ v: Int) -> Int { v >= 0 ? v / f : -((-v + f - 1) / f) }
        let small = PixelRect(x: down(e.x), y: down(e.y), width: down(e.maxX + f - 1) - down(e.x),
                              height: down(e.maxY + f - 1) - down(e.y))
        return Image(extent: small.rect, kind: .downsample(self, factor: f))
    }

    /// The image enlarged by a whole factor with bilinear interpolation, onto `extent`.
    func upsampled(by factor: Int, extent: Rect) -> Image {
        guard factor > 1 else { return self }
        return Image(extent: extent, kind: .upsample(self, factor: factor))
    }

    /// Repeats the edge pixels of the extent outwards forever.
    public func clampedToExtent() -> Image {
        if extent.isInfinite || extent.isEmpty { return self }
        return Image(extent: .infinite, kind: .clamp(self, PixelRect(covering: extent)))
    }

    /// This image over `background`, with the source-over operator.
    public func composited(over background: Image) -> Image {
        ColorKernel(name: "sourceOver") { span in
            let s = span.out, d = span.input(1)
            for i in 0..<span.count {
                let keep = 1 - s.a[i]
                s.r[i] += d.r[i] * keep
                s.g[i] += d.g[i] * keep
                s.b[i] += d.b[i] * keep
                s.a[i] += d.a[i] * keep
            }
        }.apply(extent: extent.union(background.extent), inputs: [self, background])
    }

    public var description: String { "Image(\(kindName), extent \(extent))" }

    var kindName: String {
        switch kind {
        case .source(let s): "source \(s.width)x\(s.height)"
        case .constant: "constant"
        case .color(let k, _): "color \(k.name)"
        case .warp(let k, _, _): "warp \(k.name)"
        case .general(let k, _): "general \(k.name)"
        case .crop: "crop"
        case .clamp: "clamp"
        case .translate: "translate"
        case .downsample(_, let f): "downsample \(f)"
        case .upsample(_, let f): "upsample \(f)"
        }
    }

    /// The whole pixels the extent touches (an infinite extent becomes a very large rectangle).
    var pixelExtent: PixelRect { PixelRect(covering: extent) }

    /// Whether `other` is this image or among its inputs, however deep (each shared node visited once).
    func reads(_ other: Image) -> Bool {
        var seen: Set<ObjectIdentifier> = [], stack = [self]
        while let image = stack.popLast() {
            if image === other { return true }
            if seen.insert(ObjectIdentifier(image)).inserted { stack += image.inputs }
        }
        return false
    }

    var inputs: [Image] {
        switch kind {
        case .source, .constant: []
        case .color(_, let inputs), .general(_, let inputs): inputs
        case .warp(_, let input, _), .crop(let input, _), .clamp(let input, _), .translate(let input, _, _),
             .downsample(let input, _), .upsample(let input, _): [input]
        }
    }
}

/// The filter being applied on this thread (the outermost one when filters build on others), recorded by the
/// images it makes.
enum FilterOrigin {
    @TaskLocal static var current: String?
}

/// Releasing the last image of a long chain would release its input in its deinit, that one its own input, and
/// so on: one nested deinit per image (a 100,000-step recipe overflows the stack). Each deinit hands its inputs
/// to a list of this thread instead and lets go of them, and the outermost deinit drops the list's images one at
/// a time, so that the nesting never goes deeper than two.
enum ImageRelease {
    private final class Pending {
        var images: [Image] = []
        var draining = false
    }

    private static let key: pthread_key_t = {
        var key = pthread_key_t()
        pthread_key_create(&key) { pending in
            if let pending { Unmanaged<AnyObject>.fromOpaque(pending).release() }
        }
        return key
    }()

    private static var pending: Pending {
        if let raw = pthread_getspecific(key) { return Unmanaged<Pending>.fromOpaque(raw).takeUnretainedValue() }
        let pending = Pending()
        pthread_setspecific(key, Unmanaged.passRetained(pending as AnyObject).toOpaque())
        return pending
    }

    /// Keeps `inputs` alive in this thread's list until `drain` drops them.
    static func hold(_ inputs: [Image]) {
        pending.images.append(contentsOf: inputs)
    }

    /// Drops the list's images one at a time, unless a deinit further up this thread's stack is doing so.
    static func drain() {
        let list = pending
        guard !list.draining else { return }
        list.draining = true
        // Dropping an image may run its deinit, which adds its inputs here.
        while let image = list.images.popLast() { withExtendedLifetime(image) {} }
        list.draining = false
    }
}
