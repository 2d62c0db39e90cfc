import Foundation
import CPixelLoops

/// A row segment of working-space pixels stored planar: four channel arrays (premultiplied red, green, blue,
/// and alpha). Kernels loop over plain floats, which the compiler vectorises across pixels: measured 8× faster
/// on the dev machine than one SIMD4 per pixel for a typical unpremultiply–matrix–premultiply kernel.
public struct PlanarRow {
    public let r: UnsafeMutablePointer<Float>
    public let g: UnsafeMutablePointer<Float>
    public let b: UnsafeMutablePointer<Float>
    public let a: UnsafeMutablePointer<Float>

    /// Four channels laid one after the other in `base`, each `stride` floats long.
    init(base: UnsafeMutablePointer<Float>, stride: Int) {
        r = base; g = base + stride; b = base + 2 * stride; a = base + 3 * stride
    }

    package init(r: UnsafeMutablePointer<Float>, g: UnsafeMutablePointer<Float>, b: UnsafeMutablePointer<Float>,
         a: UnsafeMutablePointer<Float>) {
        self.r = r; self.g = g; self.b = b; self.a = a
    }

    /// The same row from pixel `offset` on.
    @inline(__always) package func advanced(by offset: Int) -> PlanarRow {
        PlanarRow(r: r + offset, g: g + offset, b: b + offset, a: a + offset)
    }

    @inline(__always) public subscript(i: Int) -> Pixel {
        get { Pixel(r[i], g[i], b[i], a[i]) }
        nonmutating set { r[i] = newValue.x; g[i] = newValue.y; b[i] = newValue.z; a[i] = newValue.w }
    }

    package func fill(_ p: Pixel, count: Int) {
        r.update(repeating: p.x, count: count)
        g.update(repeating: p.y, count: count)
        b.update(repeating: p.z, count: count)
        a.update(repeating: p.w, count: count)
    }

    func copy(from source: PlanarRow, count: Int) {
        r.update(from: source.r, count: count)
        g.update(from: source.g, count: count)
        b.update(from: source.b, count: count)
        a.update(from: source.a, count: count)
    }

    /// Interleaved pixels in, planar out: a transpose of eight pixels in AVX registers (C), where this loop
    /// stored each lane on its own.
    @inline(__always) func load(_ pixels: UnsafePointer<Pixel>, count: Int) {
        pixelloops_deinterleave_rgba(UnsafeRawPointer(pixels).assumingMemoryBound(to: Float.self), Int32(count),
                                   r, g, b, a)
    }

    /// Planar in, interleaved pixels out.
    @inline(__always) func store(_ pixels: UnsafeMutablePointer<Pixel>, count: Int) {
        for i in 0..<count { pixels[i] = Pixel(r[i], g[i], b[i], a[i]) }
    }
}

/// One row segment handed to a colour kernel: `count` pixels of row `y` starting at `x0`.
/// `out` arrives holding input 0 (when the kernel has inputs) and the kernel writes its result there,
/// so a chain of colour kernels works in place on a row that stays in cache.
public struct ColorSpan {
    public let out: PlanarRow
    let others: UnsafeMutablePointer<PlanarRow>
    public let x0: Int
    public let y: Int
    public let count: Int

    /// Input `index` (≥ 1) for this span; input 0 is `out`.
    @inline(__always) public func input(_ index: Int) -> PlanarRow {
        index == 0 ? out : others[index - 1]
    }
}

/// A kernel whose output pixel depends only on the same pixel of its inputs (and its own coordinate; pixel i's
/// centre is at x0 + i + 0.5, y + 0.5). Chains of them are fused into one pass. Generators are colour kernels
/// with no inputs.
public struct ColorKernel: Sendable {
    public let name: String
    /// What an opaque pixel's result depends on, where that lets a render over 8-bit pixels use tables
    /// (`ColorTables`); `.general` unless the filter says more.
    let dependence: ColorDependence
    /// With the name, what fixes a kernel of a table shape: every value its body uses (bit for bit), so that
    /// tables made for a chain serve later renders of equal kernels (a video's frames) without being made again.
    let parameters: [Float]
    let body: @Sendable (ColorSpan) -> Void
    /// A generator whose pixels are opaque 8-bit sRGB (a video frame): writes `count` of row `y` from `x0` as
    /// RGBA bytes, alpha 255, which `body` gives decoded. Lets colour tables start from its bytes.
    package typealias RGBA8Rows = @Sendable (_ x0: Int, _ y: Int, _ count: Int, _ out: UnsafeMutablePointer<UInt8>) -> Void
    let rgba8Rows: RGBA8Rows?
    /// A generator that repeats this texture (CIRandomGenerator).
    let texture: PeriodicTexture?

    public init(name: String, _ body: @escaping @Sendable (ColorSpan) -> Void) {
        self.init(name: name, dependence: .general, parameters: [], body)
    }

    init(name: String, dependence: ColorDependence, parameters: [Float],
         _ body: @escaping @Sendable (ColorSpan) -> Void) {
        self.name = name
        self.dependence = dependence
        self.parameters = parameters
        self.rgba8Rows = nil
        self.texture = nil
        self.body = body
    }

    /// The generator that repeats `texture` everywhere.
    init(name: String, repeating texture: PeriodicTexture) {
        self.name = name
        self.dependence = .general
        self.parameters = []
        self.rgba8Rows = nil
        self.texture = texture
        self.body = { span in texture.copy(into: span) }
    }

    /// A generator of opaque 8-bit pixels: `rows` writes them as bytes, `body` as working-space values.
    package init(name: String, rgba8Rows rows: @escaping RGBA8Rows, _ body: @escaping @Sendable (ColorSpan) -> Void) {
        self.name = name
        self.dependence = .general
        self.parameters = []
        self.rgba8Rows = rows
        self.texture = nil
        self.body = body
    }

