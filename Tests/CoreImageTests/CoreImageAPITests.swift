import Foundation
import Testing
@testable import CoreImage
import CoreImage.CIFilterBuiltins

/// The API surface: geometry, values, filters by name and typed, the registry, subclasses, contexts.
@Suite struct CoreImageAPITests {
    // MARK: Foundation and CoreImage together

    @Test func foundationNamesStayUnambiguous() {
        // Foundation's AffineTransform next to Core Image's CGAffineTransform: no engine type leaks in.
        var t = AffineTransform(translationByX: 2, byY: 3)
        t.scale(2)  // Foundation appends the scale: it applies after the translation
        let cg = CGAffineTransform(translationX: 2, y: 3).concatenating(CGAffineTransform(scaleX: 2, y: 2))
        #expect(t.transform(NSPoint(x: 1, y: 1)) == CGPoint(x: 1, y: 1).applying(cg))
    }

    // MARK: CGAffineTransform

    @Test func affineTransformFollowsCoreGraphics() {
        let p = CGPoint(x: 1, y: 0)
        let r = p.applying(CGAffineTransform(rotationAngle: .pi / 2))
        #expect(abs(r.x) < 1e-12 && abs(r.y - 1) < 1e-12)
        // translatedBy applies the translation first, then the receiver.
        let t = CGAffineTransform(scaleX: 2, y: 2).translatedBy(x: 1, y: 1)
        #expect(CGPoint.zero.applying(t) == CGPoint(x: 2, y: 2))
        // concatenating: the receiver first.
        let c = CGAffineTransform(translationX: 1, y: 0).concatenating(CGAffineTransform(scaleX: 3, y: 3))
        #expect(CGPoint.zero.applying(c) == CGPoint(x: 3, y: 0))
        let inverse = c.inverted()
        #expect(CGPoint(x: 3, y: 0).applying(inverse) == .zero)
        #expect(CGAffineTransform.identity.isIdentity)
        let turned = CGRect(x: 0, y: 0, width: 2, height: 1).applying(CGAffineTransform(rotationAngle: .pi / 2))
        #expect(abs(turned.minX + 1) < 1e-12 && abs(turned.minY) < 1e-12)
        #expect(abs(turned.width - 1) < 1e-12 && abs(turned.height - 2) < 1e-12)
    }

    // MARK: Values

    @Test func vectorsAndColorsReadBackTheirStrings() {
        let v = CIVector(string: "[1 2.5 -3]")
        #expect(v.count == 3 && v.x == 1 && v.y == 2.5 && v.z == -3 && v.w == 0)
        #expect(v.stringRepresentation == "[1 2.5 -3]")
        #expect(CIVector(cgRect: CGRect(x: 1, y: 2, width: 3, height: 4)).cgRectValue == CGRect(x: 1, y: 2, width: 3, height: 4))
        #expect(CIVector(values: [1, 2, 3], count: 3) == CIVector(x: 1, y: 2, z: 3))
        let c = CIColor(string: "0.5 0.25 1 0.5")
        #expect(c.red == 0.5 && c.green == 0.25 && c.blue == 1 && c.alpha == 0.5)
        #expect(CIColor(string: c.stringRepresentation) == c)
        #expect(CIColor(red: 1, green: 0, blue: 0, colorSpace: CGColorSpace(name: CGColorSpace.linearSRGB)!) != nil)
        #expect(CIColor(red: 1, green: 0, blue: 0, colorSpace: CGColorSpace(name: CGColorSpace.linearGray)!) == nil)
    }

    @Test func linearColorsAreEncodedForTheEngine() {
        // 0.214 linear is about 0.5 in sRGB: a linear-space colour renders as its sRGB equivalent.
        let linear = CIColor(red: 0.2140, green: 0.2140, blue: 0.2140, alpha: 1, colorSpace: CGColorSpace(name: CGColorSpace.linearSRGB)!)!
        let bytes = Pixels.rgba8(CIImage(color: linear).cropped(to: CGRect(x: 0, y: 0, width: 1, height: 1)))
        #expect(abs(Int(bytes[0]) - 128) <= 1)
    }

    // MARK: Filters by name

