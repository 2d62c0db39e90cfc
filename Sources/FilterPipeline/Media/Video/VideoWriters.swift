import CGif
import FilterEngine
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// An animated, looping GIF through giflib, written to a temporary file beside the output as each frame is
/// encoded (memory does not grow with the frame count) and given the output's name at the end.
///
/// Palette: one global 6×7×6 colour cube (252 colours; green gets the extra level, the eye being most sensitive to
/// it) with 8×8 ordered (Bayer) dithering, and index 252 for transparent pixels. A fixed palette and ordered
/// dithering keep still areas identical from frame to frame; per-frame median-cut palettes with error diffusion
/// look better on a single still but shimmer in an animation.
public final class GIFWriter: FrameSink {
    static let transparentIndex: UInt8 = 252

    public let path: String
    public let width: Int, height: Int
    let delay: Int
    private var file: UnsafeMutablePointer<GifFileType>?
    /// Renders the frames: the caller's, so that its budget (--max-pixels) holds here too.
    private let context: RenderContext
    private var indices: [UInt8]
    private var temporary: RegularFile.TemporaryFile?
    /// Where `temporary` goes: `path`, or the file its symbolic link names.
    private var destination = ""
    /// Why the last write to the temporary file failed (giflib only learns that it did).
    private var writeFailure: String?

    public init(path: String, width: Int, height: Int, fps: Int, context: RenderContext) throws {
        guard width <= 65535, height <= 65535 else { throw FilterError("a GIF is at most 65535 pixels wide and high") }
        self.path = path
        self.width = width
        self.height = height
        self.context = context
        delay = max(1, Int((100 / Double(fps)).rounded()))
        indices = [UInt8](repeating: 0, count: width * height)
        do {
            (temporary, destination) = try RegularFile.temporaryFile(for: path)
        } catch {
            throw FilterError("\(error)")
        }
        var error: Int32 = 0
        file = EGifOpen(Unmanaged.passUnretained(self).toOpaque(), { file, bytes, count in
            guard let file, let bytes, count > 0 else { return 0 }
            let writer = Unmanaged<GIFWriter>.fromOpaque(file.pointee.UserData).takeUnretainedValue()
            return writer.writeEncoded(bytes, count: Int(count)) ? count : 0
        }, &error)
        guard let file else { throw Self.error(error) }
        EGifSetGifVersion(file, true)
        var colors = [GifColorType](repeating: GifColorType(Red: 0, Green: 0, Blue: 0), count: 256)
        for r in 0..<6 { for g in 0..<7 { for b in 0..<6 {
            colors[r * 42 + g * 6 + b] = GifColorType(Red: UInt8(r * 51), Green: UInt8((g * 255 + 3) / 6), Blue: UInt8(b * 51))
        } } }
        let map = GifMakeMapObject(256, colors)
        defer { GifFreeMapObject(map) }
        try check(EGifPutScreenDesc(file, Int32(width), Int32(height), 8, 0, map))
        // The Netscape application extension: loop forever.
        try check(EGifPutExtensionLeader(file, 0xFF))
        try check(EGifPutExtensionBlock(file, 11, Array("NETSCAPE2.0".utf8)))
        try check(EGifPutExtensionBlock(file, 3, [1, 0, 0] as [UInt8]))
        try check(EGifPutExtensionTrailer(file))
    }

    private func writeEncoded(_ bytes: UnsafePointer<GifByteType>, count: Int) -> Bool {
        guard let descriptor = temporary?.descriptor else { return false }
        var done = 0
        while done < count {
            let n = Glibc.write(descriptor, bytes + done, count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                writeFailure = "\(path): \(String(cString: strerror(errno)))"
                return false
            }
            done += n
        }
        return true
    }

    static func error(_ code: Int32) -> FilterError {
        FilterError("GIF encoder: " + (GifErrorString(code).map { String(cString: $0) } ?? "error \(code)"))
    }

    private func check(_ status: Int32) throws {
        if let writeFailure { throw FilterError(writeFailure) }
        guard status == GIF_OK else { throw Self.error(file?.pointee.Error ?? 0) }
    }

