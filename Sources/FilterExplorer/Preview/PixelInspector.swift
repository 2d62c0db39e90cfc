import FilterEngine
import Foundation

/// One pixel of an image, as the engine holds it and as an 8-bit file gets it.
public struct PixelReading: Equatable, Sendable {
    /// The pixel's bottom-left corner in the image's coordinates (Core Image's: origin bottom left, y up).
    public let x: Int, y: Int
    /// Linear working-space RGBA, premultiplied, as the engine holds it.
    public let linear: [Float]
    /// RGBA as an 8-bit PNG export writes it: un-premultiplied, sRGB-encoded (the file encoder's own bytes).
    public let srgb8: [UInt8]

    /// Every whole pixel of `rect`, bottom row first, left to right. Rendered twice: as floats, and through the
    /// encoder an 8-bit export uses, so the bytes are the file's and not a second formula.
    public static func read(_ image: Image, rect: Rect, context: RenderContext) throws -> [PixelReading] {
        let area = rect.integral
        let floats = try context.render(image, rect: area)
        let (bytes, width, height) = try context.renderRGBA8(image, rect: area)
        var readings: [PixelReading] = []
        for row in 0..<height {
            for column in 0..<width {
                let x = Int(area.minX) + column, y = Int(area.minY) + row
                let p = floats.pixel(x: x, y: y)
                // The byte buffer's first row is the top one.
                let offset = ((height - 1 - row) * width + column) * 4
                readings.append(PixelReading(x: x, y: y, linear: [p.x, p.y, p.z, p.w],
                                             srgb8: Array(bytes[offset..<offset + 4])))
            }
        }
        return readings
    }

    public var linearText: String { linear.map { String(format: "%.4f", $0) }.joined(separator: " ") }
    public var srgbText: String { srgb8.map(String.init).joined(separator: " ") }
    public var position: String { "(\(x),\(y))" }
    /// "(x,y) linear RGBA … · sRGB 8-bit …", the form the details pane lists a reduction's pixels in.
    public var description: String { "\(position) linear RGBA \(linearText) · sRGB 8-bit \(srgbText)" }
}

/// The pixel inspector (`p`): a cursor on one pixel of the output, in the output's full-size coordinates,
/// whatever the zoom, pan or proxy of the preview; and what was last read there.
struct PixelInspector {
    var x: Int
    var y: Int
    var reading: PixelReading?
    var error: String?

    /// `(x, y)` moved by whole pixels and kept inside `rect` (the output's framed rectangle).
    static func clamped(x: Int, y: Int, to rect: Rect) -> (x: Int, y: Int) {
        let r = rect.integral
        guard !r.isEmpty, !r.isInfinite else { return (x, y) }
        return (min(max(x, Int(r.minX)), Int(r.maxX) - 1), min(max(y, Int(r.minY)), Int(r.maxY) - 1))
    }
}

/// Reads the inspector's pixel off the interface thread (even one pixel of a reduction or a large blur takes a
/// while). Only the newest request counts: an older one not started yet is skipped, a late answer dropped.
final class PixelProbe: @unchecked Sendable {
    struct Result: Sendable {
        let generation: Int
        let reading: PixelReading?
        let error: String?
    }

    private let lock = NSLock()
    private let queue = DispatchQueue(label: "pixel-probe")
    // Guarded by `lock`.
    private var newest = 0
    private var finished: Result?

    /// Queues a read of the pixel at (`x`, `y`) of `image`; returns its generation.
    @discardableResult
    func submit(_ image: Image, x: Int, y: Int, context: RenderContext) -> Int {
        lock.lock()
        newest += 1
        let generation = newest
        lock.unlock()
        queue.async { [self] in
            guard isNewest(generation) else { return }
            let result: Result
            do {
                let reading = try PixelReading.read(image, rect: Rect(x: Double(x), y: Double(y), width: 1, height: 1),
                                                    context: context).first
                result = Result(generation: generation, reading: reading, error: nil)
            } catch {
                result = Result(generation: generation, reading: nil, error: "\(error)")
            }
            lock.lock()
            if generation == newest { finished = result }
            lock.unlock()
        }
        return generation
    }

    /// The newest finished reading not taken yet.
    func take() -> Result? {
        lock.lock()
        defer { lock.unlock() }
        let result = finished
        finished = nil
        return result
    }

    private func isNewest(_ generation: Int) -> Bool {
        lock.lock()
        defer { lock.unlock() }
        return generation == newest
    }
}
