import Foundation
import Testing
@testable import FilterEngine
@testable import FilterPipeline

/// Decoding from memory, metadata (orientation, profile, resolution), limits, odd colour chunks, file types that
/// are not regular files, and atomic writes. Fixtures: `scripts/make-image-fixtures.py` (Pillow).
@Suite struct ImageMetadataTests {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/metadata")
    let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-meta-\(getpid())-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    func fixture(_ name: String) throws -> Data { try Data(contentsOf: Self.fixtures.appendingPathComponent(name)) }

    /// The colour of the upright picture's quadrants (top-left red, top-right green, bottom-left blue,
    /// bottom-right white), sampled at each quadrant's centre in Core Image coordinates (y up).
    func expectUpright(_ image: Image, _ label: String) throws {
        #expect(image.extent == Rect(x: 0, y: 0, width: 48, height: 32), "\(label): \(image.extent)")
        let (bytes, width, _) = try TestImages.context.renderRGBA8(image, rect: image.extent)
        func colour(x: Int, yUp: Int) -> [Int] {
            let row = 31 - yUp  // rendered rows are top to bottom
            return (0..<3).map { Int(bytes[(row * width + x) * 4 + $0]) }
        }
        func near(_ c: [Int], _ e: [Int]) -> Bool { zip(c, e).allSatisfy { abs($0 - $1) <= 24 } }
        #expect(near(colour(x: 12, yUp: 24), [255, 0, 0]), "\(label) top-left \(colour(x: 12, yUp: 24))")
        #expect(near(colour(x: 36, yUp: 24), [0, 255, 0]), "\(label) top-right \(colour(x: 36, yUp: 24))")
        #expect(near(colour(x: 12, yUp: 8), [0, 0, 255]), "\(label) bottom-left \(colour(x: 12, yUp: 8))")
        #expect(near(colour(x: 36, yUp: 8), [255, 255, 255]), "\(label) bottom-right \(colour(x: 36, yUp: 8))")
    }

    @Test(arguments: 1...8) func everyExifOrientationTurnsUpright(orientation: Int) throws {
        let decoded = try ImageFile.decode(try fixture("orientation-\(orientation).jpg"))
        #expect(decoded.properties.orientation == orientation)
        #expect(decoded.properties.dictionary["Orientation"] as? Int == orientation)
        let stored = decoded.image.extent
        #expect(stored.width == (orientation >= 5 ? 32 : 48) && decoded.properties.pixelWidth == Int(stored.width))
        try expectUpright(decoded.image.oriented(forExifOrientation: orientation), "orientation \(orientation)")
        // The same in one step, as CIImage(data:options: [.applyOrientationProperty: true]) needs it.
        let upright = try ImageFile.decode(try fixture("orientation-\(orientation).jpg"), options: .init(applyOrientation: true))
        try expectUpright(upright.image, "orientation \(orientation) applied while decoding")
    }

    @Test func pngExifChunkGivesTheOrientation() throws {
        let decoded = try ImageFile.decode(try fixture("orientation-6.png"))
        #expect(decoded.properties.orientation == 6)
        try expectUpright(decoded.image.oriented(forExifOrientation: 6), "PNG eXIf 6")
    }

    @Test func orientationKeepsTheExtentOrigin() {
        let image = TestImages.pattern(width: 10, height: 4).transformed(by: .translation(x: 5, y: 7))
        #expect(image.oriented(forExifOrientation: 6).extent == Rect(x: 5, y: 7, width: 4, height: 10))
        #expect(image.oriented(forExifOrientation: 3).extent == image.extent)
        #expect(image.oriented(forExifOrientation: 0).extent == image.extent)
    }

    @Test func propertiesNameProfileDepthAndResolution() throws {
        let dpi = try ImageFile.decode(try fixture("dpi-300.jpg")).properties
        #expect(dpi.dpiWidth == 300 && dpi.dpiHeight == 300)
        #expect(dpi.bitDepth == 8 && dpi.colorModel == .rgb && !dpi.hasAlpha && dpi.orientation == 1)
        #expect(dpi.pixelWidth == 48 && dpi.pixelHeight == 32 && dpi.iccProfile == nil)
        let srgb = try ImageFile.decode(try fixture("icc-srgb.jpg")).properties
        #expect(srgb.iccProfile != nil && srgb.profileName == "sRGB built-in" && srgb.warnings.isEmpty)
        #expect(srgb.dictionary["ProfileName"] as? String == "sRGB built-in")
        let lab = try ImageFile.decode(try fixture("icc-lab.jpg")).properties
        #expect(lab.profileName == "Lab identity built-in")
        #expect(lab.warnings.count == 1 && lab.warnings[0].contains("Lab identity built-in") && lab.warnings[0].contains("not applied"))
        let png = try ImageFile.decode(try fixture("icc-wide.png")).properties
        #expect(png.iccProfile != nil && png.profileName == "Wide gamut 13" && png.warnings.count == 1, "\(png.warnings)")
        let invalid = try ImageFile.decode(try fixture("icc-lab.png")).properties
        #expect(invalid.iccProfile == nil && invalid.warnings.count == 1 && invalid.warnings[0].contains("invalid"), "\(invalid.warnings)")
    }