    /// The 8×8 Bayer matrix, as thresholds in (0, 1).
    static let bayer: [Float] = {
        let m: [Int] = [0, 32, 8, 40, 2, 34, 10, 42, 48, 16, 56, 24, 50, 18, 58, 26, 12, 44, 4, 36, 14, 46, 6, 38,
                        60, 28, 52, 20, 62, 30, 54, 22, 3, 35, 11, 43, 1, 33, 9, 41, 51, 19, 59, 27, 49, 17, 57, 25,
                        15, 47, 7, 39, 13, 45, 5, 37, 63, 31, 55, 23, 61, 29, 53, 21]
        return m.map { (Float($0) + 0.5) / 64 }
    }()

    public func add(_ image: Image, rect: Rect, index: Int) throws {
        let (rgba, w, h) = try context.renderRGBA8(image, rect: rect)
        precondition(w == width && h == height)
        var transparent = false
        rgba.withUnsafeBufferPointer { pixels in
            indices.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    for x in 0..<width {
                        let p = (y * width + x) * 4
                        if pixels[p + 3] < 128 {
                            out[y * width + x] = Self.transparentIndex
                            transparent = true
                            continue
                        }
                        let threshold = Self.bayer[(y & 7) * 8 + (x & 7)]
                        func level(_ value: UInt8, _ steps: Float) -> Int {
                            min(Int(Float(value) * (steps / 255) + threshold), Int(steps))
                        }
                        out[y * width + x] = UInt8(level(pixels[p], 5) * 42 + level(pixels[p + 1], 6) * 6 + level(pixels[p + 2], 5))
                    }
                }
            }
        }
        // Graphic control: dispose to background (so transparent areas do not show the previous frame), delay.
        let control: [UInt8] = [(2 << 2) | (transparent ? 1 : 0), UInt8(delay & 0xFF), UInt8(delay >> 8),
                                transparent ? Self.transparentIndex : 0]
        try check(EGifPutExtension(file, 0xF9, 4, control))
        try check(EGifPutImageDesc(file, 0, 0, Int32(width), Int32(height), false, nil))
        try indices.withUnsafeMutableBufferPointer { try check(EGifPutLine(file, $0.baseAddress, Int32($0.count))) }
    }

    public func finish() throws {
        var error: Int32 = 0
        let status = EGifCloseFile(file, &error)
        file = nil
        if let writeFailure { throw FilterError(writeFailure) }
        guard status == GIF_OK else { throw Self.error(error) }
        guard let temporary else { return }
        self.temporary = nil
        guard fsync(temporary.descriptor) == 0 || errno == EINVAL else {
            throw FilterError("\(path): cannot be written: \(String(cString: strerror(errno)))")
        }
        do { try temporary.commit(to: destination) } catch { throw FilterError("\(error)") }
    }

    deinit {
        if let file { var error: Int32 = 0; EGifCloseFile(file, &error) }
        temporary?.discard()
    }
}

/// A YUV4MPEG2 stream in a `Y4MFormat` (`animate --y4m`: BT.601 video range, 4:2:0 with centred chroma or 4:4:4;
/// `stream`: the input's format), encoded by `Y4MEncoder`. To standard output for `-`, else to a temporary file
/// renamed at the end; with no path the frames are encoded and discarded (`stream --bench`).
public final class Y4MWriter: FrameSink, @unchecked Sendable {
    public let path: String?
    public let format: Y4MFormat
    private let descriptor: Int32
    /// The file being written, renamed to `path` by `finish` (nil for standard output, a device or a FIFO).
    private var temporary: RegularFile.TemporaryFile?
    /// A device or FIFO given as the output, written to as it is (never replaced by a file).
    private var ownsDescriptor = false
    /// Renders the frames given to `add`: the caller's, so that its budget (--max-pixels) holds here too.
    private let context: RenderContext
    private var encoder: Y4MEncoder
    private let planes: UnsafeMutablePointer<UInt8>

    public convenience init(path: String, width: Int, height: Int, fps: Int, chroma: Int, context: RenderContext) throws {
        var format = Y4MFormat(width: width, height: height, chroma: chroma == 420 ? .c420jpeg : .c444, matrix: .bt601)
        format.frameRate = "\(fps):1"
        try self.init(path: path, format: format, context: context)
    }

