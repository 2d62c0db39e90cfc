import Foundation

/// One row segment handed to a colour kernel: `count` pixels of row `y` starting at `x0`.
/// `out` arrives holding input 0 (when the kernel has inputs) and the kernel writes its result there,
/// so a chain of colour kernels works in place on a row that stays in cache.
public struct ColorSpan {
    public let out: UnsafeMutablePointer<Pixel>
    let others: UnsafeMutablePointer<UnsafeMutablePointer<Pixel>>
    public let x0: Int
    public let y: Int
    public let count: Int

    /// Input `index` (≥ 1) for this span; input 0 is `out`.
    @inline(__always) public func input(_ index: Int) -> UnsafeMutablePointer<Pixel> {
        index == 0 ? out : others[index - 1]
    }

    /// The centre of pixel `i` in image space, as Core Image's destination coordinate.
    @inline(__always) public func coordinate(_ i: Int) -> SIMD2<Float> {
        SIMD2(Float(x0 + i) + 0.5, Float(y) + 0.5)
    }
}

/// A kernel whose output pixel depends only on the same pixel of its inputs (and its own coordinate).
/// Chains of them are fused into one pass. Generators are colour kernels with no inputs.
public struct ColorKernel: Sendable {
    public let name: String
    let body: @Sendable (ColorSpan) -> Void

    public init(name: String, _ body: @escaping @Sendable (ColorSpan) -> Void) {
        self.name = name
        self.body = body
    }

    /// Applies the kernel; the output covers `extent` (by default the union of the inputs' extents).
    public func apply(extent: Rect? = nil, inputs: [Image]) -> Image {
        let domain = extent ?? inputs.map(\.extent).reduce(Rect.zero) { $0.union($1) }
        return Image(extent: domain, kind: .color(self, inputs))
    }

    /// A colour kernel that maps each unpremultiplied pixel through `transform` (the common case).
    public static func perPixel(_ name: String, _ transform: @escaping @Sendable (Pixel) -> Pixel) -> ColorKernel {
        ColorKernel(name: name) { span in
            let out = span.out
            for i in 0..<span.count {
                out[i] = transform(out[i])
            }
        }
    }
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
public struct RegionContext {
    public let output: PixelBuffer
    /// The part of `output.rect` this call must fill (the renderer splits big regions between threads).
    public let rect: PixelRect
    public let inputs: [PixelBuffer]
}

/// A kernel that reads neighbourhoods (blur, convolution, morphology, reductions). It declares the region of
/// interest: for an output rectangle, which rectangle of input `index` it needs.
public struct GeneralKernel: Sendable {
    public let name: String
    /// Whether `body` may be called on separate bands of the output from several threads.
    public let parallel: Bool
    let roi: @Sendable (_ index: Int, _ rect: PixelRect) -> PixelRect
    let body: @Sendable (RegionContext) -> Void

    public init(name: String, parallel: Bool = true,
                roi: @escaping @Sendable (Int, PixelRect) -> PixelRect,
                _ body: @escaping @Sendable (RegionContext) -> Void) {
        self.name = name
        self.parallel = parallel
        self.roi = roi
        self.body = body
    }

    public func apply(extent: Rect, inputs: [Image]) -> Image {
        Image(extent: extent, kind: .general(self, inputs))
    }
}
