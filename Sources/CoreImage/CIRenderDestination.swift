import Foundation

/// How a render destination stores alpha.
public enum CIRenderDestinationAlphaMode: UInt, Sendable {
    case none = 0, premultiplied = 1, unpremultiplied = 2
}

/// Memory a context renders into, with how to write it: Core Image's destinations without a GPU (a bitmap of
/// any `CIFormat` that `render(_:toBitmap:…)` writes). Rows run top to bottom in memory unless `isFlipped`.
open class CIRenderDestination: NSObject, @unchecked Sendable {
    let data: UnsafeMutableRawPointer
    let bytesPerRow: Int
    let format: CIFormat
    public let width: Int
    public let height: Int
    open var alphaMode: CIRenderDestinationAlphaMode = .premultiplied
    /// True: the first row in memory is the bottom one.
    open var isFlipped = false
    /// Accepted; the 8-bit writers round to nearest without dither.
    open var isDithered = false
    /// Accepted; integer formats always clamp to 0…1.
    open var isClamped = true
    open var colorSpace: CGColorSpace? = CGColorSpace(name: CGColorSpace.sRGB)
    /// A kernel that combines the render (foreground) with the destination's current pixels (background).
    open var blendKernel: CIBlendKernel?
    /// Accepted; blending happens in the working space.
    open var blendsInDestinationColorSpace = false

    public init(bitmapData data: UnsafeMutableRawPointer, width: Int, height: Int, bytesPerRow: Int, format: CIFormat) {
        self.data = data
        self.width = max(0, width)
        self.height = max(0, height)
        self.bytesPerRow = bytesPerRow
        self.format = format
    }

    var bounds: CGRect { CGRect(x: 0, y: 0, width: width, height: height) }

    /// The destination's pixels as an image in its own coordinates (what a blend kernel blends over).
    func currentContents() -> CIImage {
        let bytes = Data(bytes: data, count: bytesPerRow * height)
        let image = CIImage(bitmapData: bytes, bytesPerRow: bytesPerRow, size: CGSize(width: width, height: height),
                            format: format, colorSpace: colorSpace)
        return isFlipped ? image.transformed(by: Self.flip(height)) : image
    }

    static func flip(_ height: Int) -> CGAffineTransform {
        CGAffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: CGFloat(height))
    }
}

/// A render started by `CIContext.startTask`. Renders here run on the CPU before `startTask` returns, so the
/// task is already complete.
open class CIRenderTask: NSObject, @unchecked Sendable {
    let info: CIRenderInfo
    init(info: CIRenderInfo) { self.info = info }

    open func waitUntilCompleted() throws -> CIRenderInfo { info }
}

/// What a finished render cost.
open class CIRenderInfo: NSObject, @unchecked Sendable {
    /// Seconds spent rendering.
    public let kernelExecutionTime: TimeInterval
    /// Kernels here are compiled when they are made, never while rendering.
    public let kernelCompileTime: TimeInterval = 0
    /// One pass: the engine renders the whole graph at once.
    public let passCount: Int
    public let pixelsProcessed: Int

    init(time: TimeInterval, passCount: Int, pixels: Int) {
        kernelExecutionTime = time
        self.passCount = passCount
        pixelsProcessed = pixels
    }
}

extension CIContext {
    /// Renders `fromRect` of `image` into `destination` with its corner at `atPoint` (destination coordinates,
    /// origin bottom-left); the rest of the destination is left as it is.
    public func startTask(toRender image: CIImage, from fromRect: CGRect, to destination: CIRenderDestination,
                        at atPoint: CGPoint) throws -> CIRenderTask {
        let shift = CGAffineTransform(translationX: atPoint.x - fromRect.minX, y: atPoint.y - fromRect.minY)
        let target = CGRect(origin: atPoint, size: fromRect.size).intersection(destination.bounds)
        return try render(image.cropped(to: fromRect).transformed(by: shift), in: target, to: destination)
    }

    /// Renders `image` into the whole of `destination`, the image's coordinates being the destination's.
    public func startTask(toRender image: CIImage, to destination: CIRenderDestination) throws -> CIRenderTask {
        try render(image, in: destination.bounds, to: destination)
    }

    /// Sets every pixel of `destination` to transparent black (alpha 1 for `.none`).
    public func startTask(toClear destination: CIRenderDestination) throws -> CIRenderTask {
        try render(.clear, in: destination.bounds, to: destination, blends: false)
    }

    /// Checks that the render can be made (nothing is prepared ahead here).
    public func prepareRender(_ image: CIImage, from fromRect: CGRect, to destination: CIRenderDestination,
                            at atPoint: CGPoint) throws {
        guard destination.format.layout != nil else {
            throw CIContextError("format \(destination.format.rawValue) is not supported")
        }
    }

    private func render(_ image: CIImage, in target: CGRect, to destination: CIRenderDestination,
                        blends: Bool = true) throws -> CIRenderTask {
        let start = Date()
        guard !target.isNull, !target.isEmpty else { return CIRenderTask(info: CIRenderInfo(time: 0, passCount: 0, pixels: 0)) }
        var image = image
        if blends, let kernel = destination.blendKernel {
            image = kernel.apply(foreground: image, background: destination.currentContents()) ?? image
        }
        if destination.alphaMode == .none { image = image.settingAlphaOne(in: .infinite) }
        if destination.isFlipped { image = image.transformed(by: CIRenderDestination.flip(destination.height)) }
        let area = try Self.pixelArea(target)
        // The target's top row is `height - maxY` rows down from the destination's first row.
        let rowsDown = destination.isFlipped ? area.y : destination.height - area.maxY
        let start0 = destination.data + rowsDown * destination.bytesPerRow + area.x * destination.format.bytesPerPixel
        let bounds = destination.isFlipped
            ? CGRect(x: area.x, y: destination.height - area.maxY, width: area.width, height: area.height)
            : CGRect(area.rect)
        try renderChecked(image, toBitmap: start0, rowBytes: destination.bytesPerRow, bounds: bounds,
                          format: destination.format, colorSpace: destination.colorSpace,
                          premultiplied: destination.alphaMode != .unpremultiplied)
        return CIRenderTask(info: CIRenderInfo(time: Date().timeIntervalSince(start), passCount: 1, pixels: area.area))
    }
}