    @Test func filterByNameHasAppleAttributes() throws {
        let filter = try #require(CIFilter(name: "CISepiaTone"))
        #expect(filter.name == "CISepiaTone")
        #expect(filter.inputKeys == [kCIInputImageKey, kCIInputIntensityKey])
        #expect(filter.outputKeys == [kCIOutputImageKey])
        let attributes = filter.attributes
        #expect(attributes[kCIAttributeFilterName] as? String == "CISepiaTone")
        #expect((attributes[kCIAttributeFilterCategories] as? [String])?.contains(kCICategoryColorEffect) == true)
        let intensity = try #require(attributes[kCIInputIntensityKey] as? [String: Any])
        #expect(intensity[kCIAttributeClass] as? String == "NSNumber")
        #expect(intensity[kCIAttributeType] as? String == kCIAttributeTypeScalar)
        #expect((intensity[kCIAttributeDefault] as? NSNumber)?.doubleValue == 1)
        #expect((intensity[kCIAttributeMin] as? NSNumber)?.doubleValue == 0)
        #expect((intensity[kCIAttributeSliderMax] as? NSNumber)?.doubleValue == 1)
        #expect((filter.value(forKey: kCIInputIntensityKey) as? NSNumber)?.doubleValue == 1)
        #expect(CIFilter(name: "CINoSuchFilter") == nil)
        // As on Apple's systems, the filter made by name is the typed built-in.
        let typed = try #require(CIFilter(name: "CIVignette") as? CIFilter & CIVignette)
        typed.radius = 2
        #expect((typed.value(forKey: kCIInputRadiusKey) as? Float) == 2)
        #expect(CIFilter.localizedName(forFilterName: "CISepiaTone") == "Sepia Tone")
        #expect(CIFilter.filterNames(inCategory: kCICategoryBlur).contains("CIGaussianBlur"))
        #expect(CIFilter.filterNames(inCategories: [kCICategoryBlur, kCICategoryVideo]).allSatisfy {
            CIFilter.filterNames(inCategory: kCICategoryVideo).contains($0)
        })
        #expect(CIFilter.filterNames(inCategory: nil).count >= EngineCatalog.filterCount)
    }

    @Test func valuesOfEverySwiftAndFoundationKindAreTaken() throws {
        let image = CIImage(color: .white).cropped(to: CGRect(x: 0, y: 0, width: 8, height: 8))
        let reference = Pixels.rgba8(image.applyingFilter("CISepiaTone", parameters: [kCIInputIntensityKey: 0.5]))
        let values: [Any] = [0.5, Float(0.5), CGFloat(0.5), NSNumber(value: 0.5)]
        for value in values {
            let out = image.applyingFilter("CISepiaTone", parameters: [kCIInputIntensityKey: value])
            #expect(Pixels.rgba8(out) == reference, "\(type(of: value))")
        }
        // Points as CGPoint or CIVector, colours as CIColor.
        let a = try #require(CIFilter(name: "CIRadialGradient", parameters: ["inputCenter": CGPoint(x: 4, y: 4)])?.outputImage)
        let b = try #require(CIFilter(name: "CIRadialGradient", parameters: ["inputCenter": CIVector(x: 4, y: 4)])?.outputImage)
        let rect = CGRect(x: 0, y: 0, width: 8, height: 8)
        #expect(Pixels.rgba8(a, rect) == Pixels.rgba8(b, rect))
    }

    @Test func valuesOutsideTheSliderRangeAreKept() throws {
        // Core Image takes any finite number (the review's silent vignette): 1.2 is kept and used.
        let filter = try #require(CIFilter(name: "CIVignette"))
        filter.setValue(CIImage(contentsOf: Samples.chelsea)!, forKey: kCIInputImageKey)
        filter.setValue(1.2, forKey: kCIInputIntensityKey)
        #expect((filter.value(forKey: kCIInputIntensityKey) as? Double) == 1.2)
        let out = try #require(filter.outputImage)
        let plain = Pixels.rgba8(CIImage(contentsOf: Samples.chelsea)!, CGRect(x: 0, y: 0, width: 4, height: 4))
        let vignetted = Pixels.rgba8(out, CGRect(x: 0, y: 0, width: 4, height: 4))
        #expect(vignetted[0] < plain[0])
    }

    // MARK: Typed filters

    @Test func everyTypedBuiltinIsTheFilterOfItsName() throws {
        #expect(builtinFilterFactories.count == EngineCatalog.filterCount)
        for (name, typedName, make) in builtinFilterFactories {
            let filter = make()
            #expect(filter.name == name)
            #expect(filter.inputKeys == CIFilter(name: name)!.inputKeys)
            // The name without `CI` (whole when it has none), letter for letter; only the case may differ.
            let unprefixed = name.hasPrefix("CI") ? String(name.dropFirst(2)) : name
            #expect(unprefixed.lowercased().hasPrefix(typedName.lowercased()), "\(name) → \(typedName)")
        }
        #expect(CIFilter.histogramEqualization().name == "HistogramEqualization")
        #expect(CIFilter.yCbCrSplitView().name == "YCbCrSplitView")
        let vignette = CIFilter.vignette()
        vignette.intensity = 1
        vignette.radius = 3
        #expect(vignette.intensity == 1 && (vignette.value(forKey: kCIInputRadiusKey) as? Float) == 3)
        let gradient = CIFilter.linearGradient()
        gradient.point1 = CGPoint(x: 10, y: 20)
        gradient.color0 = .red
        #expect(gradient.point1 == CGPoint(x: 10, y: 20) && gradient.color0 == .red)
        let crop = CIFilter.areaAverage()
        crop.extent = CGRect(x: 1, y: 2, width: 3, height: 4)
        #expect(crop.extent == CGRect(x: 1, y: 2, width: 3, height: 4))
        let matrix = CIFilter.colorMatrix()
        #expect(matrix.rVector == CIVector(x: 1, y: 0, z: 0, w: 0))
        let blend: CIFilter & CICompositeOperation = CIFilter.multiplyCompositing()
        #expect(blend.backgroundImage == nil)
        let transition: CIFilter & CITransitionFilter = CIFilter.dissolveTransition()
        transition.time = 0.25
        #expect(transition.time == 0.25)
        let qr = CIFilter.qrCodeGenerator()
        qr.message = Data("hi".utf8)
        #expect(qr.correctionLevel == "M" && qr.outputImage != nil)
        let kaleidoscope = CIFilter.kaleidoscope()
        kaleidoscope.count = 6
        #expect(kaleidoscope.count == 6)
        #expect(CIFilter.cmykHalftone().grayComponentReplacement == 1)
        #expect(CIFilter.exposureAdjust().ev == 0)
        #expect(CIFilter.sRGBToneCurveToLinear().name == "CISRGBToneCurveToLinear")
    }

    // MARK: Registration and subclasses

    final class Brighten: CIFilter {
        var inputImage: CIImage?
        var inputAmount: CGFloat = 0.1
        var inputCount: Int = 0
        var inputFlag: Bool = false
        override var outputImage: CIImage? {
            inputImage?.applyingFilter("CIColorControls", parameters: [kCIInputBrightnessKey: inputAmount])
        }
    }

    struct Vendor: CIFilterConstructor {
        func filter(withName name: String) -> CIFilter? { name == "BrightenFilter" ? Brighten() : nil }
    }

    @Test func subclassesTakeValuesByKeyIntoStoredProperties() throws {
        let filter = Brighten()
        filter.setValue(NSNumber(value: 0.3), forKey: "inputAmount")
        filter.setValue(4.0, forKey: "inputCount")
        filter.setValue(true, forKey: "inputFlag")
        filter.setValue(42, forKey: "inputUnknown")
        #expect(filter.inputAmount == 0.3 && filter.inputCount == 4 && filter.inputFlag)
        #expect(filter.value(forKey: "inputUnknown") as? Int == 42)
        #expect(filter.inputKeys == ["inputImage", "inputAmount", "inputCount", "inputFlag"])
        #expect(filter.name == "Brighten")
        filter.setValue("renamed", forKey: "assignedName")   // CIFilter's own storage is not reachable by key
        #expect(filter.name == "Brighten")
        filter.setValue(nil, forKey: kCIInputImageKey)
        #expect(filter.inputImage == nil && filter.outputImage == nil)
    }

    @Test func registeredFiltersAreFoundByName() throws {
        CIFilter.registerName("BrightenFilter", constructor: Vendor(),
                              classAttributes: [kCIAttributeFilterCategories: ["CustomCategory"],
                                                kCIAttributeFilterDisplayName: "Brighten"])
        #expect(CIFilter.filterNames(inCategory: "CustomCategory") == ["BrightenFilter"])
        #expect(CIFilter.localizedName(forFilterName: "BrightenFilter") == "Brighten")
        let filter = try #require(CIFilter(name: "BrightenFilter", parameters: ["inputAmount": 0.5]))
        #expect(filter.name == "BrightenFilter")
        #expect((filter as? Brighten)?.inputAmount == 0.5)
        let image = CIImage(color: CIColor(red: 0.2, green: 0.2, blue: 0.2)).cropped(to: CGRect(x: 0, y: 0, width: 2, height: 2))
        filter.setValue(image, forKey: kCIInputImageKey)
        let expected = image.applyingFilter("CIColorControls", parameters: [kCIInputBrightnessKey: 0.5])
        #expect(Pixels.rgba8(try #require(filter.outputImage)) == Pixels.rgba8(expected))
        #expect(Pixels.rgba8(image.applyingFilter("BrightenFilter", parameters: ["inputAmount": 0.5])) == Pixels.rgba8(expected))
    }

    // MARK: Images

    /// A 2×3 image whose pixels all differ: red channel = 40·column + 10, green = 40·row-from-top + 10.
    static func grid() -> CIImage {
        var bytes = [UInt8]()
        for row in 0..<3 { for column in 0..<2 { bytes += [UInt8(40 * column + 10), UInt8(40 * row + 10), 0, 255] } }
        return CIImage(bitmapData: Data(bytes), bytesPerRow: 8, size: CGSize(width: 2, height: 3), format: .RGBA8,
                       colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
    }

    @Test func orientationsTurnTheImageUpright() {
        let image = Self.grid()
        let topLeft: [UInt8] = [10, 10, 0, 255]  // the stored top-left pixel
        // Where the stored top-left pixel is shown for each EXIF orientation (x, row from the top), and the size.
        let expected: [(CGImagePropertyOrientation, Int, Int, Int, Int)] = [
            (.up, 0, 0, 2, 3), (.upMirrored, 1, 0, 2, 3), (.down, 1, 2, 2, 3), (.downMirrored, 0, 2, 2, 3),
            (.leftMirrored, 0, 0, 3, 2), (.right, 2, 0, 3, 2), (.rightMirrored, 2, 1, 3, 2), (.left, 0, 1, 3, 2),
        ]
        for (orientation, x, row, width, height) in expected {
            let out = image.oriented(orientation)
            #expect(out.extent == CGRect(x: 0, y: 0, width: width, height: height), "\(orientation)")
            #expect(Pixels.at(Pixels.rgba8(out), width: width, x: x, yFromTop: row) == topLeft, "\(orientation)")
            #expect(Pixels.rgba8(image.oriented(forExifOrientation: Int32(orientation.rawValue))) == Pixels.rgba8(out))
        }
    }

    @Test func samplingNearestKeepsPixelsSharp() {
        let image = Self.grid()
        let scaled = image.samplingNearest().transformed(by: CGAffineTransform(scaleX: 4, y: 4))
        let values = Set(Pixels.rgba8(scaled).enumerated().filter { $0.offset % 4 == 0 }.map(\.element))
        #expect(values == [10, 50])
        let smooth = image.transformed(by: CGAffineTransform(scaleX: 4, y: 4))
        #expect(Set(Pixels.rgba8(smooth).enumerated().filter { $0.offset % 4 == 0 }.map(\.element)).count > 2)
    }

    @Test func alphaOperations() {
        let half = CIImage(color: CIColor(red: 1, green: 1, blue: 1, alpha: 0.5)).cropped(to: CGRect(x: 0, y: 0, width: 2, height: 2))
        let opaque = half.settingAlphaOne(in: CGRect(x: 0, y: 0, width: 1, height: 2))
        #expect(opaque.extent == CGRect(x: 0, y: 0, width: 1, height: 2))
        #expect(Pixels.linear(opaque, x: 0, y: 0) == [0.5, 0.5, 0.5, 1])
        let un = half.unpremultiplyingAlpha()
        #expect(Pixels.linear(un, x: 0, y: 0) == [1, 1, 1, 0.5])
        #expect(Pixels.linear(un.premultiplyingAlpha(), x: 0, y: 0) == [0.5, 0.5, 0.5, 0.5])
        #expect(half.clampedToExtent().extent.isInfinite)
        #expect(CIImage.empty().extent.isEmpty)
        #expect(half.clamped(to: CGRect(x: 0, y: 0, width: 1, height: 1)).extent.isInfinite)
    }

    @Test func applyingGaussianBlurIsTheGaussianBlurFilter() {
        let image = Self.grid()
        let a = image.applyingGaussianBlur(sigma: 2)
        let b = CIFilter.gaussianBlur()
        b.inputImage = image
        b.radius = 2
        #expect(a.extent == b.outputImage!.extent)
        #expect(Pixels.rgba8(a) == Pixels.rgba8(b.outputImage!))
    }

    // MARK: Context

    @Test func renderFormatsAndColorSpaces() {
        let image = CIImage(color: CIColor(red: 0.5, green: 0.25, blue: 1, alpha: 0.5)).cropped(to: CGRect(x: 0, y: 0, width: 1, height: 1))
        let context = CIContext()
        var bgra = [UInt8](repeating: 0, count: 4)
        context.render(image, toBitmap: &bgra, rowBytes: 4, bounds: image.extent, format: .BGRA8, colorSpace: CGColorSpaceCreateDeviceRGB())
        // Premultiplied sRGB bytes in B, G, R, A order.
        #expect(bgra == [128, 32, 64, 128])
        var straight = [UInt8](repeating: 0, count: 4)
        CIContext(options: [.outputPremultiplied: false]).render(image, toBitmap: &straight, rowBytes: 4, bounds: image.extent,
                                                                 format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        #expect(straight == [128, 64, 255, 128])
        var floats = [Float](repeating: 0, count: 4)
        context.render(image, toBitmap: &floats, rowBytes: 16, bounds: image.extent, format: .RGBAf, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        #expect(abs(floats[0] - 0.25) < 1e-3 && abs(floats[2] - 0.5) < 1e-3 && floats[3] == 0.5)
        var linear = [Float](repeating: 0, count: 4)
        context.render(image, toBitmap: &linear, rowBytes: 16, bounds: image.extent, format: .RGBAf, colorSpace: CGColorSpace(name: CGColorSpace.linearSRGB))
        #expect(abs(linear[0] - 0.2140 * 0.5) < 1e-3)
        var grey = [UInt8](repeating: 0, count: 1)
        context.render(CIImage(color: .white).cropped(to: image.extent), toBitmap: &grey, rowBytes: 1, bounds: image.extent,
                       format: .L8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        #expect(grey == [255])
    }

    @Test func pngAndJPEGRoundTrip() throws {
        let context = CIContext()
        let image = CIImage(contentsOf: Samples.chelsea)!
        let png = try #require(context.pngRepresentation(of: image, format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB)!))
        let back = try #require(CIImage(data: png))
        #expect(back.extent == image.extent)
        #expect(Pixels.rgba8(back) == Pixels.rgba8(image))
        let jpeg = try #require(context.jpegRepresentation(of: image, colorSpace: CGColorSpace(name: CGColorSpace.sRGB)!,
                                                           options: [CIImageRepresentationOption(rawValue: kCGImageDestinationLossyCompressionQuality): 0.9]))
        #expect(jpeg.starts(with: [0xFF, 0xD8]))
        #expect(CIImage(data: jpeg)?.extent == image.extent)
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("coreimage-test-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: url) }
        try context.writePNGRepresentation(of: image, to: url, format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB)!)
        #expect(CIImage(contentsOf: url)?.extent == image.extent)
        #expect(CIImage(contentsOf: url)?.properties[kCGImagePropertyPixelWidth] as? Int == Int(image.extent.width))
        // Infinite images cannot be written: nil, as in Core Image.
        #expect(context.pngRepresentation(of: CIImage(color: .red), format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB)!) == nil)
        #expect(CIImage(data: Data([1, 2, 3])) == nil)
    }

    @Test func oneContextServesConcurrentRequests() async throws {
        // A server's pattern: one shared context, a filter per request, renders from several tasks at once.
        let context = CIContext()
        let input = CIImage(contentsOf: Samples.chelsea)!
        func render(_ intensity: Float) -> Data? {
            let sepia = CIFilter.sepiaTone()
            sepia.inputImage = input
            sepia.intensity = intensity
            guard let cgImage = context.createCGImage(sepia.outputImage!, from: input.extent) else { return nil }
            return cgImage.dataProvider?.data
        }
        let serial = [render(0.2), render(0.9)]
        let concurrent = await withTaskGroup(of: (Int, Data?).self) { group in
            for i in 0..<8 { group.addTask { (i, render(i % 2 == 0 ? 0.2 : 0.9)) } }
            var results: [(Int, Data?)] = []
            for await result in group { results.append(result) }
            return results
        }
        #expect(concurrent.count == 8)
        for (i, data) in concurrent { #expect(data != nil && data == serial[i % 2]) }
    }

    @Test func cgImageRoundTrip() throws {
        let image = Self.grid()
        let cgImage = try #require(CIContext().createCGImage(image, from: image.extent))
        #expect(cgImage.width == 2 && cgImage.height == 3 && cgImage.alphaInfo == .premultipliedLast)
        let back = CIImage(cgImage: cgImage)
        #expect(Pixels.rgba8(back) == Pixels.rgba8(image))
        #expect(CIContext().createCGImage(CIImage(color: .red), from: .infinite) == nil)
    }
}
