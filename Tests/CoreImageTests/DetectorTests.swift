import Foundation
import Testing
import CoreImage
import CoreImage.CIFilterBuiltins

/// CIDetector as apps use it: QR codes read back from CIQRCodeGenerator output (scaled, turned, tinted),
/// rectangles found in synthetic pictures with known corners, and the detectors that have no model here.
@Suite struct DetectorTests {
    let context = CIContext()

    /// A QR code of `message` at `scale` pixels per module, turned by `degrees` about its centre and laid on a
    /// white page with a margin, with the transform that places the generator's output on the page.
    func qrPage(_ message: String, scale: CGFloat, degrees: CGFloat) throws -> (image: CIImage, place: CGAffineTransform, modules: CGFloat) {
        let qr = CIFilter.qrCodeGenerator()
        qr.message = Data(message.utf8)
        qr.correctionLevel = "M"
        let code = try #require(qr.outputImage)
        let size = code.extent.width
        let turn = CGAffineTransform(translationX: -size / 2, y: -size / 2)
            .concatenating(CGAffineTransform(scaleX: scale, y: scale))
            .concatenating(CGAffineTransform(rotationAngle: degrees * .pi / 180))
        let turned = code.transformed(by: turn)
        let page = turned.extent.insetBy(dx: -20, dy: -20).integral
        let shift = CGAffineTransform(translationX: -page.minX, y: -page.minY)
        let image = turned.transformed(by: shift)
            .composited(over: CIImage(color: .white).cropped(to: page.applying(shift)))
        return (image, turn.concatenating(shift), size)
    }

    func distance(_ a: CGPoint, _ b: CGPoint) -> CGFloat { hypot(a.x - b.x, a.y - b.y) }

