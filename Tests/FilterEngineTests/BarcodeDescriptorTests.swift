import Foundation
import Testing
@testable import FilterEngine

/// CIBarcodeGenerator and its descriptor value: the text form, descriptors made from messages drawing exactly
/// what the matching generators draw, explicit payloads (masks, layers, rows and columns honoured), decoding by
/// zxing-cpp, and the errors.
@Suite struct BarcodeDescriptorTests {
    static func render(_ text: String) throws -> Image {
        try TestImages.filter("CIBarcodeGenerator", ["inputBarcodeDescriptor": .barcode(try BarcodeDescriptor.parse(text))])
    }

    static func same(_ a: Image, _ b: Image) throws -> Bool {
        guard a.extent == b.extent else { return false }
        return TestImages.maxDifference(try TestImages.render(a), try TestImages.render(b)) == 0
    }

    @Test func qrFromMessageMatchesTheQRGenerator() throws {
        for (message, level) in [("Hello", "M"), ("https://example.com/a/longer/path?query=1", "L"), ("H level", "H"),
                                 (String(repeating: "Version seven and up ", count: 8), "Q")] {
            let descriptor = try BarcodeDescriptor.parse("qr:level=\(level),message=\(message)")
            let viaDescriptor = try TestImages.filter("CIBarcodeGenerator", ["inputBarcodeDescriptor": .barcode(descriptor)])
            #expect(try Self.same(viaDescriptor, try BarcodeTests.qr(message, level)), "\(message) at \(level)")
            // The text form reads back to the same descriptor.
            #expect(try BarcodeDescriptor.parse(descriptor.description) == descriptor)
        }
    }

    @Test func qrPayloadHonoursVersionMaskAndLevel() throws {
        guard case let .qr(payload, version, _, _) = try BarcodeDescriptor.parse("qr:level=Q,message=Mask test") else {
            Issue.record("not a QR descriptor"); return
        }
        for mask in 0..<8 {
            let hex = BarcodeDescriptor.hex(payload)
            let image = try Self.render("qr:version=\(version),mask=\(mask),level=Q,payload=\(hex)")
            let decoded = try BarcodeTests.decode(try BarcodeTests.modules(image).dark)
            #expect(decoded.mask == mask && decoded.version == version && decoded.level == QRCode.Level.quartile.formatBits)
            #expect(decoded.message == Array("Mask test".utf8))
        }
    }

    @Test func aztecFromMessageMatchesTheAztecGenerator() throws {
        for (message, options, inputs) in [
            ("Hello Aztec", "", [String: FilterValue]()),
            ("Compact only", "compact=1,", ["inputCompactStyle": .number(1)]),
            (String(repeating: "Full range with ten layers ", count: 5), "layers=10,correction=40,",
             ["inputLayers": .number(10), "inputCorrectionLevel": .number(40)]),
        ] {
            let descriptor = try BarcodeDescriptor.parse("aztec:\(options)message=\(message)")
            var values = inputs
            values["inputMessage"] = .data(Array(message.utf8))
            let generator = try TestImages.filter("CIAztecCodeGenerator", values)
            #expect(try Self.same(try TestImages.filter("CIBarcodeGenerator", ["inputBarcodeDescriptor": .barcode(descriptor)]), generator))
            #expect(try BarcodeDescriptor.parse(descriptor.description) == descriptor)
        }
        // Packing words into the payload's bit string and back.
        let words = [1, 63, 17, 42, 5]
        #expect(AztecCode.unpackWords(AztecCode.packWords(words, wordSize: 6), count: 5, wordSize: 6) == words)
    }

    @Test func pdf417FromMessageMatchesThePDF417Generator() throws {
        for (options, inputs) in [("", [String: FilterValue]()),
                                  ("columns=3,level=4,", ["inputDataColumns": .number(3), "inputCorrectionLevel": .number(4)]),
                                  ("compact=1,rows=12,", ["inputCompactStyle": .number(1), "inputRows": .number(12)])] {
            let message = "PDF417 through a descriptor, 1234567890123"
            let descriptor = try BarcodeDescriptor.parse("pdf417:\(options)message=\(message)")
            var values = inputs
            values["inputMessage"] = .data(Array(message.utf8))
            let generator = try TestImages.filter("CIPDF417BarcodeGenerator", values)
            #expect(try Self.same(try TestImages.filter("CIBarcodeGenerator", ["inputBarcodeDescriptor": .barcode(descriptor)]), generator))
            #expect(try BarcodeDescriptor.parse(descriptor.description) == descriptor)
        }
    }

    @Test func descriptorsDecode() throws {
        let texts = ["qr:level=H,message=QR, via a descriptor", "aztec:correction=50,message=Aztec, via a descriptor",
                     "aztec:compact=1,message=compact", "pdf417:message=PDF417, via a descriptor",
                     "pdf417:compact=1,columns=2,message=compact PDF417"]
        let images = try texts.map(Self.render)
        guard let decoded = try BarcodeDecoder.decode(images) else { return }
        let formats = ["QR Code", "Aztec", "Aztec", "PDF417", "PDF417"]
        for (i, text) in texts.enumerated() {
            let message = String(text[text.range(of: "message=")!.upperBound...])
            #expect(decoded[i] == [BarcodeDecoder.Result(format: formats[i], bytes: Array(message.utf8))], "\(text)")
        }
    }

