import Foundation
import Testing
import CoreImage

/// The snippets of Core Image's next layer of API (S16–S19): samplers, accumulators, the QR-code tint that
/// relies on compositing with transparency, and Apple's module names.
@Suite struct NewSnippetTests {
    let chelsea = CIImage(contentsOf: Samples.chelsea)!

    @Test func s16TintedQRCodeKeepsItsTintAndAClearBackground() throws {
        // One pixel a module: an enlarged code's module edges are interpolated, like any bilinear transform.
        let code = try #require(PassCode(text: "https://example.org/tint", moduleSize: 1).image)
        let tint = CIColor(red: 0.1, green: 0.3, blue: 0.8)
        let tinted = try #require(code.tintedCode(tint))
        // The product covers the code only (the colour is infinite, the code is not).
        #expect(tinted.extent == code.extent)
        let width = Int(code.extent.width)
        let bytes = Pixels.rgba8(tinted)
        // The quiet zone is clear; the finder pattern's outer ring has the tint (premultiplied, alpha 1).
        #expect(Pixels.at(bytes, width: width, x: 0, yFromTop: 0) == [0, 0, 0, 0])
        let ring = Pixels.at(bytes, width: width, x: 1, yFromTop: 1)
        #expect(ring == [25, 76, 204, 255], "\(ring)")   // 0.1, 0.3, 0.8 to 8 bits
        // Over white it reads back as the same message (zxing-cpp, when installed).
        let onWhite = tinted.composited(over: CIImage(color: .white)).cropped(to: code.extent)
        if let decoded = try QRDecoding.decode(onWhite) {
            #expect(decoded == ["https://example.org/tint"])
        }
    }

    @Test func s17SamplerClampsAtTheEdgesAndEmbosses() throws {
        let ramp = try #require(CIFilter(name: "CILinearGradient", parameters: [
            "inputPoint0": CIVector(x: 0, y: 0), "inputPoint1": CIVector(x: 64, y: 0),
            "inputColor0": CIColor.black, "inputColor1": CIColor.white,
        ])?.outputImage?.cropped(to: CGRect(x: 0, y: 0, width: 64, height: 8)))
        let filter = EmbossFilter()
        filter.inputImage = ramp
        let out = try #require(filter.outputImage)
        #expect(out.extent == ramp.extent)
        let inside = Pixels.linear(out, x: 30, y: 4), edge = Pixels.linear(out, x: 0, y: 4)
        let step = Pixels.linear(ramp, x: 30, y: 4)[0] - Pixels.linear(ramp, x: 29, y: 4)[0]
        #expect(abs(inside[0] - (0.5 + step)) < 1e-4)
        // Clamped: the pixel left of the edge is the edge itself, so the difference there is zero.
        #expect(abs(edge[0] - 0.5) < 1e-4)
        // Without the clamp the left neighbour of the edge is transparent black.
        let black = try #require(EmbossFilter.embossKernel?.apply(
            extent: ramp.extent, roiCallback: { _, r in r.insetBy(dx: -1, dy: 0) }, arguments: [CISampler(image: ramp)]))
        #expect(abs(Pixels.linear(black, x: 0, y: 4)[0] - (0.5 + Pixels.linear(ramp, x: 0, y: 4)[0])) < 1e-4)
    }

    @Test func s18AccumulatorIteratesAFilterFiveTimes() throws {
        let square = CIImage(color: .white).cropped(to: CGRect(x: 24, y: 24, width: 16, height: 16))
            .composited(over: CIImage(color: .black)).cropped(to: CGRect(x: 0, y: 0, width: 64, height: 64))
        let five = try #require(RepeatedBlur(radius: 2, passes: 5).run(on: square))
        // Five blurs in a row, written without an accumulator.
        var chain = square
        for _ in 0..<5 {
            chain = chain.clampedToExtent().applyingFilter("CIGaussianBlur", parameters: [kCIInputRadiusKey: 2.0])
                .cropped(to: square.extent)
        }
        #expect(five.extent == square.extent)
        #expect(Pixels.maxDifference(Pixels.rgba8(five), Pixels.rgba8(chain)) <= 1)
        // An image taken from the accumulator keeps its pixels after later passes.
        let accumulator = try #require(CIImageAccumulator(extent: square.extent, format: .RGBAh))
        accumulator.setImage(square)
        let first = accumulator.image()
        accumulator.setImage(CIImage(color: .red).cropped(to: square.extent))
        #expect(Pixels.rgba8(first) == Pixels.rgba8(square))
        #expect(Pixels.at(Pixels.rgba8(accumulator.image()), width: 64, x: 0, yFromTop: 0) == [255, 0, 0, 255])
        // A dirty rectangle updates only its pixels; clear() empties everything.
        accumulator.setImage(CIImage(color: .blue), dirtyRect: CGRect(x: 0, y: 0, width: 8, height: 8))
        let mixed = Pixels.rgba8(accumulator.image())
        #expect(Pixels.at(mixed, width: 64, x: 2, yFromTop: 62) == [0, 0, 255, 255])
        #expect(Pixels.at(mixed, width: 64, x: 20, yFromTop: 62) == [255, 0, 0, 255])
        accumulator.clear()
        #expect(Pixels.at(Pixels.rgba8(accumulator.image()), width: 64, x: 2, yFromTop: 62) == [0, 0, 0, 0])
        // 8-bit storage keeps 8 bits: a stored value reads back as a level of 255.
        let bytes = try #require(CIImageAccumulator(extent: square.extent, format: .RGBA8))
        bytes.setImage(CIImage(color: CIColor(red: 0.5004, green: 0.25, blue: 0.75)).cropped(to: square.extent))
        #expect(Pixels.at(Pixels.rgba8(bytes.image()), width: 64, x: 3, yFromTop: 3) == [128, 64, 191, 255])
        // Extents that cannot be stored give nil.
        #expect(CIImageAccumulator(extent: .infinite, format: .RGBAf) == nil)
        #expect(CIImageAccumulator(extent: CGRect(x: 0, y: 0, width: CGFloat.nan, height: 4), format: .RGBAf) == nil)
        #expect(CIImageAccumulator(extent: CGRect(x: 0, y: 0, width: 8, height: 8), format: CIFormat(rawValue: 9999)) == nil)
    }

    @Test func s19ModuleNamesResolveToTheRealTypes() throws {
        let shifted = uprightShifted(chelsea, by: CGVector(dx: 10, dy: -4))
        #expect(shifted.extent == chelsea.extent.offsetBy(dx: 10, dy: -4))
        let turned = uprightShifted(chelsea.settingProperties([kCGImagePropertyOrientation: 6]), by: .zero)
        #expect(turned.extent.size == CGSize(width: chelsea.extent.height, height: chelsea.extent.width))
        #expect(CIVector(cgVector: CGVector(dx: 3, dy: 4)).cgVectorValue == CGVector(dx: 3, dy: 4))
        // A CGVector is taken wherever a two-number vector is.
        let moved = try #require(CIFilter(name: "CIVortexDistortion", parameters: [
            kCIInputImageKey: chelsea, kCIInputCenterKey: CGVector(dx: 100, dy: 80)])?.value(forKey: kCIInputCenterKey))
        #expect(moved as? CGVector == CGVector(dx: 100, dy: 80))
    }

    @Test func keyPathsReachInputsAndTheirParts() throws {
        let blur = try #require(CIFilter(name: "CIGaussianBlur"))
        blur.setValue(chelsea, forKeyPath: kCIInputImageKey)
        blur.setValue(4, forKeyPath: "inputRadius")
        #expect((blur.value(forKeyPath: "inputRadius") as? NSNumber)?.doubleValue == 4)
        #expect(blur.value(forKeyPath: "inputImage.extent") as? CGRect == chelsea.extent)
        #expect((blur.value(forKeyPath: "attributes.inputRadius.CIAttributeDefault") as? NSNumber)?.doubleValue == 10)
        #expect(blur.value(forKeyPath: "outputImage.extent") as? CGRect == chelsea.extent.insetBy(dx: -12, dy: -12))
        #expect(blur.value(forKeyPath: "inputRadius.nothing") == nil)
        // Through a filter held as an input: the inner filter's key.
        let holder = try #require(CIFilter(name: "CIColorControls"))
        let wrapper = WrapperFilter()
        wrapper.setValue(holder, forKey: "inner")
        wrapper.setValue(1.5, forKeyPath: "inner.inputSaturation")
        #expect((holder.value(forKey: "inputSaturation") as? NSNumber)?.doubleValue == 1.5)
        #expect((wrapper.value(forKeyPath: "inner.inputSaturation") as? NSNumber)?.doubleValue == 1.5)
    }

    final class WrapperFilter: CIFilter {
        var inner: CIFilter?
    }

    @Test func theEmptyImageHasAnEmptyExtent() {
        #expect(CIImage().extent.isEmpty)
        #expect(CIImage().extent == CIImage.empty().extent)
        #expect(CIImage().composited(over: chelsea).extent == chelsea.extent)
    }
}