    @Test func encodeAndDecodeInMemory() throws {
        let image = TestImages.pattern(width: 20, height: 10)
        let png = try ImageFile.encode(image, format: .png, context: TestImages.context)
        let back = try ImageFile.decode(png)
        #expect(back.properties.format == .png && back.properties.pixelWidth == 20 && back.properties.hasAlpha)
        // 8-bit PNG keeps every byte of the 8-bit render.
        let rect = image.extent
        #expect(try TestImages.context.renderRGBA8(back.image, rect: rect).bytes == TestImages.context.renderRGBA8(image, rect: rect).bytes)
        let jpeg = try ImageFile.encode(image, format: .jpeg, quality: 90, context: TestImages.context)
        #expect(jpeg.starts(with: [0xFF, 0xD8]))
        #expect(try ImageFile.decode(jpeg).properties.format == .jpeg)
        #expect(throws: ImageFileError.self) { try ImageFile.decode(Data([1, 2, 3])) }
        #expect(throws: ImageFileError.self) { try ImageFile.decode(Data()) }
    }

    @Test func declaredSizeAboveTheLimitIsRefusedNamingItAndTheVariable() throws {
        // A 43-byte PNG header declaring 20000 × 20000 pixels.
        let huge = PNGBytes.make(width: 20000, height: 20000, bitDepth: 8, colorType: 0, rows: [])
        do {
            _ = try ImageFile.decode(huge)
            Issue.record("a 400-megapixel PNG was accepted")
        } catch {
            let message = "\(error)"
            #expect(message.contains("20000×20000") && message.contains("CIFILTERTEST_MAX_PIXELS"), "\(message)")
        }
        // The same limit, lowered, refuses a small file; raised, lets it through.
        let small = try ImageFile.encode(TestImages.pattern(width: 16, height: 16), format: .png, context: TestImages.context)
        #expect(throws: ImageFileError.self) { try ImageFile.decode(small, options: .init(maximumPixels: 255)) }
        #expect(try ImageFile.decode(small, options: .init(maximumPixels: 256)).properties.pixelWidth == 16)
        // A JPEG declaring more than the limit: refused before decoding.
        let jpeg = try fixture("dpi-300.jpg")
        #expect(throws: ImageFileError.self) { try ImageFile.decode(jpeg, options: .init(maximumPixels: 1000)) }
    }

    @Test func truncatedBigPNGIsRefusedBeforeAllocating() throws {
        // Declares 8000 × 8000 grey pixels (64 MB of rows) in a few bytes: no deflate stream is that dense.
        let data = PNGBytes.make(width: 8000, height: 8000, bitDepth: 8, colorType: 0, rows: [[0, 0]])
        #expect(throws: ImageFileError.self) { try ImageFile.decode(data) }
    }

    @Test func sixteenBitPNGColourChunks() throws {
        // A 1×1 16-bit grey PNG of value 0x4040 (0.2510 encoded).
        let row: [UInt8] = [0, 0x40, 0x40]
        let encoded: Float = Float(0x4040) / 65535
        func grey(_ extra: [(String, [UInt8])]) throws -> Float {
            let image = try ImageFile.decode(PNGBytes.make(width: 1, height: 1, bitDepth: 16, colorType: 0, rows: [row], extra: extra)).image
            return try TestImages.pixel(image, x: 0, y: 0).x
        }
        let srgb = ColorMath.linear(fromSRGB: encoded)
        // Untagged: sRGB-encoded, as other readers assume (libpng's simplified API read it as linear light).
        #expect(abs(try grey([]) - srgb) < 1e-4)
        #expect(abs(try grey([("sRGB", [0])]) - srgb) < 1e-4)
        // gAMA 1.0: linear light; gAMA 1/2.2: sRGB; gAMA 1/1.8: that power curve.
        #expect(abs(try grey([("gAMA", PNGBytes.be(100_000))]) - encoded) < 1e-4)
        #expect(abs(try grey([("gAMA", PNGBytes.be(45455))]) - srgb) < 1e-4)
        #expect(abs(try grey([("gAMA", PNGBytes.be(55556))]) - Float(pow(Double(encoded), 1.8))) < 1e-3)
        // 8-bit with gAMA 1.0 is linear too.
        let linear8 = try ImageFile.decode(PNGBytes.make(width: 1, height: 1, bitDepth: 8, colorType: 0, rows: [[0, 64]],
                                                         extra: [("gAMA", PNGBytes.be(100_000))])).image
        #expect(abs(try TestImages.pixel(linear8, x: 0, y: 0).x - 64 / 255) < 1e-4)
    }

