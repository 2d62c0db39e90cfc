import Foundation
import Testing
@testable import FilterEngine
@testable import FilterPipeline
@testable import KernelLanguage

/// Image graphs and limits under hostile shapes (issue #30): shared outputs computed once, chains far deeper than
/// any stack, one reader of the environment limits, Y4M headers and stream queues bounded by memory, and the
/// kernel language's program cache bounded by bytes.
@Suite struct GraphReliabilityTests {
    /// A two-input colour kernel that adds its inputs and counts its spans.
    static func adding(_ a: Image, _ b: Image, counter: LockedCounter) -> Image {
        ColorKernel(name: "add") { span in
            counter.increment()
            let o = span.out, d = span.input(1)
            for i in 0..<span.count { o.r[i] += d.r[i]; o.g[i] += d.g[i]; o.b[i] += d.b[i]; o.a[i] += d.a[i] }
        }.apply(extent: a.extent.union(b.extent), inputs: [a, b])
    }

    @Test func aStepReusedByLaterStepsIsComputedOnce() throws {
        // 24 steps, each adding the previous step's output to itself: as a tree, 2^24 evaluations a span.
        let counter = LockedCounter(warning: nil)
        var image = Image(extent: .infinite, kind: .constant(Pixel(1e-6, 0, 0, 1e-6)))
        for _ in 0..<24 { image = Self.adding(image, image, counter: counter) }
        let start = Date()
        let pixels = try TestImages.render(image, Rect(x: 0, y: 0, width: 8, height: 8))
        #expect(Date().timeIntervalSince(start) < 10)
        // One span a row for each step: 24 × 8 rows (whatever the bands), not 2^24.
        #expect(counter.value <= 24 * 8 * 2, "\(counter.value) spans")
        #expect(abs(pixels.pixel(x: 3, y: 3).x - 1e-6 * Float(1 << 24)) < 1e-3)
    }

    @Test func aSharedStepsRegionOfInterestIsTheUnionOfItsReaders() throws {
        let counter = LockedCounter(warning: nil)
        let shared = TestImages.pattern(width: 64, height: 48).transformed(by: .init(a: 1, b: 0, c: 0, d: 1, tx: 0.5, ty: 0))
        let left = shared.transformed(by: .init(a: 1, b: 0, c: 0, d: 1, tx: -10, ty: 0))
        let right = shared.transformed(by: .init(a: 1, b: 0, c: 0, d: 1, tx: 10, ty: 0))
        let sum = Self.adding(left, right, counter: counter)
        let roi = sum.regionOfInterest(of: shared, for: Rect(x: 20, y: 10, width: 4, height: 4))
        // The left reader needs x 30…34, the right one x 10…14: one request covering both.
        #expect(roi.minX <= 10 && roi.maxX >= 34, "\(roi)")
        let direct = try TestImages.render(sum, Rect(x: 20, y: 10, width: 4, height: 4))
        #expect(direct.pixel(x: 21, y: 11).w > 0)
    }

    /// A chain of `length` one-input colour steps on a constant, each adding `step` to red.
    static func chain(_ length: Int, step: Float) -> Image {
        var image = Image(extent: .infinite, kind: .constant(Pixel(0, 0, 0, 1)))
        let kernel = ColorKernel(name: "addRed") { span in
            for i in 0..<span.count { span.out.r[i] += step }
        }
        for _ in 0..<length { image = kernel.apply(extent: image.extent, inputs: [image]) }
        return image
    }

    @Test func aChainOf100000ColourStepsRendersWithoutStackOverflow() throws {
        // Evaluated fused, a chain recursed once per step (a stack overflow near 24,000 on the main thread).
        let pixels = try TestImages.render(Self.chain(100_000, step: 1e-5), Rect(x: 0, y: 0, width: 2, height: 2))
        #expect(abs(pixels.pixel(x: 0, y: 0).x - 1) < 0.01, "\(pixels.pixel(x: 0, y: 0))")
    }

    @Test func aChainOf200000ImagesIsReleasedWithoutRecursion() {
        // Releasing the last image released the one before in its deinit, and so on: 200,000 nested deinits.
        var image: Image? = Image(extent: .infinite, kind: .constant(Pixel(1, 0, 0, 1)))
        for i in 0..<200_000 { image = image!.cropped(to: Rect(x: 0, y: 0, width: Double(1_000_000 - i), height: 10)) }
        #expect(image!.extent.width == 800_001)
        image = nil
    }

