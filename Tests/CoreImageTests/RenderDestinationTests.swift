import Foundation
import Testing
import CoreImage

/// CIRenderDestination, CIRenderTask and CIRenderInfo, written from Apple's documentation: a bitmap destination
/// filled by `startTask(toRender:…)`, with its alpha mode, flip, blend kernel and clear.
@Suite struct RenderDestinationTests {
    let context = CIContext()
    /// 4×2: a red left half, a blue right half.
    let halves = CIImage(color: .red).cropped(to: CGRect(x: 0, y: 0, width: 2, height: 2))
        .composited(over: CIImage(color: .blue).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 2)))

    func pixel(_ bytes: [UInt8], _ x: Int, _ row: Int, width: Int = 4) -> [UInt8] {
        Array(bytes[(row * width + x) * 4 ..< (row * width + x) * 4 + 4])
    }

    @Test func rendersTheWholeDestinationLikeRenderToBitmap() throws {
        var bytes = [UInt8](repeating: 7, count: 4 * 2 * 4)
        let image = halves.cropped(to: CGRect(x: 0, y: 1, width: 4, height: 1))   // only the top row
        try bytes.withUnsafeMutableBytes { memory in
            let destination = CIRenderDestination(bitmapData: memory.baseAddress!, width: 4, height: 2, bytesPerRow: 16, format: .RGBA8)
            #expect(destination.width == 4 && destination.height == 2 && destination.alphaMode == .premultiplied)
            let info = try context.startTask(toRender: image, to: destination).waitUntilCompleted()
            #expect(info.pixelsProcessed == 8 && info.passCount == 1 && info.kernelExecutionTime >= 0)
        }
        #expect(pixel(bytes, 0, 0) == [255, 0, 0, 255] && pixel(bytes, 3, 0) == [0, 0, 255, 255])
        #expect(pixel(bytes, 0, 1) == [0, 0, 0, 0])   // outside the image: transparent, written
        var reference = [UInt8](repeating: 0, count: 32)
        context.render(image, toBitmap: &reference, rowBytes: 16, bounds: CGRect(x: 0, y: 0, width: 4, height: 2),
                       format: .RGBA8, colorSpace: CGColorSpace(name: CGColorSpace.sRGB))
        #expect(bytes == reference)
    }

    @Test func fromRectLandsAtThePointAndLeavesTheRest() throws {
        var bytes = [UInt8](repeating: 9, count: 4 * 2 * 4)
        try bytes.withUnsafeMutableBytes { memory in
            let destination = CIRenderDestination(bitmapData: memory.baseAddress!, width: 4, height: 2, bytesPerRow: 16, format: .RGBA8)
            // The image's blue pixel at (3, 0) lands at (0, 1): the destination's top-left.
            _ = try context.startTask(toRender: halves, from: CGRect(x: 3, y: 0, width: 1, height: 1), to: destination,
                                      at: CGPoint(x: 0, y: 1))
        }
        #expect(pixel(bytes, 0, 0) == [0, 0, 255, 255])
        #expect(pixel(bytes, 1, 0) == [9, 9, 9, 9] && pixel(bytes, 0, 1) == [9, 9, 9, 9])
    }

    @Test func flippedAlphaModesAndFloatFormats() throws {
        var bytes = [UInt8](repeating: 0, count: 32)
        try bytes.withUnsafeMutableBytes { memory in
            let destination = CIRenderDestination(bitmapData: memory.baseAddress!, width: 4, height: 2, bytesPerRow: 16, format: .RGBA8)
            destination.isFlipped = true
            _ = try context.startTask(toRender: halves.cropped(to: CGRect(x: 0, y: 1, width: 4, height: 1)), to: destination)
        }
        // Flipped: the first row in memory is the bottom one (empty here); the top row comes second.
        #expect(pixel(bytes, 0, 0) == [0, 0, 0, 0] && pixel(bytes, 0, 1) == [255, 0, 0, 255])

        let halfRed = CIImage(color: CIColor(red: 1, green: 0, blue: 0, alpha: 0.5)).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 2))
        for (mode, expected) in [(CIRenderDestinationAlphaMode.premultiplied, [128, 0, 0, 128] as [UInt8]),
                                 (.unpremultiplied, [255, 0, 0, 128]),
                                 // No alpha: our reading (Apple documents only "no alpha compositing", and no
                                 // Apple render shows it): the premultiplied colour as it is, i.e. over black,
                                 // as settingAlphaOne gives (linear 0.5 encodes to 188).
                                 (.none, [188, 0, 0, 255])] {
            try bytes.withUnsafeMutableBytes { memory in
                let destination = CIRenderDestination(bitmapData: memory.baseAddress!, width: 4, height: 2, bytesPerRow: 16, format: .RGBA8)
                destination.alphaMode = mode
                _ = try context.startTask(toRender: halfRed, to: destination)
            }
            #expect(pixel(bytes, 2, 1) == expected, "\(mode)")
        }

        var floats = [Float](repeating: -1, count: 4 * 2 * 4)
        try floats.withUnsafeMutableBytes { memory in
            let destination = CIRenderDestination(bitmapData: memory.baseAddress!, width: 4, height: 2, bytesPerRow: 64, format: .RGBAf)
            destination.colorSpace = CGColorSpace(name: CGColorSpace.linearSRGB)
            _ = try context.startTask(toRender: halfRed, to: destination)
        }
        #expect(Array(floats[0..<4]) == [0.5, 0, 0, 0.5])
    }

    @Test func aBlendKernelBlendsOverTheCurrentPixelsAndClearEmpties() throws {
        var bytes = [UInt8](repeating: 0, count: 32)
        try bytes.withUnsafeMutableBytes { memory in
            let destination = CIRenderDestination(bitmapData: memory.baseAddress!, width: 4, height: 2, bytesPerRow: 16, format: .RGBA8)
            _ = try context.startTask(toRender: CIImage(color: .white), to: destination)
            destination.blendKernel = .multiply
            _ = try context.startTask(toRender: halves, to: destination)
        }
        #expect(pixel(bytes, 0, 0) == [255, 0, 0, 255] && pixel(bytes, 3, 1) == [0, 0, 255, 255])
        try bytes.withUnsafeMutableBytes { memory in
            let destination = CIRenderDestination(bitmapData: memory.baseAddress!, width: 4, height: 2, bytesPerRow: 16, format: .RGBA8)
            destination.blendKernel = .sourceOver
            _ = try context.startTask(toClear: destination)   // clear ignores the blend kernel
            try context.prepareRender(halves, from: halves.extent, to: destination, at: .zero)
        }
        #expect(bytes.allSatisfy { $0 == 0 })
    }

    @Test func badRectanglesThrowInsteadOfWriting() throws {
        var bytes = [UInt8](repeating: 5, count: 32)
        bytes.withUnsafeMutableBytes { memory in
            let destination = CIRenderDestination(bitmapData: memory.baseAddress!, width: 4, height: 2, bytesPerRow: 16,
                                                  format: CIFormat(rawValue: 4242))
            #expect(throws: (any Error).self) { try context.startTask(toRender: halves, to: destination) }
            #expect(throws: (any Error).self) { try context.prepareRender(halves, from: halves.extent, to: destination, at: .zero) }
        }
        #expect(bytes.allSatisfy { $0 == 5 })
    }
}
