import Foundation
import Testing
import CoreImage
import CoreImage.CIFilterBuiltins

/// The Swift examples of the README and docs/porting.md, run as written there except for the file paths
/// (`examplesAreTheDocumentedOnes` holds this file to the pages' text).
@Suite struct ReadmeExampleTests {
    @Test func portingExampleRuns() throws {
        let outURL = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: outURL) }

        let context = CIContext()
        let input = CIImage(contentsOf: Samples.chelsea)!

        let sepia = CIFilter.sepiaTone()
        sepia.inputImage = input
        sepia.intensity = 0.8

        let vignette = CIFilter(name: "CIVignette", parameters: [kCIInputImageKey: sepia.outputImage!,
                                                                  kCIInputIntensityKey: 1.2, kCIInputRadiusKey: 2])!
        let badge = CIImage(color: CIColor(red: 1, green: 1, blue: 1, alpha: 0.5))
            .cropped(to: CGRect(x: 0, y: 0, width: 80, height: 40))
            .transformed(by: CGAffineTransform(translationX: 16, y: 16))
        let result = badge.composited(over: vignette.outputImage!).cropped(to: input.extent)

        try context.writeJPEGRepresentation(of: result, to: outURL,
                                            colorSpace: CGColorSpace(name: CGColorSpace.sRGB)!,
                                            options: [CIImageRepresentationOption(rawValue: kCGImageDestinationLossyCompressionQuality): 0.9])
        let png: Data? = context.pngRepresentation(of: result, format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB)!)
        print(result.extent, png?.count ?? 0)

        #expect(result.extent == input.extent)
        #expect(CIImage(contentsOf: outURL)?.extent == input.extent)
        #expect(CIImage(data: try #require(png))?.extent == input.extent)
        // The badge is half-transparent white over the image: lighter than the image there.
        let inside = Pixels.rgba8(result, CGRect(x: 20, y: 20, width: 1, height: 1))
        let under = Pixels.rgba8(vignette.outputImage!, CGRect(x: 20, y: 20, width: 1, height: 1))
        #expect(inside[0] > under[0] && inside[2] > under[2])
    }

    @Test func readmeExampleRuns() throws {
        let outURL = FileManager.default.temporaryDirectory.appendingPathComponent("readme-\(UUID().uuidString).png")
        defer { try? FileManager.default.removeItem(at: outURL) }

        let input = CIImage(contentsOf: Samples.chelsea)!
        let sepia = CIFilter.sepiaTone()
        sepia.inputImage = input
        sepia.intensity = 0.8
        let result = sepia.outputImage!.applyingFilter("CIVignette", parameters: [kCIInputIntensityKey: 1.2])
        try CIContext().writePNGRepresentation(of: result, to: outURL,
                                               format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB)!)

        let written = try #require(CIImage(contentsOf: outURL))
        #expect(written.extent == input.extent)
        // The vignette darkens the corners against the sepia image alone.
        let corner = Pixels.rgba8(written, CGRect(x: 0, y: 0, width: 1, height: 1))
        let plain = Pixels.rgba8(sepia.outputImage!, CGRect(x: 0, y: 0, width: 1, height: 1))
        #expect(Int(corner[0]) + Int(corner[1]) + Int(corner[2]) < Int(plain[0]) + Int(plain[1]) + Int(plain[2]))
    }

    /// Every line of the pages' Swift programs is a line of this file, once the pages' file paths are read as the
    /// tests' (the sample image, the output file): a change to an example on a page fails here until the test
    /// runs the same code.
    @Test func examplesAreTheDocumentedOnes() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent()
        let source = try String(contentsOf: URL(fileURLWithPath: #filePath), encoding: .utf8)
        let ownLines = Set(source.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) })
        var programs = 0
        for page in ["README.md", "docs/porting.md"] {
            let text = try String(contentsOf: root.appendingPathComponent(page), encoding: .utf8)
            for block in Self.swiftBlocks(in: text) where block.contains("import CoreImage") {
                programs += 1
                for line in block.split(separator: "\n") {
                    let trimmed = line.trimmingCharacters(in: .whitespaces)
                    if trimmed.isEmpty || trimmed.hasPrefix("//") || trimmed.hasPrefix("import ") { continue }
                    let asTested = trimmed
                        .replacingOccurrences(of: #"URL(fileURLWithPath: "SampleImages/chelsea.png")"#, with: "Samples.chelsea")
                        .replacingOccurrences(of: #"URL(fileURLWithPath: "out.jpg")"#, with: "outURL")
                        .replacingOccurrences(of: #"URL(fileURLWithPath: "out.png")"#, with: "outURL")
                    #expect(ownLines.contains(asTested), "\(page): this line is not what ReadmeExampleTests runs: \(trimmed)")
                }
            }
        }
        #expect(programs == 2, "the README and docs/porting.md each show one program")
    }

    static func swiftBlocks(in text: String) -> [String] {
        var blocks: [String] = []
        var current: [Substring]? = nil
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if current == nil, line.hasPrefix("```swift") {
                current = []
            } else if current != nil, line.hasPrefix("```") {
                blocks.append(current!.joined(separator: "\n"))
                current = nil
            } else {
                current?.append(line)
            }
        }
        return blocks
    }
}