    @Test func qrCodesAtSeveralScalesAndAnglesReadBackWithTheirCorners() throws {
        let detector = try #require(CIDetector(ofType: CIDetectorTypeQRCode, context: context,
                                               options: [CIDetectorAccuracy: CIDetectorAccuracyHigh]))
        for (scale, degrees) in [(4, 0), (6, 0), (10, 0), (5, 30), (6, 90), (6, 180), (8, -45)] as [(CGFloat, CGFloat)] {
            let message = "scale \(scale) angle \(degrees) https://example.com/ü"
            let page = try qrPage(message, scale: scale, degrees: degrees)
            let features = detector.features(in: page.image)
            #expect(features.count == 1, "scale \(scale), \(degrees)°")
            var found = false
            for case let feature as CIQRCodeFeature in features {
                found = true
                #expect(feature.type == CIFeatureTypeQRCode)
                #expect(feature.messageString == message)
                // The symbol's corners without the generator's one-module quiet zone (y up: its top is high y).
                let m = page.modules
                let expected = [CGPoint(x: 1, y: m - 1), CGPoint(x: m - 1, y: m - 1), CGPoint(x: 1, y: 1), CGPoint(x: m - 1, y: 1)]
                    .map { $0.applying(page.place) }
                let got = [feature.topLeft, feature.topRight, feature.bottomLeft, feature.bottomRight]
                let worst = zip(got, expected).map { distance($0, $1) }.max()!
                #expect(worst <= 2.5, "scale \(scale), \(degrees)°: corners \(got) expected \(expected)")
                #expect(feature.bounds.insetBy(dx: -3, dy: -3).contains(expected[0]) && feature.bounds.insetBy(dx: -3, dy: -3).contains(expected[3]))
            }
            #expect(found)
        }
    }

    @Test func qrDescriptorRegeneratesTheSameSymbol() throws {
        let qr = CIFilter.qrCodeGenerator()
        for (message, level) in [("descriptor", "L"), ("https://www.apple.com/a/longer/path?query=1", "Q"), (String(repeating: "x", count: 200), "H")] {
            qr.message = Data(message.utf8)
            qr.correctionLevel = level
            let code = try #require(qr.outputImage)
            let scaled = code.transformed(by: CGAffineTransform(scaleX: 6, y: 6))
            let detector = try #require(CIDetector(ofType: CIDetectorTypeQRCode, context: nil, options: nil))
            let feature = try #require(detector.features(in: scaled).first as? CIQRCodeFeature)
            let descriptor = try #require(feature.symbolDescriptor)
            #expect(descriptor.errorCorrectionLevel.rawValue == Int(level.unicodeScalars.first!.value))
            #expect(descriptor.symbolVersion == (Int(code.extent.width) - 2 - 17) / 4)
            // The descriptor draws the very symbol it was read from: same payload, version, level and mask.
            let generator = CIFilter.barcodeGenerator()
            generator.barcodeDescriptor = descriptor
            let redrawn = try #require(generator.outputImage)
            #expect(redrawn.extent == code.extent)
            let original = Pixels.rgba8(code), again = Pixels.rgba8(redrawn)
            #expect(original == again, "\(level): \(message.prefix(20))… mask \(descriptor.maskPattern)")
        }
    }

    @Test func everyMaskIsReadFromTheSymbolItself() throws {
        // Symbols drawn from one payload with each of the eight masks, most of which no encoder would choose:
        // the descriptor's mask must come from the symbol's format information, not from re-encoding.
        let qr = CIFilter.qrCodeGenerator()
        qr.message = Data("mask".utf8)
        let detector = try #require(CIDetector(ofType: CIDetectorTypeQRCode, context: context, options: nil))
        let code = try #require(qr.outputImage).transformed(by: CGAffineTransform(scaleX: 6, y: 6))
        let first = try #require(detector.features(in: code).first as? CIQRCodeFeature)
        let found = try #require(first.symbolDescriptor)
        for mask in UInt8(0)...7 {
            let descriptor = try #require(CIQRCodeDescriptor(payload: found.errorCorrectedPayload, symbolVersion: found.symbolVersion,
                                                             maskPattern: mask, errorCorrectionLevel: found.errorCorrectionLevel))
            let generator = CIFilter.barcodeGenerator()
            generator.barcodeDescriptor = descriptor
            let symbol = try #require(generator.outputImage)
            for degrees in [0, 90] as [CGFloat] {
                let turned = symbol.transformed(by: CGAffineTransform(scaleX: 5, y: 5).rotated(by: degrees * .pi / 180))
                let read = detector.features(in: turned).first as? CIQRCodeFeature
                #expect(read?.messageString == "mask")
                #expect(read?.symbolDescriptor?.maskPattern == mask, "mask \(mask), \(degrees)°")
            }
        }
    }

    /// The idiom for a coloured QR code on a transparent background: the generator's black-on-white symbol
    /// turned into an alpha mask (CIColorInvert, CIMaskToAlpha) that keeps only the tint (CISourceInCompositing).
    func tintedQR(_ message: String, tint: CIColor) throws -> CIImage {
        let qr = CIFilter.qrCodeGenerator()
        qr.message = Data(message.utf8)
        // Nearest sampling keeps the modules' edges sharp (a bilinear scale blends neighbouring modules).
        let code = try #require(qr.outputImage).samplingNearest().transformed(by: CGAffineTransform(scaleX: 8, y: 8))
        let mask = code.applyingFilter("CIColorInvert").applyingFilter("CIMaskToAlpha")
        let colour = CIImage(color: tint).cropped(to: mask.extent)
        return colour.applyingFilter("CISourceInCompositing", parameters: [kCIInputBackgroundImageKey: mask])
    }

    @Test func tintedQRCodeKeepsItsTintAndTransparentBackgroundAndReads() throws {
        let tint = CIColor(red: 0.1, green: 0.3, blue: 0.7)
        let tinted = try tintedQR("tinted code", tint: tint)
        let width = Int(tinted.extent.width)
        let bytes = Pixels.rgba8(tinted)
        // Module (1,1) from the top is the finder's dark ring, (0,0) the quiet zone; 8 pixels a module.
        let dark = Pixels.at(bytes, width: width, x: 12, yFromTop: 12), light = Pixels.at(bytes, width: width, x: 4, yFromTop: 4)
        #expect(dark[3] == 255 && abs(Int(dark[0]) - 26) <= 2 && abs(Int(dark[1]) - 77) <= 2 && abs(Int(dark[2]) - 179) <= 2, "module \(dark)")
        #expect(light == [0, 0, 0, 0], "background \(light)")
        let opaque = stride(from: 3, to: bytes.count, by: 4).filter { bytes[$0] == 255 }.count
        let clear = stride(from: 3, to: bytes.count, by: 4).filter { bytes[$0] == 0 }.count
        #expect(opaque + clear == width * width, "only opaque modules and a clear background")
        #expect(clear > opaque / 2 && opaque > clear / 2)

        let detector = try #require(CIDetector(ofType: CIDetectorTypeQRCode, context: context, options: nil))
        // Read as it is (transparent reads as white paper) and composited over a light background.
        let onPaper = tinted.composited(over: CIImage(color: CIColor(red: 1, green: 0.95, blue: 0.85)).cropped(to: tinted.extent.insetBy(dx: -16, dy: -16)))
        for image in [tinted, onPaper] {
            let messages = detector.features(in: image).compactMap { ($0 as? CIQRCodeFeature)?.messageString }
            #expect(messages == ["tinted code"])
        }
        // The independent decoder agrees (skipped when Python's zxing-cpp is missing).
        if let decoded = try ExternalDecoder.decode(onPaper, context: context) {
            #expect(decoded == [Array("tinted code".utf8)])
        }
    }

    @Test func falseColourTintIsTheSameIdiom() throws {
        let qr = CIFilter.qrCodeGenerator()
        qr.message = Data("false colour".utf8)
        let falseColour = CIFilter.falseColor()
        falseColour.inputImage = try #require(qr.outputImage).samplingNearest().transformed(by: CGAffineTransform(scaleX: 6, y: 6))
        falseColour.color0 = CIColor(red: 0.6, green: 0.1, blue: 0.2)
        falseColour.color1 = CIColor(red: 0, green: 0, blue: 0, alpha: 0)
        let tinted = try #require(falseColour.outputImage)
        let bytes = Pixels.rgba8(tinted)
        #expect(Pixels.at(bytes, width: Int(tinted.extent.width), x: 2, yFromTop: 2) == [0, 0, 0, 0])
        #expect(Pixels.at(bytes, width: Int(tinted.extent.width), x: 8, yFromTop: 8)[3] == 255)
        let detector = try #require(CIDetector(ofType: CIDetectorTypeQRCode, context: nil, options: nil))
        #expect(detector.features(in: tinted).compactMap { ($0 as? CIQRCodeFeature)?.messageString } == ["false colour"])
    }

    /// CIMultiplyCompositing is the component-wise product, alpha included (Apple's reference), so an opaque
    /// tint multiplied onto the code made white on clear keeps the tint on the modules and a clear background:
    /// the tint idiom of many QR-code helpers works as it does on Apple's systems.
    @Test func multiplyingAnOpaqueTintKeepsTheClearBackground() throws {
        let qr = CIFilter.qrCodeGenerator()
        qr.message = Data("multiply".utf8)
        let code = try #require(qr.outputImage).samplingNearest().transformed(by: CGAffineTransform(scaleX: 4, y: 4))
        let mask = code.applyingFilter("CIColorInvert").applyingFilter("CIMaskToAlpha")
        let tint = CIImage(color: CIColor(red: 0.2, green: 0.4, blue: 0.6))
        let multiplied = tint.applyingFilter("CIMultiplyCompositing", parameters: [kCIInputBackgroundImageKey: mask])
        #expect(multiplied.extent == mask.extent)
        let bytes = Pixels.rgba8(multiplied)
        let width = Int(multiplied.extent.width)
        #expect(Pixels.at(bytes, width: width, x: 1, yFromTop: 1) == [0, 0, 0, 0])   // quiet zone: clear
        #expect(Pixels.at(bytes, width: width, x: 6, yFromTop: 6) == [51, 102, 153, 255])   // a module: the tint
        let detector = try #require(CIDetector(ofType: CIDetectorTypeQRCode, context: nil, options: nil))
        #expect(detector.features(in: multiplied).compactMap { ($0 as? CIQRCodeFeature)?.messageString } == ["multiply"])
    }

    // MARK: Rectangles

    /// A light quadrilateral (corners in Core Image coordinates) on a dark page with pseudo-random noise.
    func quadrilateralPicture(_ corners: [CGPoint], width: Int = 640, height: Int = 480, noise: Int = 24,
                              light: UInt8 = 205, dark: UInt8 = 45) -> CIImage {
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        var seed: UInt64 = 0x9E3779B97F4A7C15
        func inside(_ x: Double, _ y: Double) -> Bool {
            var sign = 0
            for i in 0..<corners.count {
                let a = corners[i], b = corners[(i + 1) % corners.count]
                let cross = (Double(b.x) - Double(a.x)) * (y - Double(a.y)) - (Double(b.y) - Double(a.y)) * (x - Double(a.x))
                let s = cross > 0 ? 1 : -1
                if sign == 0 { sign = s } else if s != sign { return false }
            }
            return true
        }
        for row in 0..<height {
            for x in 0..<width {
                let y = Double(height - 1 - row) // Core Image's y of this row's pixel centres, minus ½
                var covered = 0
                for sy in 0..<4 {
                    for sx in 0..<4 where inside(Double(x) + (Double(sx) + 0.5) / 4, y + (Double(sy) + 0.5) / 4) { covered += 1 }
                }
                seed = seed &* 6364136223846793005 &+ 1442695040888963407
                let jitter = Int(seed >> 33) % (2 * noise + 1) - noise
                let level = (Int(dark) * (16 - covered) + Int(light) * covered) / 16 + jitter
                let v = UInt8(min(max(level, 0), 255))
                let o = (row * width + x) * 4
                bytes[o] = v; bytes[o + 1] = v; bytes[o + 2] = v
            }
        }
        return CIImage(bitmapData: Data(bytes), bytesPerRow: width * 4, size: CGSize(width: width, height: height),
                       format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
    }

    /// A w × h rectangle turned by `degrees` about `centre`: top left, top right, bottom right, bottom left.
    func turnedRectangle(centre: CGPoint, width w: CGFloat, height h: CGFloat, degrees: CGFloat) -> [CGPoint] {
        let t = CGAffineTransform(rotationAngle: degrees * .pi / 180)
        return [CGPoint(x: -w / 2, y: h / 2), CGPoint(x: w / 2, y: h / 2), CGPoint(x: w / 2, y: -h / 2), CGPoint(x: -w / 2, y: -h / 2)]
            .map { $0.applying(t) }.map { CGPoint(x: $0.x + centre.x, y: $0.y + centre.y) }
    }

    @Test func rectangleCornersAreFoundWithinTwoPixels() throws {
        let detector = try #require(CIDetector(ofType: CIDetectorTypeRectangle, context: context,
                                               options: [CIDetectorAccuracy: CIDetectorAccuracyHigh]))
        let cases: [[CGPoint]] = [
            turnedRectangle(centre: CGPoint(x: 320, y: 240), width: 300, height: 180, degrees: 0),
            turnedRectangle(centre: CGPoint(x: 300, y: 250), width: 320, height: 200, degrees: 17),
            turnedRectangle(centre: CGPoint(x: 330, y: 230), width: 260, height: 240, degrees: -28),
            // A rectangle seen in perspective.
            [CGPoint(x: 150, y: 390), CGPoint(x: 470, y: 410), CGPoint(x: 540, y: 80), CGPoint(x: 110, y: 60)],
        ]
        for corners in cases {
            let features = detector.features(in: quadrilateralPicture(corners))
            #expect(features.count == 1)
            let feature = try #require(features.first as? CIRectangleFeature)
            #expect(feature.type == CIFeatureTypeRectangle)
            let got = [feature.topLeft, feature.topRight, feature.bottomRight, feature.bottomLeft]
            let worst = zip(got, corners).map { distance($0, $1) }.max()!
            #expect(worst <= 2, "corners \(got), drawn \(corners)")
            let xs = corners.map(\.x), ys = corners.map(\.y)
            let drawnBounds = CGRect(x: xs.min()!, y: ys.min()!, width: xs.max()! - xs.min()!, height: ys.max()! - ys.min()!)
            #expect(abs(feature.bounds.minX - drawnBounds.minX) <= 2 && abs(feature.bounds.maxY - drawnBounds.maxY) <= 2)
        }
    }

    @Test func rectangleOptionsSizeCountAndAspectRatio() throws {
        // Two rectangles on one page: a large 2:1 one and a small square.
        let large = turnedRectangle(centre: CGPoint(x: 220, y: 240), width: 240, height: 120, degrees: 10)
        let small = turnedRectangle(centre: CGPoint(x: 520, y: 240), width: 100, height: 100, degrees: -5)
        var bytes = Pixels.rgba8(quadrilateralPicture(large))
        let second = Pixels.rgba8(quadrilateralPicture(small))
        for i in stride(from: 0, to: bytes.count, by: 4) where second[i] > 120 {
            bytes[i] = second[i]; bytes[i + 1] = second[i]; bytes[i + 2] = second[i]
        }
        let page = CIImage(bitmapData: Data(bytes), bytesPerRow: 640 * 4, size: CGSize(width: 640, height: 480),
                           format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        func centre(_ feature: CIFeature) -> CGPoint { CGPoint(x: feature.bounds.midX, y: feature.bounds.midY) }

        let one = try #require(CIDetector(ofType: CIDetectorTypeRectangle, context: nil, options: nil)).features(in: page)
        #expect(one.count == 1 && one.first.map { centre($0).x < 320 } == true, "the larger one by default")

        let two = try #require(CIDetector(ofType: CIDetectorTypeRectangle, context: nil,
                                          options: [CIDetectorMaxFeatureCount: 4, CIDetectorMinFeatureSize: 0.1])).features(in: page)
        #expect(two.count == 2)

        // 100 px is under the default 20% of 480 only when asked for more: 0.25 × 480 = 120 excludes the square.
        let bigOnly = try #require(CIDetector(ofType: CIDetectorTypeRectangle, context: nil,
                                              options: [CIDetectorMaxFeatureCount: 4, CIDetectorMinFeatureSize: 0.24])).features(in: page)
        #expect(bigOnly.count == 1)

        let square = try #require(CIDetector(ofType: CIDetectorTypeRectangle, context: nil,
                                             options: [CIDetectorAspectRatio: 1.0, CIDetectorMinFeatureSize: 0.1])).features(in: page)
        #expect(square.count == 1 && square.first.map { centre($0).x > 320 } == true, "the square when a 1:1 ratio is asked")
    }

    @Test func nothingRectangularIsNotARectangle() throws {
        let detector = try #require(CIDetector(ofType: CIDetectorTypeRectangle, context: nil, options: nil))
        // A disc, and a flat page of noise.
        let disc = (0..<24).map { i -> CGPoint in
            let a = Double(i) / 24 * 2 * .pi
            return CGPoint(x: 320 + 150 * cos(a), y: 240 + 150 * sin(a))
        }
        #expect(detector.features(in: quadrilateralPicture(disc)).isEmpty)
        #expect(detector.features(in: quadrilateralPicture([], noise: 30)).isEmpty)
    }

    // MARK: Detectors without a model, and bad input

    @Test func faceAndTextDetectorsFindNothingOnLinux() throws {
        let image = try #require(CIImage(contentsOf: Samples.astronaut))
        let faces = try #require(CIDetector(ofType: CIDetectorTypeFace, context: nil,
                                            options: [CIDetectorAccuracy: CIDetectorAccuracyHigh, CIDetectorTracking: true]))
        #expect(faces.features(in: image, options: [CIDetectorSmile: true, CIDetectorEyeBlink: true, CIDetectorImageOrientation: 1]).isEmpty)
        for case let face as CIFaceFeature in faces.features(in: image) { _ = face.hasSmile } // compiles as on Apple's systems
        let text = try #require(CIDetector(ofType: CIDetectorTypeText, context: nil, options: [CIDetectorReturnSubFeatures: true]))
        #expect(text.features(in: image).isEmpty)
    }

    @Test func badInputGivesNoFeaturesAndNoCrash() throws {
        #expect(CIDetector(ofType: "CIDetectorTypeBarcode", context: nil, options: nil) == nil)
        let qr = try #require(CIDetector(ofType: CIDetectorTypeQRCode, context: nil, options: [CIDetectorAccuracy: CIDetectorAccuracyLow]))
        let rectangles = try #require(CIDetector(ofType: CIDetectorTypeRectangle, context: nil, options: [CIDetectorMinFeatureSize: -3, CIDetectorMaxFeatureCount: 1e9]))
        let infinite = CIImage(color: .red)
        let empty = CIImage.empty()
        let tiny = CIImage(color: .white).cropped(to: CGRect(x: 0.25, y: 0.5, width: 1.5, height: 2))
        for image in [infinite, empty, tiny] {
            #expect(qr.features(in: image).isEmpty)
            #expect(rectangles.features(in: image).isEmpty)
        }
        let astronaut = try #require(CIImage(contentsOf: Samples.astronaut))
        #expect(qr.features(in: astronaut).isEmpty)
    }

    @Test func constantsHaveCoreImageValues() {
        #expect(CIDetectorTypeQRCode == "CIDetectorTypeQRCode" && CIDetectorTypeRectangle == "CIDetectorTypeRectangle")
        #expect(CIDetectorTypeFace == "CIDetectorTypeFace" && CIDetectorTypeText == "CIDetectorTypeText")
        #expect(CIDetectorAccuracy == "CIDetectorAccuracy" && CIDetectorAccuracyHigh == "CIDetectorAccuracyHigh" && CIDetectorAccuracyLow == "CIDetectorAccuracyLow")
        #expect([CIDetectorTracking, CIDetectorMinFeatureSize, CIDetectorMaxFeatureCount, CIDetectorNumberOfAngles,
                 CIDetectorImageOrientation, CIDetectorEyeBlink, CIDetectorSmile, CIDetectorFocalLength,
                 CIDetectorAspectRatio, CIDetectorReturnSubFeatures].allSatisfy { $0.hasPrefix("CIDetector") })
        #expect([CIFeatureTypeFace, CIFeatureTypeRectangle, CIFeatureTypeQRCode, CIFeatureTypeText] == ["Face", "Rectangle", "QRCode", "Text"])
    }
}

