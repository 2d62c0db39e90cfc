import Foundation
internal import FilterEngine
internal import KernelLanguage

/// For an output rectangle and the index of an input image, the rectangle of that input a kernel reads.
public typealias CIKernelROICallback = (Int32, CGRect) -> CGRect

/// A custom kernel written in the Core Image Kernel Language (CIKL), compiled once by the engine into
/// programs that run on whole rows of pixels. General kernels read `sampler` inputs anywhere; the subclasses
/// are the colour kernels (`__sample` inputs read at the output pixel) and the warp kernels (a `vec2` result:
/// where to sample the input). Metal kernels cannot run here: their initialisers report that and fail.
open class CIKernel: NSObject, @unchecked Sendable {
    let compiled: CompiledKernel

    init(compiled: CompiledKernel) {
        self.compiled = compiled
    }

    /// The first kernel of the source that this class can stand for, or nil (with the compiler's message,
    /// line and column, on standard error) when the source does not compile or has none of this kind.
    public convenience init?(source: String) {
        guard let kernel = Self.compile(source)?.first(where: { Self.accepts($0.kind) }) else {
            LibraryWarnings.report("\(Self.self)(source:): the source has no \(Self.kindName) kernel")
            return nil
        }
        self.init(compiled: kernel)
    }

    @available(*, deprecated, renamed: "init(source:)")
    public convenience init?(string: String) { self.init(source: string) }

    /// Every kernel routine of a source (the same order), each as the class of its kind, or nil when it does
    /// not compile.
    open class func makeKernels(source: String) -> [CIKernel]? {
        Self.compile(source)?.map { kernel -> CIKernel in
            switch kernel.kind {
            case .color: CIColorKernel(compiled: kernel)
            case .warp: CIWarpKernel(compiled: kernel)
            case .general: CIKernel(compiled: kernel)
            }
        }
    }

    @available(*, deprecated, renamed: "makeKernels(source:)")
    open class func kernels(with string: String) -> [CIKernel]? { makeKernels(source: string) }

    /// Metal kernels need Apple's GPU compiler: always an error here.
    public convenience init(functionName name: String, fromMetalLibraryData data: Data) throws {
        throw Self.metalError(name)
    }

    public convenience init(functionName name: String, fromMetalLibraryData data: Data,
                            outputPixelFormat format: CIFormat) throws {
        throw Self.metalError(name)
    }

    open class func kernels(withMetalString source: String) throws -> [CIKernel] {
        throw metalError("source")
    }

    /// The kernel routine's name in its source.
    open var name: String { compiled.name }

    /// Applies a general kernel: `arguments` in the order of the routine's parameters (CIImage or CISampler for samplers;
    /// numbers, CIVector, CIColor, CGPoint, CGRect … for the rest); `callback` says which part of each input
    /// image a rectangle of the output reads. Nil, with the reason on standard error, when an argument does
    /// not fit its parameter.
    open func apply(extent: CGRect, roiCallback callback: @escaping CIKernelROICallback, arguments args: [Any]) -> CIImage? {
        make(extent: extent, image: nil, arguments: args, roi: callback)
    }

    func make(extent: CGRect, image: CIImage?, arguments args: [Any], roi: CIKernelROICallback?) -> CIImage? {
        let engineArguments: [KernelArgument]
        do { engineArguments = try zip(compiled.parameters, args).map(Self.argument) } catch {
            LibraryWarnings.report("\(name): \(error)")
            return nil
        }
        // A wrong count reaches the engine, whose message names every parameter.
        let padding = [KernelArgument](repeating: .float(0), count: max(0, args.count - compiled.parameters.count))
        var engineROI: (@Sendable (Int, EngineRect) -> EngineRect)?
        if let roi {
            let box = ROICallbackBox(roi)
            engineROI = { index, rect in box.callback(Int32(index), CGRect(rect)).engineRect }
        }
        do {
            let made = try compiled.apply(extent: extent.engineRect, image: image?.engine,
                                          arguments: engineArguments + padding, roi: engineROI)
            return CIImage(engine: made)
        } catch {
            LibraryWarnings.report("\(name): \(error)")
            return nil
        }
    }