    public init(path: String?, format: Y4MFormat, context: RenderContext) throws {
        self.path = path
        self.format = format
        self.context = context
        if path == nil || path == "-" {
            descriptor = path == nil ? -1 : STDOUT_FILENO
            temporary = nil
        } else if let path, let kind = Self.nonRegularKind(path) {
            // /dev/null, a FIFO, a terminal: written to as they are. A directory is refused.
            guard kind != S_IFDIR else { throw FilterError("\(path): is a directory: write to a file name instead") }
            let fd = open(path, O_WRONLY | O_CLOEXEC | O_NOCTTY)
            guard fd >= 0 else { throw FilterError("\(path): cannot be written (\(String(cString: strerror(errno))))") }
            descriptor = fd
            ownsDescriptor = true
        } else {
            do {
                let file = try RegularFile.TemporaryFile(beside: path!)
                fchmod(file.descriptor, 0o644)
                descriptor = file.descriptor
                temporary = file
            } catch {
                throw FilterError("\(error)")
            }
        }
        encoder = Y4MEncoder(format: format)
        planes = .allocate(capacity: max(1, format.frameBytes))
        try write(Array(format.headerLine.utf8))
    }

    deinit {
        planes.deallocate()
        temporary?.discard()
        if ownsDescriptor { close(descriptor) }
    }

    /// The type of an existing file that is not a regular one (S_IFDIR, S_IFCHR …), nil for a regular file or
    /// none; a symbolic link is followed.
    static func nonRegularKind(_ path: String) -> mode_t? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        let kind = info.st_mode & S_IFMT
        return kind == S_IFREG ? nil : kind
    }

    private func write(_ bytes: UnsafeRawPointer, count: Int) throws {
        guard descriptor >= 0 else { return }
        var done = 0
        while done < count {
            let n = Glibc.write(descriptor, bytes + done, count - done)
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                throw FilterError("\(path == "-" ? "standard output" : path!): \(String(cString: strerror(errno)))")
            }
            done += n
        }
    }

    private func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBytes { try write($0.baseAddress!, count: $0.count) }
    }

    public func add(_ image: Image, rect: Rect, index: Int) throws {
        let (rgba, w, h) = try context.renderRGBA8(image, rect: rect)
        precondition(w == format.width && h == format.height)
        try rgba.withUnsafeBufferPointer { try write(frame: $0.baseAddress!) }
    }

    /// One frame from 8-bit sRGB RGBA, top row first.
    public func write(frame rgba: UnsafePointer<UInt8>) throws {
        encoder.encode(rgba, into: planes)
        try write(Array("FRAME\n".utf8))
        try write(planes, count: format.frameBytes)
    }

    public func finish() throws {
        guard let temporary, let path else { return }
        self.temporary = nil
        do { try temporary.commit(to: path) } catch { throw FilterError("\(error)") }
    }
}

/// Where rendered frames go, one at a time in order: a GIF, a Y4M stream, numbered PNG files.
public protocol FrameSink {
    mutating func add(_ image: Image, rect: Rect, index: Int) throws
    mutating func finish() throws
}

/// frame-0001.png, frame-0002.png … (more digits past 9999 frames), each written atomically.
public struct PNGFrames: FrameSink {
    public let directory: String
    public let frames: Int
    public let context: RenderContext

    public init(directory: String, frames: Int, context: RenderContext) {
        (self.directory, self.frames, self.context) = (directory, frames, context)
    }

    public static func path(directory: String, index: Int, frames: Int) -> String {
        let digits = max(4, String(frames).count)
        let number = String(index + 1)
        return (directory as NSString).appendingPathComponent("frame-" + String(repeating: "0", count: max(0, digits - number.count)) + number + ".png")
    }

    public func add(_ image: Image, rect: Rect, index: Int) throws {
        try ImageFile.write(image, to: Self.path(directory: directory, index: index, frames: frames), rect: rect, context: context)
    }

    public func finish() throws {}
}