/// zxing-cpp from Python (`pip install zxing-cpp`), as the engine's barcode tests use it: an independent
/// reader of what this module draws. Nil, with a note, when python3 or the module is missing.
enum ExternalDecoder {
    static let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("FilterEngineTests/Fixtures/decode_barcodes.py")

    /// The payloads found in the image, its transparent parts read as white.
    static func decode(_ image: CIImage, context: CIContext) throws -> [[UInt8]]? {
        let rect = image.extent.integral
        let width = Int(rect.width), height = Int(rect.height)
        var rgba = [UInt8](repeating: 0, count: width * height * 4)
        context.render(image, toBitmap: &rgba, rowBytes: width * 4, bounds: rect, format: .RGBA8,
                       colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        var pgm = Data("P5\n\(width) \(height)\n255\n".utf8)
        for i in 0..<width * height {
            let y = (77 * Int(rgba[4 * i]) + 150 * Int(rgba[4 * i + 1]) + 29 * Int(rgba[4 * i + 2])) >> 8
            pgm.append(UInt8(min(255, y + 255 - Int(rgba[4 * i + 3]))))
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("detector-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let input = folder.appendingPathComponent("code.pgm"), output = folder.appendingPathComponent("out.json")
        try pgm.write(to: input)
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        defer { try? handle.close() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script.path, input.path]
        process.standardOutput = handle
        process.standardError = FileHandle.nullDevice
        do { try process.run() } catch {
            print("zxing-cpp check skipped: python3 cannot be started")
            return nil
        }
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            print("zxing-cpp check skipped: python3 -c 'import zxingcpp' fails (pip install zxing-cpp)")
            return nil
        }
        let line = try #require(String(data: try Data(contentsOf: output), encoding: .utf8)?.split(separator: "\n").first)
        let json = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        let results = try #require(json["results"] as? [[String: Any]])
        return results.compactMap { ($0["hex"] as? String).flatMap(bytes(hex:)) }
    }

    static func bytes(hex: String) -> [UInt8]? {
        let digits = Array(hex.utf8)
        guard digits.count % 2 == 0 else { return nil }
        return stride(from: 0, to: digits.count, by: 2).compactMap { UInt8(String(decoding: digits[$0...$0 + 1], as: UTF8.self), radix: 16) }
    }
}