    /// One argument as the engine's kernel takes it, by the parameter's declared type.
    static func argument(_ pair: (KernelParameter, Any)) throws -> KernelArgument {
        let (parameter, value) = pair
        if parameter.isImage {
            if let sampler = value as? CISampler { return .image(sampler.image.engine) }
            guard let image = value as? CIImage else {
                throw CIKernelError("\(parameter.name) needs a CIImage or a CISampler, not \(type(of: value))")
            }
            return .image(image.engine)
        }
        if let color = value as? CIColor { return .color(EngineColor(color.sRGBComponents)) }
        if let flag = value as? Bool, parameter.type == "bool" { return .bool(flag) }
        if let number = FilterValues.number(value) { return .float(number) }
        if let numbers = FilterValues.numbers(value) { return .vector(numbers) }
        throw CIKernelError("\(parameter.name) (\(parameter.type)) cannot take a \(type(of: value))")
    }

    static func compile(_ source: String) -> [CompiledKernel]? {
        do { return try KernelProgram(source: source).kernels } catch {
            LibraryWarnings.report("kernel source: \(error)")
            return nil
        }
    }

    class func accepts(_ kind: CompiledKernel.Kind) -> Bool { true }
    class var kindName: String { "" }

    static func metalError(_ name: String) -> CIKernelError {
        CIKernelError("the Metal kernel \(name) cannot run here: Metal needs Apple's GPU compiler; write the kernel in the Core Image Kernel Language")
    }
}

/// A kernel whose output pixel depends only on the same pixel of its `__sample` inputs.
open class CIColorKernel: CIKernel, @unchecked Sendable {
    /// Applies the kernel: every output pixel of `extent` from the same pixel of the image arguments.
    open func apply(extent: CGRect, arguments args: [Any]) -> CIImage? {
        make(extent: extent, image: nil, arguments: args, roi: nil)
    }

    /// A routine with `sampler` parameters is a colour kernel too, as Apple's compiler takes it: applied
    /// without a region of interest, it runs per pixel when it samples only its own pixel
    /// (`sample(s, samplerCoord(s))`), else the engine works out what it reads.
    override class func accepts(_ kind: CompiledKernel.Kind) -> Bool { kind == .color || kind == .general }
    override class var kindName: String { "colour" }
}

/// A colour kernel of two images, the foreground over the background (its two `__sample` parameters, in that
/// order); the output covers both.
open class CIBlendKernel: CIColorKernel, @unchecked Sendable {
    open func apply(foreground: CIImage, background: CIImage) -> CIImage? {
        apply(extent: foreground.extent.union(background.extent), arguments: [foreground, background])
    }

    override class var kindName: String { "blend (colour)" }
}

/// A kernel that maps each output pixel to the point of its input to sample (a `vec2` result).
open class CIWarpKernel: CIKernel, @unchecked Sendable {
    /// Applies the kernel to `image`; `callback` gives the part of the image an output rectangle reads.
    open func apply(extent: CGRect, roiCallback callback: @escaping CIKernelROICallback, image: CIImage,
                    arguments args: [Any]) -> CIImage? {
        make(extent: extent, image: image, arguments: args, roi: callback)
    }

    override class func accepts(_ kind: CompiledKernel.Kind) -> Bool { kind == .warp }
    override class var kindName: String { "warp" }
}

/// Why a kernel could not be made or applied.
public struct CIKernelError: Error, CustomStringConvertible {
    public let description: String
    init(_ description: String) { self.description = description }
}

/// The caller's ROI closure, called from the renderer's threads (Core Image calls it from its own too).
private final class ROICallbackBox: @unchecked Sendable {
    let callback: CIKernelROICallback
    init(_ callback: @escaping CIKernelROICallback) { self.callback = callback }
}