    /// Every ECC 200 size (square, rectangular, one to 36 data regions, one to 10 interleaved blocks) from an
    /// explicit payload: letters in ASCII encodation, one codeword each, filling the symbol.
    @Test func dataMatrixEverySize() throws {
        var images: [Image] = [], messages: [[UInt8]] = []
        for size in DataMatrixCode.sizes {
            let message = (0..<size.dataCodewords).map { UInt8(65 + $0 % 26) }
            let payload = BarcodeDescriptor.hex(message.map { $0 + 1 })
            let image = try Self.render("datamatrix:rows=\(size.rows),columns=\(size.columns),ecc=200,payload=\(payload)")
            #expect(image.extent == Rect(x: 0, y: 0, width: Double(size.columns + 2), height: Double(size.rows + 2)))
            // Finder: the left column and bottom row of the symbol are dark; the top-left module of the clock too.
            let m = try BarcodeTests.modules(image)
            #expect((1...size.rows).allSatisfy { m.dark[$0][1] } && (1...size.columns).allSatisfy { m.dark[size.rows][$0] })
            images.append(image)
            messages.append(message)
        }
        // Made from a message: ASCII encodation with digit pairs, the smallest square size that holds it.
        let text = Array("Data Matrix 2024-11-25".utf8)
        images.append(try Self.render("datamatrix:message=" + String(decoding: text, as: UTF8.self)))
        messages.append(text)
        guard let decoded = try BarcodeDecoder.decode(images) else { return }
        for i in images.indices {
            #expect(decoded[i] == [BarcodeDecoder.Result(format: "Data Matrix", bytes: messages[i])], "symbol \(i)")
        }
    }

    @Test func explicitPDF417Payload() throws {
        // "PDF417" as the tutorial's 3 × 3 symbol: length 5, four text codewords, four check words (level 1).
        let words = [5, 453, 178, 121, 239]
        let payload = BarcodeDescriptor.hex(words.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] })
        let image = try Self.render("pdf417:compact=0,rows=3,columns=3,payload=\(payload)")
        #expect(image.extent == Rect(x: 0, y: 0, width: Double(17 * 3 + 69 + 4), height: 13))
        guard let decoded = try BarcodeDecoder.decode([image]) else { return }
        #expect(decoded[0] == [BarcodeDecoder.Result(format: "PDF417", bytes: Array("PDF417".utf8))])
    }

    @Test func commandLineValues() throws {
        let input = try #require(Catalog.builtIn.filter(named: "CIBarcodeGenerator")?.input("inputBarcodeDescriptor"))
        let value = try ValueParser.parse("qr:level=L,message=CLI, with commas", for: input, filter: "CIBarcodeGenerator")
        guard case .barcode(let descriptor) = value else { Issue.record("not a descriptor"); return }
        #expect(ValueParser.format(value) == descriptor.description)
        #expect(try ValueParser.parse(ValueParser.format(value), for: input, filter: "CIBarcodeGenerator").description == value.description)
    }

    @Test func errorsNameWhatIsWrong() throws {
        func message(_ text: String) -> String {
            do { _ = try Self.render(text); return "" } catch { return "\(error)" }
        }
        #expect(message("ean:message=1").contains("unknown symbology"))
        #expect(message("qr:version=1,mask=0,level=M,payload=00").contains("16 data codewords"))
        #expect(message("qr:version=1,mask=9,level=M,payload=00").contains("mask"))
        #expect(message("qr:version=2,level=M,payload=00").contains("needs mask="))
        #expect(message("qr:level=M,colour=red,message=x").contains("no colour="))
        #expect(message("aztec:layers=5,compact=1,words=1,payload=00").contains("1…4"))
        #expect(message("pdf417:rows=3,columns=3,payload=0500").contains("counts its codewords"))
        #expect(message("pdf417:rows=3,columns=4,payload=0100").contains("check words"))
        #expect(message("datamatrix:rows=10,columns=10,payload=00").contains("holds 3 data codewords"))
        #expect(message("datamatrix:rows=10,columns=12,payload=00").contains("not a Data Matrix ECC 200 size"))
        #expect(message("datamatrix:ecc=140,rows=10,columns=10,payload=000000").contains("ECC 200"))
        #expect(message("qr:payload=zz,version=1,mask=0").contains("hexadecimal"))
        // Through the filter's value check too, as Core Image returns no image for such a descriptor.
        let filter = try Filter(named: "CIBarcodeGenerator")
        #expect(throws: FilterError.self) {
            try filter.setValue(.barcode(.qr(payload: [0], version: 1, mask: 0, level: "M")), forKey: "inputBarcodeDescriptor")
        }
    }
}