    @Test func onlyRegularFilesAreRead() throws {
        let fifo = directory.appendingPathComponent("pipe.png").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let cases = [(directory.path, "is a directory"), (fifo, "is a named pipe (FIFO)"), ("/dev/null", "is a device"),
                     (directory.appendingPathComponent("missing.png").path, "no such file")]
        for (path, reason) in cases {
            let start = Date()
            do {
                _ = try ImageFile.read(path)
                Issue.record("\(path) was read")
            } catch {
                #expect("\(error)" == "\(path): \(reason)" || "\(error)".hasPrefix("\(path): \(reason)"), "\(error)")
            }
            #expect(Date().timeIntervalSince(start) < 1, "\(path) took too long")
        }
    }

    @Test func writesReplaceTheFileAtomicallyAndRefuseNonRegularDestinations() throws {
        let path = directory.appendingPathComponent("out.png").path
        try ImageFile.write(TestImages.pattern(), to: path, context: TestImages.context)
        chmod(path, 0o640)
        try ImageFile.write(TestImages.pattern(width: 8, height: 8), to: path, context: TestImages.context)
        #expect(try ImageFile.read(path).extent.width == 8)
        var info = stat()
        stat(path, &info)
        #expect(info.st_mode & 0o777 == 0o640, "the old file's permissions are kept")
        // Nothing is left beside it.
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["out.png"])
        #expect(throws: ImageFileError.self) { try ImageFile.write(TestImages.pattern(), to: directory.path + "/sub.png/", context: TestImages.context) }
        let sub = directory.appendingPathComponent("dir.png")
        try FileManager.default.createDirectory(at: sub, withIntermediateDirectories: true)
        #expect(throws: ImageFileError.self) { try ImageFile.write(TestImages.pattern(), to: sub.path, context: TestImages.context) }
    }

    @Test func displayTextEscapesControlsAndShortens() {
        let osc52 = "\u{1b}]52;c;aGVsbG8=\u{07}"
        #expect(DisplayText.escaped(osc52) == "\\e]52;c;aGVsbG8=^G")
        #expect(DisplayText.escaped("a\nb\tc\u{7f}\u{9b}2J") == "a\\nb\\tc^?\\u{9b}2J")
        #expect(DisplayText.escaped("é ✓ 日本") == "é ✓ 日本")
        let long = String(repeating: "x", count: 20_000)
        #expect(DisplayText.escaped(long) == String(repeating: "x", count: 200) + "…")
        #expect(!DisplayText.escaped(osc52 + long).unicodeScalars.contains { $0.value < 0x20 })
    }
}

/// Minimal PNG files written byte by byte (stored, uncompressed zlib blocks), with optional extra chunks.
enum PNGBytes {
    static func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 255), UInt8((v >> 8) & 255), UInt8(v & 255)] }

    static func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
        let typeBytes = Array(type.utf8)
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in typeBytes + body {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return be(UInt32(body.count)) + typeBytes + body + be(~crc)
    }

    static func make(width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, rows: [[UInt8]],
                     extra: [(String, [UInt8])] = []) -> Data {
        let header = be(UInt32(width)) + be(UInt32(height)) + [bitDepth, colorType, 0, 0, 0]
        let raw = rows.flatMap { $0 }
        var z: [UInt8] = [0x78, 0x01, 1, UInt8(raw.count & 255), UInt8(raw.count >> 8),
                          UInt8(~raw.count & 255), UInt8((~raw.count >> 8) & 255)] + raw
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        z += be(b << 16 | a)
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
        for (type, body) in extra { file += chunk(type, body) }
        file += chunk("IDAT", z) + chunk("IEND", [])
        return Data(file)
    }
}
