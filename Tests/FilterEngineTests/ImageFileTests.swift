import Foundation
import Testing
@testable import FilterEngine
@testable import FilterPipeline

@Suite struct ImageFileTests {
    let directory: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-io-\(getpid())-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    func path(_ name: String) -> String { directory.appendingPathComponent(name).path }

    func readError(_ path: String) -> String {
        do {
            _ = try ImageFile.read(path)
            return "no error"
        } catch {
            return "\(error)"
        }
    }

    @Test func pngRoundTripKeepsEveryByteAndAlpha() throws {
        var bytes: [UInt8] = []
        for v in 0..<256 { bytes += [UInt8(v), UInt8(255 - v), UInt8((v * 11) & 255), 255] }
        bytes += [10, 20, 30, 0, 200, 100, 50, 128]  // transparent and half-transparent pixels
        let image = TestImages.rgba8(width: 258, height: 1, bytes: bytes)
        try ImageFile.write(image, to: path("a.png"), context: TestImages.context)
        let back = try TestImages.context.renderRGBA8(try ImageFile.read(path("a.png")), rect: image.extent)
        #expect(Array(back.bytes[0..<1024]) == Array(bytes[0..<1024]))
        #expect(back.bytes[1027] == 0)
        #expect(Array(back.bytes[1028..<1032]) == [200, 100, 50, 128])
    }

    @Test func sixteenBitPNGKeepsPrecision() throws {
        let image = TestImages.make(width: 3, height: 2) { x, y in Pixel(Float(x) * 0.1234, Float(y) * 0.4321, 0.000123, 1) }
        try ImageFile.write(image, to: path("deep.png"), sixteenBit: true, context: TestImages.context)
        let back = try TestImages.render(try ImageFile.read(path("deep.png")))
        let original = try TestImages.render(image)
        #expect(TestImages.maxDifference(back, original) < 1.0 / 65535 + 1e-6)
    }

    @Test func jpegRoundTripIsClose() throws {
        let image = TestImages.make(width: 64, height: 64) { _, _ in Pixel(0.2, 0.5, 0.8, 1) }
        try ImageFile.write(image, to: path("a.jpg"), quality: 95, context: TestImages.context)
        let back = try TestImages.context.renderRGBA8(try ImageFile.read(path("a.jpg")), rect: image.extent)
        let original = try TestImages.context.renderRGBA8(image, rect: image.extent)
        let worst = zip(back.bytes, original.bytes).map { abs(Int($0) - Int($1)) }.max()!
        #expect(worst <= 3)
    }

    @Test func imagesAreRightWayUp() throws {
        // Top row red, bottom row blue in the file: y up puts blue at y = 0.
        let image = TestImages.rgba8(width: 1, height: 2, bytes: [255, 0, 0, 255, 0, 0, 255, 255])
        try ImageFile.write(image, to: path("up.png"), context: TestImages.context)
        let back = try ImageFile.read(path("up.png"))
        #expect(try TestImages.pixel(back, x: 0, y: 0) == Pixel(0, 0, 1, 1))
        #expect(try TestImages.pixel(back, x: 0, y: 1) == Pixel(1, 0, 0, 1))
    }

    @Test func greyscaleAndPaletteFilesRead() throws {
        // A 2×1 8-bit greyscale PNG and a 1×1 palette PNG, written byte by byte.
        let grey = try ImageFile.read(try writePNG("grey.png", width: 2, height: 1, colorType: 0, rows: [[0, 0, 255]]))
        #expect(try TestImages.pixel(grey, x: 1, y: 0) == Pixel(1, 1, 1, 1))
        #expect(try TestImages.pixel(grey, x: 0, y: 0) == Pixel(0, 0, 0, 1))
        let palette = try ImageFile.read(try writePNG("pal.png", width: 1, height: 1, colorType: 3, rows: [[0, 0]],
                                                      extra: [("PLTE", [255, 0, 0])]))
        #expect(try TestImages.pixel(palette, x: 0, y: 0) == Pixel(1, 0, 0, 1))
    }

    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    @Test func greyscaleAndCMYKJPEGsRead() throws {
        // grey.jpg: 8×8, each row 0, 32, ..., 224 (written by cjpeg -grayscale at quality 100).
        let grey = try ImageFile.read(Self.fixtures.appendingPathComponent("grey.jpg").path)
        let bytes = try TestImages.context.renderRGBA8(grey, rect: grey.extent).bytes
        for x in 0..<8 {
            let o = (3 * 8 + x) * 4
            #expect(abs(Int(bytes[o]) - x * 32) <= 2 && bytes[o] == bytes[o + 1] && bytes[o] == bytes[o + 2] && bytes[o + 3] == 255)
        }
        // cmyk-adobe.jpg: Photoshop-style inverted CMYK, left half full cyan ink, right half full black ink.
        let cmyk = try ImageFile.read(Self.fixtures.appendingPathComponent("cmyk-adobe.jpg").path)
        let rgba = try TestImages.context.renderRGBA8(cmyk, rect: cmyk.extent).bytes
        func near(_ o: Int, _ expected: [Int]) -> Bool { zip(rgba[o..<o + 4], expected).allSatisfy { abs(Int($0) - $1) <= 3 } }
        #expect(near((4 * 16 + 2) * 4, [0, 255, 255, 255]))
        #expect(near((4 * 16 + 13) * 4, [0, 0, 0, 255]))
    }