    /// Applies the kernel; the output covers `extent` (by default the union of the inputs' extents). A kernel that
    /// never reads its place (any dependence but `.general`) over a repeating texture is that texture run through
    /// the kernel once (film grain: CIRandomGenerator through a colour matrix): the same pixels, made once.
    public func apply(extent: Rect? = nil, inputs: [Image]) -> Image {
        let domain = extent ?? inputs.map(\.extent).reduce(Rect.zero) { $0.union($1) }
        if dependence != .general, dependence != .gain, inputs.count == 1, domain == inputs[0].extent,
           case .color(let generator, let sources) = inputs[0].kind, sources.isEmpty, let texture = generator.texture {
            let baked = PeriodicTexture.made.texture(texture, through: self)
            return Image(extent: domain, kind: .color(ColorKernel(name: generator.name + "·" + name, repeating: baked), []))
        }
        return Image(extent: domain, kind: .color(self, inputs))
    }
}

/// What a one-input colour kernel's result for an opaque pixel depends on (never its place: a kernel of any
/// dependence but `.general` and `.gain` must not read `x0` or `y`, for any pixel).
enum ColorDependence: Sendable, Equatable {
    /// Anything: the whole colour, or the pixel's coordinate.
    case general
    /// Each colour channel on the same channel alone, alpha staying 1 (exposure, gamma, a diagonal matrix).
    case perChannel
    /// The colour on the luminance Σ weights · linear colour alone (CISepiaTone at intensity 1).
    case luminance(SIMD3<Float>)
    /// On opaque pixels, an affine map of the linear colour (a colour matrix, CIColorControls); the output's
    /// alpha must then be 1 for the tables to take it.
    case affine
    /// Each channel of the output (alpha too) is the same channel of any one input times a factor that does not
    /// depend on that input: its place and the other inputs may set it (CIVignette, CIMultiplyCompositing). So
    /// the kernel run with that input white gives the factors, and a colour chain under it can be rendered from
    /// its bytes and scaled by them (`ColorTables.gain`).
    case gain
}

/// A kernel that says, for each output pixel, where to sample its input (pinch, twirl, affine).
/// `map` fills `count` source coordinates for the pixel centres of a row segment.
public struct WarpKernel: Sendable {
    public enum Sampling: Sendable { case linear, nearest }
    public let name: String
    public let sampling: Sampling
    let map: @Sendable (_ coordinates: UnsafeMutablePointer<SIMD2<Float>>, _ x0: Int, _ y: Int, _ count: Int) -> Void

    public init(name: String, sampling: Sampling = .linear,
                _ map: @escaping @Sendable (UnsafeMutablePointer<SIMD2<Float>>, Int, Int, Int) -> Void) {
        self.name = name
        self.sampling = sampling
        self.map = map
    }

    /// `roi`: the input rectangle a given output rectangle needs (by default the whole input).
    public func apply(extent: Rect, input: Image, roi: (@Sendable (Rect) -> Rect)? = nil) -> Image {
        let inputExtent = input.extent
        return Image(extent: extent, kind: .warp(self, input, roi ?? { _ in inputExtent }))
    }
}

/// What a general kernel sees: its inputs materialised over the regions it asked for, and the region to fill.
/// The kernel must write every pixel of `rect` (the output buffer starts uninitialised).
public struct RegionContext {
    public let output: PixelBuffer
    /// The part of `output.rect` this call must fill (the renderer splits big regions between threads).
    public let rect: PixelRect
    public let inputs: [PixelBuffer]
    /// The render's worker threads, for a kernel that is not `parallel` and splits its own work.
    public let threads: Int

    public init(output: PixelBuffer, rect: PixelRect, inputs: [PixelBuffer], threads: Int = 1) {
        self.output = output; self.rect = rect; self.inputs = inputs; self.threads = max(1, threads)
    }
}

/// A kernel that reads neighbourhoods (blur, convolution, morphology, reductions). It declares the region of
/// interest: for an output rectangle, which rectangle of input `index` it needs.
public struct GeneralKernel: Sendable {
    public let name: String
    /// Whether `body` may be called on separate bands of the output from several threads.
    public let parallel: Bool
    let roi: @Sendable (_ index: Int, _ rect: PixelRect) -> PixelRect
    let body: @Sendable (RegionContext) -> Void
    /// Writes `rect` (inside the extent) straight as 8-bit sRGB RGBA with straight alpha, row `y` at `line(y)`
    /// (pixel `rect.x` first): the bytes `body` then the encoding give, for a render to 8 bits without a float
    /// intermediate. Only for kernels without inputs.
    typealias RGBA8Writer = @Sendable (_ rect: PixelRect, _ line: (Int) -> UnsafeMutablePointer<UInt8>) -> Void
    let rgba8: RGBA8Writer?

    public init(name: String, parallel: Bool = true,
                roi: @escaping @Sendable (Int, PixelRect) -> PixelRect,
                _ body: @escaping @Sendable (RegionContext) -> Void) {
        self.init(name: name, parallel: parallel, roi: roi, rgba8: nil, body)
    }

    init(name: String, parallel: Bool = true, roi: @escaping @Sendable (Int, PixelRect) -> PixelRect,
         rgba8: RGBA8Writer?, _ body: @escaping @Sendable (RegionContext) -> Void) {
        self.name = name
        self.parallel = parallel
        self.roi = roi
        self.rgba8 = rgba8
        self.body = body
    }

    public func apply(extent: Rect, inputs: [Image]) -> Image {
        Image(extent: extent, kind: .general(self, inputs))
    }
}
