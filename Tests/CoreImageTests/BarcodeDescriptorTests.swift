import Foundation
import Testing
import CoreImage
import CoreImage.CIFilterBuiltins
import FilterEngine

/// The barcode descriptors as Apple documents them: failable initialisers that refuse invalid parameters,
/// properties that give back what was passed, and CIBarcodeGenerator drawing them by key or typed.
@Suite struct CIBarcodeDescriptorTests {
    /// Valid parameters made by the engine's encoders (the way a descriptor is usually obtained is a detector).
    func engineParts(_ text: String) throws -> FilterEngine.BarcodeDescriptor { try FilterEngine.BarcodeDescriptor.parse(text) }

    @Test func qrDescriptorKeepsItsValuesAndDrawsAsTheGeneratorDoes() throws {
        guard case let .qr(payload, version, mask, level) = try engineParts("qr:level=Q,message=Hello, descriptor") else {
            Issue.record("not a QR descriptor"); return
        }
        #expect(level == "Q")
        let descriptor = try #require(CIQRCodeDescriptor(payload: Data(payload), symbolVersion: version,
                                                         maskPattern: UInt8(mask), errorCorrectionLevel: .levelQ))
        #expect(descriptor.errorCorrectedPayload == Data(payload))
        #expect(descriptor.symbolVersion == version && descriptor.maskPattern == UInt8(mask))
        #expect(descriptor.errorCorrectionLevel == .levelQ)

        // By name and key, as Objective-C code does, and typed.
        let byName = try #require(CIFilter(name: "CIBarcodeGenerator"))
        byName.setValue(descriptor, forKey: "inputBarcodeDescriptor")
        #expect(byName.value(forKey: "inputBarcodeDescriptor") as? CIBarcodeDescriptor === descriptor)
        let typed = CIFilter.barcodeGenerator()
        typed.barcodeDescriptor = descriptor
        let stored: CIBarcodeDescriptor = typed.barcodeDescriptor
        #expect(stored === descriptor)
        let drawn = try #require(byName.outputImage)
        #expect(Pixels.rgba8(drawn) == Pixels.rgba8(try #require(typed.outputImage)))

        // The same message through CIQRCodeGenerator at the same level: the same symbol, pixel for pixel.
        let qr = CIFilter.qrCodeGenerator()
        qr.message = Data("Hello, descriptor".utf8)
        qr.correctionLevel = "Q"
        let generated = try #require(qr.outputImage)
        #expect(drawn.extent == generated.extent)
        #expect(Pixels.rgba8(drawn) == Pixels.rgba8(generated))
    }

    @Test func levelAndECCRawValuesAreCoreImages() {
        #expect(CIQRCodeDescriptor.ErrorCorrectionLevel.levelL.rawValue == 76) // 'L'
        #expect(CIQRCodeDescriptor.ErrorCorrectionLevel.levelM.rawValue == 77)
        #expect(CIQRCodeDescriptor.ErrorCorrectionLevel.levelQ.rawValue == 81)
        #expect(CIQRCodeDescriptor.ErrorCorrectionLevel.levelH.rawValue == 72)
        #expect(CIQRCodeDescriptor.ErrorCorrectionLevel(rawValue: 0) == nil)
        #expect([CIDataMatrixCodeDescriptor.ECCVersion.v000, .v050, .v080, .v100, .v140, .v200].map(\.rawValue) == [0, 50, 80, 100, 140, 200])
    }

    @Test func invalidQRParametersGiveNil() throws {
        guard case let .qr(payload, version, mask, _) = try engineParts("qr:level=M,message=bad values") else { return }
        let data = Data(payload)
        #expect(CIQRCodeDescriptor(payload: data, symbolVersion: version, maskPattern: UInt8(mask), errorCorrectionLevel: .levelM) != nil)
        #expect(CIQRCodeDescriptor(payload: data, symbolVersion: 0, maskPattern: 0, errorCorrectionLevel: .levelM) == nil)
        #expect(CIQRCodeDescriptor(payload: data, symbolVersion: 41, maskPattern: 0, errorCorrectionLevel: .levelM) == nil)
        #expect(CIQRCodeDescriptor(payload: data, symbolVersion: -1, maskPattern: 0, errorCorrectionLevel: .levelM) == nil)
        #expect(CIQRCodeDescriptor(payload: data, symbolVersion: version, maskPattern: 8, errorCorrectionLevel: .levelM) == nil)
        #expect(CIQRCodeDescriptor(payload: data, symbolVersion: version, maskPattern: 9, errorCorrectionLevel: .levelM) == nil)
        // The payload's length is fixed by version and level.
        #expect(CIQRCodeDescriptor(payload: data.dropLast(), symbolVersion: version, maskPattern: 0, errorCorrectionLevel: .levelM) == nil)
        #expect(CIQRCodeDescriptor(payload: data + [0xEC], symbolVersion: version, maskPattern: 0, errorCorrectionLevel: .levelM) == nil)
        #expect(CIQRCodeDescriptor(payload: Data(), symbolVersion: 1, maskPattern: 0, errorCorrectionLevel: .levelL) == nil)
        #expect(CIQRCodeDescriptor(payload: data, symbolVersion: version, maskPattern: 0, errorCorrectionLevel: .levelH) == nil)
    }

    @Test func aztecDescriptor() throws {
        guard case let .aztec(payload, compact, layers, count) = try engineParts("aztec:message=Aztec descriptor") else { return }
        let descriptor = try #require(CIAztecCodeDescriptor(payload: Data(payload), isCompact: compact, layerCount: layers, dataCodewordCount: count))
        #expect(descriptor.errorCorrectedPayload == Data(payload) && descriptor.isCompact == compact)
        #expect(descriptor.layerCount == layers && descriptor.dataCodewordCount == count)
        let generator = CIFilter.barcodeGenerator()
        generator.barcodeDescriptor = descriptor
        let image = try #require(generator.outputImage)
        // A compact symbol is 11 + 4 × layers modules, a full-range one 15 + 4 × layers (+ reference grid); two-module margin.
        #expect(image.extent.width == image.extent.height && image.extent.width >= CGFloat(11 + 4 * layers + 4))

        #expect(CIAztecCodeDescriptor(payload: Data(payload), isCompact: compact, layerCount: 0, dataCodewordCount: count) == nil)
        #expect(CIAztecCodeDescriptor(payload: Data(payload), isCompact: false, layerCount: 33, dataCodewordCount: count) == nil)
        #expect(CIAztecCodeDescriptor(payload: Data(payload), isCompact: true, layerCount: 5, dataCodewordCount: count) == nil)
        #expect(CIAztecCodeDescriptor(payload: Data(payload), isCompact: compact, layerCount: layers, dataCodewordCount: 0) == nil)
        #expect(CIAztecCodeDescriptor(payload: Data(payload), isCompact: compact, layerCount: layers, dataCodewordCount: 2049) == nil)
        // More words than the payload holds.
        #expect(CIAztecCodeDescriptor(payload: Data(payload.prefix(1)), isCompact: compact, layerCount: layers, dataCodewordCount: count) == nil)
    }

    @Test func pdf417Descriptor() throws {
        guard case let .pdf417(payload, compact, rows, columns) = try engineParts("pdf417:columns=3,message=PDF417 descriptor") else { return }
        let descriptor = try #require(CIPDF417CodeDescriptor(payload: Data(payload), isCompact: compact, rowCount: rows, columnCount: columns))
        #expect(descriptor.errorCorrectedPayload == Data(payload) && descriptor.isCompact == compact)
        #expect(descriptor.rowCount == rows && descriptor.columnCount == columns)
        let generator = try #require(CIFilter(name: "CIBarcodeGenerator", parameters: ["inputBarcodeDescriptor": descriptor]))
        #expect(generator.outputImage != nil)

        #expect(CIPDF417CodeDescriptor(payload: Data(payload), isCompact: compact, rowCount: 2, columnCount: columns) == nil)
        #expect(CIPDF417CodeDescriptor(payload: Data(payload), isCompact: compact, rowCount: 91, columnCount: columns) == nil)
        #expect(CIPDF417CodeDescriptor(payload: Data(payload), isCompact: compact, rowCount: rows, columnCount: 0) == nil)
        #expect(CIPDF417CodeDescriptor(payload: Data(payload), isCompact: compact, rowCount: rows, columnCount: 31) == nil)
        #expect(CIPDF417CodeDescriptor(payload: Data(payload.dropLast()), isCompact: compact, rowCount: rows, columnCount: columns) == nil) // odd bytes
        #expect(CIPDF417CodeDescriptor(payload: Data([5, 0, 1, 0]), isCompact: false, rowCount: 3, columnCount: 1) == nil) // count says 5, holds 2
    }

    @Test func dataMatrixDescriptor() throws {
        guard case let .dataMatrix(payload, rows, columns) = try engineParts("datamatrix:message=Data Matrix") else { return }
        let descriptor = try #require(CIDataMatrixCodeDescriptor(payload: Data(payload), rowCount: rows, columnCount: columns, eccVersion: .v200))
        #expect(descriptor.errorCorrectedPayload == Data(payload) && descriptor.eccVersion == .v200)
        #expect(descriptor.rowCount == rows && descriptor.columnCount == columns)
        let generator = CIFilter.barcodeGenerator()
        generator.barcodeDescriptor = descriptor
        #expect(try #require(generator.outputImage).extent == CGRect(x: 0, y: 0, width: columns + 2, height: rows + 2))

        #expect(CIDataMatrixCodeDescriptor(payload: Data(payload), rowCount: 11, columnCount: 11, eccVersion: .v200) == nil)
        #expect(CIDataMatrixCodeDescriptor(payload: Data(payload), rowCount: 9, columnCount: 9, eccVersion: .v200) == nil)
        #expect(CIDataMatrixCodeDescriptor(payload: Data(payload), rowCount: rows, columnCount: columns, eccVersion: .v140) == nil)
        #expect(CIDataMatrixCodeDescriptor(payload: Data(payload + [129]), rowCount: rows, columnCount: columns, eccVersion: .v200) == nil)
    }

    @Test func descriptorsAreValuesThatCopyAndArchive() throws {
        guard case let .qr(payload, version, mask, _) = try engineParts("qr:level=H,message=archive") else { return }
        let descriptor = try #require(CIQRCodeDescriptor(payload: Data(payload), symbolVersion: version, maskPattern: UInt8(mask), errorCorrectionLevel: .levelH))
        let twin = try #require(CIQRCodeDescriptor(payload: Data(payload), symbolVersion: version, maskPattern: UInt8(mask), errorCorrectionLevel: .levelH))
        #expect(descriptor.isEqual(twin) && descriptor.hash == twin.hash)
        #expect(descriptor.copy() as AnyObject === descriptor)
        #expect(CIQRCodeDescriptor.supportsSecureCoding)
        let archive = try NSKeyedArchiver.archivedData(withRootObject: descriptor, requiringSecureCoding: true)
        let restored = try #require(try NSKeyedUnarchiver.unarchivedObject(ofClass: CIQRCodeDescriptor.self, from: archive))
        #expect(restored.isEqual(descriptor) && restored.maskPattern == UInt8(mask) && restored.errorCorrectionLevel == .levelH)
    }

    @Test func generatorWithoutADescriptorGivesNoImage() {
        let generator = CIFilter.barcodeGenerator()
        #expect(generator.outputImage == nil)
        _ = generator.barcodeDescriptor // readable before it is set, as the property is not optional
        let byName = CIFilter(name: "CIBarcodeGenerator")
        byName?.setValue("qr:message=text is not a descriptor", forKey: "inputBarcodeDescriptor")
        #expect(byName?.outputImage == nil)
    }

    /// A QR code read from CIQRCodeGenerator's output, its descriptor drawn again by CIBarcodeGenerator,
    /// tinted on a clear background, then read by the detector and by zxing-cpp: the same message.
    @Test func tintedQRRoundTripThroughTheDescriptor() throws {
        let message = "round trip through CIQRCodeDescriptor"
        let qr = CIFilter.qrCodeGenerator()
        qr.message = Data(message.utf8)
        let detector = try #require(CIDetector(ofType: CIDetectorTypeQRCode, context: nil, options: [CIDetectorAccuracy: CIDetectorAccuracyHigh]))
        let code = try #require(qr.outputImage).transformed(by: CGAffineTransform(scaleX: 5, y: 5))
        let read = try #require(detector.features(in: code).first as? CIQRCodeFeature)
        let found = try #require(read.symbolDescriptor)
        // Made again from its parts, as an app that stored them would.
        let descriptor = try #require(CIQRCodeDescriptor(payload: found.errorCorrectedPayload, symbolVersion: found.symbolVersion,
                                                         maskPattern: found.maskPattern, errorCorrectionLevel: found.errorCorrectionLevel))
        let generator = CIFilter.barcodeGenerator()
        generator.barcodeDescriptor = descriptor
        let symbol = try #require(generator.outputImage).transformed(by: CGAffineTransform(scaleX: 7, y: 7))
        let falseColour = CIFilter.falseColor()
        falseColour.inputImage = symbol
        falseColour.color0 = CIColor(red: 0.05, green: 0.35, blue: 0.2)
        falseColour.color1 = CIColor(red: 0, green: 0, blue: 0, alpha: 0)
        let tinted = try #require(falseColour.outputImage)
        let onCard = tinted.composited(over: CIImage(color: CIColor(red: 0.97, green: 0.97, blue: 0.9)).cropped(to: tinted.extent.insetBy(dx: -20, dy: -20)))
        let again = detector.features(in: onCard).compactMap { $0 as? CIQRCodeFeature }
        #expect(again.map(\.messageString) == [message])
        #expect(again.first?.symbolDescriptor?.isEqual(descriptor) == true)
        if let decoded = try ExternalDecoder.decode(onCard, context: CIContext()) {
            #expect(decoded == [Array(message.utf8)])
        }
    }
}