    @Test func renderPlansBoundTheirFusedDepth() {
        let plan = RenderPlan(root: Self.chain(1000, step: 0), rect: PixelRect(x: 0, y: 0, width: 1, height: 1))
        // Every run of fused nodes is shorter than the bound.
        var depth = 0, deepest = 0
        for i in plan.nodes.indices {
            depth = plan.materialised[i] ? 0 : depth + 1
            deepest = max(deepest, depth)
        }
        #expect(deepest < RenderPlan.maximumFusedDepth)
        #expect(plan.materialised.filter { $0 }.count >= 1000 / RenderPlan.maximumFusedDepth)
    }

    // MARK: Limits

    @Test func maxPixelsFromTheEnvironmentIsReadOneWay() {
        // "100_000" limited decoding but not the render budget: one reader now serves both.
        #expect(RenderContext.Options.environmentLimit("X", environment: ["X": "100_000"]) == 100_000)
        #expect(RenderContext.Options.environmentLimit("X", environment: ["X": " 3e8 "]) == 300_000_000)
        #expect(RenderContext.Options.environmentLimit("X", environment: ["X": "4294967296"]) == 4_294_967_296)
        for bad in ["", "0", "-5", "nan", "inf", "lots"] {
            #expect(RenderContext.Options.environmentLimit("X", environment: ["X": bad]) == nil, "\(bad)")
        }
        #expect(RenderContext.Options.environmentLimit("X", environment: [:]) == nil)
        #expect(RenderContext.Options.environmentLimit("X", environment: ["X": "1e30"])! >= 1 << 52)
        // Both readers agree on the variable as this process has it.
        #expect(ImageFile.DecodeOptions.environmentMaximumPixels
            == RenderContext.Options.environmentLimit(ImageFile.DecodeOptions.environmentVariable))
    }

    @Test func aY4MHeaderLargerThanMemoryIsRefusedBeforeAllocating() throws {
        do {
            _ = try Y4MFormat(header: "YUV4MPEG2 W1048576 H1048576 F25:1 C420jpeg", matrix: nil, fullRange: nil,
                              maximumPixels: Int.max)
            Issue.record("a 2^20 × 2^20 header was accepted")
        } catch {
            #expect("\(error)".contains("more than this machine's"), "\(error)")
        }
        // A frame that fits is still read.
        let format = try Y4MFormat(header: "YUV4MPEG2 W1920 H1080 F25:1 C420jpeg", matrix: nil, fullRange: nil,
                                   maximumPixels: Int.max)
        #expect(format.width == 1920)
    }

    @Test func streamQueuesAreBoundedByBytes() {
        let small = Y4MFormat(width: 320, height: 240)
        #expect(Y4MFormat.queueCapacity(64, input: small, outputPixels: 320 * 240) == 64)
        let k4 = Y4MFormat(width: 3840, height: 2160)
        let capacity = Y4MFormat.queueCapacity(64, input: k4, outputPixels: 3840 * 2160)
        #expect(capacity < 64 && capacity >= 1)
        #expect((capacity + 2) * 2 * (k4.frameBytes + 3840 * 2160 * 4) <= Y4MFormat.queueBytes)
        let huge = Y4MFormat(width: 16384, height: 16384)
        #expect(Y4MFormat.queueCapacity(64, input: huge, outputPixels: 16384 * 16384) == 1)
    }

    @Test func kernelProgramCacheIsBoundedByBytes() throws {
        // Many registers (a workspace of registers for each thread is what a cached program holds).
        var body = "float a0 = s.r * p;\n"
        for i in 1..<400 { body += "float a\(i) = a\(i - 1) * 1.0001 + sin(a\(max(0, i - 7)));\n" }
        let kernel = try KernelProgram(source: "kernel vec4 k(__sample s, float p) {\n\(body) return vec4(a399); }").kernels[0]
        let image = TestImages.pattern(width: 4, height: 1)
        for value in 0..<60 {
            let output = try kernel.apply(extent: image.extent, arguments: [.image(image), .float(Double(value) * 0.01)])
            _ = try TestImages.render(output)
            let cached = kernel.cached
            #expect(cached.programs <= CompiledKernel.cacheLimit.programs)
            #expect(cached.bytes <= CompiledKernel.cacheLimit.bytes)
        }
    }
}
