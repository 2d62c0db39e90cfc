import Foundation
internal import FilterEngine

/// An input of a processor kernel: the pixels of `region` in memory, rows top to bottom.
public protocol CIImageProcessorInput {
    var region: CGRect { get }
    var bytesPerRow: Int { get }
    var format: CIFormat { get }
    var baseAddress: UnsafeRawPointer { get }
    /// A hash of the input's recipe (stable for the same image).
    var digest: UInt64 { get }
    var roiTileIndex: Int { get }
    var roiTileCount: Int { get }
}

/// The output of a processor kernel: the memory `process` fills for `region`, rows top to bottom.
public protocol CIImageProcessorOutput {
    var region: CGRect { get }
    var bytesPerRow: Int { get }
    var format: CIFormat { get }
    var baseAddress: UnsafeMutableRawPointer { get }
    var digest: UInt64 { get }
}

/// Custom processing on the CPU inside a Core Image graph, as with vImage or hand-written loops: subclass it,
/// override `process(with:arguments:output:)` (and `roi(forInput:arguments:outputRect:)` when the output
/// reads around itself), and make images with `apply(withExtent:inputs:arguments:)`.
///
/// Inputs and output hold working-space values (linear, premultiplied) in the formats the class asks for
/// (`formatForInput(at:)`, `outputFormat`; RGBAf unless overridden); integer formats hold them scaled to their
/// range, as Core Image does when a processor asks for 8 bits.
open class CIImageProcessorKernel: NSObject {
    open class func process(with inputs: [any CIImageProcessorInput]?, arguments: [String: Any]?,
                            output: any CIImageProcessorOutput) throws {}

    open class func roi(forInput input: Int32, arguments: [String: Any]?, outputRect: CGRect) -> CGRect { outputRect }

    /// The format of the output memory (RGBAf here when zero, the working format).
    open class var outputFormat: CIFormat { CIFormat(rawValue: 0) }
    open class func formatForInput(at input: Int32) -> CIFormat { CIFormat(rawValue: 0) }
    open class var outputIsOpaque: Bool { false }
    open class var synchronizeInputs: Bool { true }

    /// An image whose pixels `process` computes, band by band, when a context renders it. Throws for an
    /// infinite or non-finite extent, or a format that cannot be held in memory here.
    open class func apply(withExtent extent: CGRect, inputs: [CIImage]?, arguments: [String: Any]?) throws -> CIImage {
        let rect = extent.engineRect
        guard !rect.isInfinite, [rect.x, rect.y, rect.width, rect.height].allSatisfy({ $0.isFinite && abs($0) < 1e9 }) else {
            throw CIContextError("\(Self.self).apply: the extent \(extent) must be finite")
        }
        let inputs = inputs ?? []
        let outputFormat = Self.memoryFormat(outputFormat)
        let inputFormats = inputs.indices.map { Self.memoryFormat(formatForInput(at: Int32($0))) }
        for format in inputFormats + [outputFormat] where format.layout == nil {
            throw CIContextError("\(Self.self).apply: format \(format.rawValue) cannot be held in memory here")
        }
        let box = ProcessorBox(kernel: self, arguments: arguments, outputFormat: outputFormat, inputFormats: inputFormats,
                               digests: inputs.map { UInt64(UInt(bitPattern: ObjectIdentifier($0.engine).hashValue)) })
        let kernel = GeneralKernel(name: "\(Self.self)", roi: { index, output in
            PixelRect(covering: box.roi(index, CGRect(output.rect)).engineRect)
        }) { region in box.run(region) }
        return CIImage(engine: kernel.apply(extent: rect, inputs: inputs.map(\.engine)))
    }

    static func memoryFormat(_ format: CIFormat) -> CIFormat { format.rawValue == 0 ? .RGBAf : format }
}

/// What a render needs of the processor: its class, arguments and formats (the class is called from the
/// renderer's threads, as Core Image calls it from its own).
private final class ProcessorBox: @unchecked Sendable {
    let kernel: CIImageProcessorKernel.Type
    let arguments: [String: Any]?
    let outputFormat: CIFormat
    let inputFormats: [CIFormat]
    let digests: [UInt64]

    init(kernel: CIImageProcessorKernel.Type, arguments: [String: Any]?, outputFormat: CIFormat, inputFormats: [CIFormat],
         digests: [UInt64]) {
        self.kernel = kernel; self.arguments = arguments; self.outputFormat = outputFormat
        self.inputFormats = inputFormats; self.digests = digests
    }

    func roi(_ index: Int, _ output: CGRect) -> CGRect {
        let asked = kernel.roi(forInput: Int32(index), arguments: arguments, outputRect: output)
        return asked.isNull || !asked.origin.x.isFinite ? .zero : asked
    }

    func run(_ region: RegionContext) {
        let inputs = region.inputs.enumerated().map { index, buffer in
            let asked = PixelRect(covering: roi(index, CGRect(region.rect.rect)).engineRect)
            return ProcessorInputMemory(buffer, asked, inputFormats[index], digest: digests[index])
        }
        let output = ProcessorOutputMemory(region.rect, outputFormat)
        do {
            try kernel.process(with: inputs, arguments: arguments, output: output)
        } catch {
            LibraryWarnings.report("\(kernel).process: \(error); its output is transparent")
        }
        // A failed process leaves its memory as it was made: transparent.
        output.copy(into: region.output)
    }
}

/// Memory for one region in a format, rows top to bottom.
private class RegionMemory {
    let area: PixelRect
    let format: CIFormat
    let bytesPerRow: Int
    let memory: UnsafeMutableRawPointer
    let digest: UInt64
    var region: CGRect { CGRect(area.rect) }

    init(_ rect: PixelRect, _ format: CIFormat, digest: UInt64) {
        area = rect
        self.format = format
        bytesPerRow = max(1, rect.width * format.bytesPerPixel)
        let bytes = bytesPerRow * max(1, rect.height)
        memory = .allocate(byteCount: bytes, alignment: 16)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: bytes)
        self.digest = digest
    }

    deinit { memory.deallocate() }
}

/// An input's pixels, copied from the engine's buffer (transparent where the buffer has none).
private final class ProcessorInputMemory: RegionMemory, CIImageProcessorInput {
    var baseAddress: UnsafeRawPointer { UnsafeRawPointer(memory) }
    var roiTileIndex: Int { 0 }
    var roiTileCount: Int { 1 }

    init(_ buffer: PixelBuffer, _ rect: PixelRect, _ format: CIFormat, digest: UInt64) {
        super.init(rect, format, digest: digest)
        for row in 0..<rect.height {
            let y = rect.maxY - 1 - row, line = memory + row * bytesPerRow
            for x in 0..<rect.width { format.store(buffer.pixel(x: rect.x + x, y: y), line, x) }
        }
    }
}

/// The output memory `process` fills, then copied into the engine's buffer.
private final class ProcessorOutputMemory: RegionMemory, CIImageProcessorOutput {
    var baseAddress: UnsafeMutableRawPointer { memory }

    init(_ rect: PixelRect, _ format: CIFormat) { super.init(rect, format, digest: 0) }

    func copy(into buffer: PixelBuffer) {
        for y in area.y..<area.maxY {
            let line = memory + (area.maxY - 1 - y) * bytesPerRow, target = buffer.row(y) + (area.x - buffer.rect.x)
            for x in 0..<area.width { target[x] = format.load(line, x) }
        }
    }
}