    @Test func badFilesGiveClearErrorsNamingTheFile() throws {
        #expect(readError(path("missing.png")).contains("missing.png: no such file"))
        _ = FileManager.default.createFile(atPath: path("empty.png"), contents: Data())
        #expect(readError(path("empty.png")).contains("empty"))
        _ = FileManager.default.createFile(atPath: path("text.png"), contents: Data("hello".utf8))
        #expect(readError(path("text.png")).contains("not a PNG or JPEG"))
        // A real PNG cut in half.
        let image = TestImages.pattern()
        try ImageFile.write(image, to: path("whole.png"), context: TestImages.context)
        let data = try Data(contentsOf: URL(fileURLWithPath: path("whole.png")))
        _ = FileManager.default.createFile(atPath: path("cut.png"), contents: data.prefix(data.count / 2))
        #expect(readError(path("cut.png")).hasPrefix(path("cut.png") + ": "))
        // A header that claims 100000 × 100000 pixels.
        let huge = try writePNG("huge.png", width: 100_000, height: 100_000, colorType: 0, rows: [])
        let message = readError(huge)
        #expect(message.contains("huge.png") && message != "no error", "\(message)")
        // A JPEG with only its first bytes.
        try ImageFile.write(image, to: path("whole.jpg"), context: TestImages.context)
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: path("whole.jpg")))
        _ = FileManager.default.createFile(atPath: path("cut.jpg"), contents: jpeg.prefix(20))
        #expect(readError(path("cut.jpg")).hasPrefix(path("cut.jpg") + ": "))
    }

    @Test func writeErrors() throws {
        #expect(throws: ImageFileError.self) { try ImageFile.write(TestImages.pattern(), to: path("x.gif"), context: TestImages.context) }
        #expect(throws: ImageFileError.self) {
            try ImageFile.write(TestImages.pattern(), to: "/nonexistent-dir/x.png", context: TestImages.context)
        }
    }

    /// Writes a minimal PNG (8-bit, no interlace) with the given raw rows (each starting with its filter byte).
    func writePNG(_ name: String, width: Int, height: Int, colorType: UInt8, rows: [[UInt8]],
                  extra: [(String, [UInt8])] = []) throws -> String {
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typeBytes = Array(type.utf8)
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in typeBytes + body {
                crc ^= UInt32(byte)
                for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            return be(UInt32(body.count)) + typeBytes + body + be(~crc)
        }
        func be(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8((v >> 16) & 255), UInt8((v >> 8) & 255), UInt8(v & 255)] }
        let header = be(UInt32(width)) + be(UInt32(height)) + [8, colorType, 0, 0, 0]
        // zlib stream of stored (uncompressed) blocks.
        let raw = rows.flatMap { $0 }
        var z: [UInt8] = [0x78, 0x01, 1, UInt8(raw.count & 255), UInt8(raw.count >> 8),
                          UInt8(~raw.count & 255), UInt8((~raw.count >> 8) & 255)] + raw
        var a: UInt32 = 1, b: UInt32 = 0
        for byte in raw { a = (a + UInt32(byte)) % 65521; b = (b + a) % 65521 }
        z += be(b << 16 | a)
        var file: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", header)
        for (type, body) in extra { file += chunk(type, body) }
        file += chunk("IDAT", z) + chunk("IEND", [])
        _ = FileManager.default.createFile(atPath: path(name), contents: Data(file))
        return path(name)
    }
}