/// Reads QR codes back with zxing-cpp (the FilterEngine tests' decoding script); nil, with a printed reason,
/// when python3 or zxing-cpp is missing, so the caller skips its check visibly.
enum QRDecoding {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FilterEngineTests/Fixtures/decode_barcodes.py")

    static func decode(_ image: CIImage) throws -> [String]? {
        let width = Int(image.extent.width), height = Int(image.extent.height)
        let rgba = Pixels.rgba8(image)
        var pgm = Array("P5\n\(width) \(height)\n255\n".utf8)
        for i in 0..<width * height { pgm.append(UInt8((Int(rgba[i * 4]) + Int(rgba[i * 4 + 1]) + Int(rgba[i * 4 + 2])) / 3)) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("qr-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("code.pgm"), output = folder.appendingPathComponent("out.json")
        try Data(pgm).write(to: input)
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, input.path]
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            print("QR decoding skipped: python3 cannot be started")
            return nil
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            print("QR decoding skipped: zxing-cpp is missing (scripts/install-deps installs it)")
            return nil
        }
        let line = try Data(contentsOf: output)
        let object = try JSONSerialization.jsonObject(with: line) as? [String: Any]
        let results = object?["results"] as? [[String: Any]] ?? []
        return results.compactMap { ($0["hex"] as? String).flatMap(Self.text) }
    }

    /// zxing's payload bytes (hex) as text.
    static func text(_ hex: String) -> String? {
        var bytes: [UInt8] = []
        var index = hex.startIndex
        while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
            guard let byte = UInt8(hex[index..<next], radix: 16) else { return nil }
            bytes.append(byte)
            index = next
        }
        return String(bytes: bytes, encoding: .utf8)
    }
}
