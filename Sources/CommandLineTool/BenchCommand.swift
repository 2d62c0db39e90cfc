import ArgumentParser
import Foundation
import FilterEngine
import FilterPipeline
import KernelLanguage

public struct BenchCommand: ParsableCommand {
    public init() {}

    public static let configuration = CommandConfiguration(
        commandName: "bench",
        abstract: "Measure render speed (median of repeated in-process renders; decoding and encoding excluded).",
        discussion: "Renders each case to 8-bit sRGB in memory after a warm-up and prints the median ms per frame, "
            + "megapixels per second, the process's CPU ms per frame (all threads; steadier than the wall clock on a "
            + "busy machine), the thread count and the peak resident memory. Compare figures run to run on the same machine."
    )

    @Option(help: "The source image (default: a generated 1920×1080 photo-like test image).")
    var image: String?

    @Option(help: "Frame size when no image is given: 1080p or 4k.")
    var size = "1080p"

    @Option(help: "Timed runs per case.")
    var runs = 15

    @Option(help: "Worker threads (default: every core).")
    var threads: Int?

    @Option(help: "Only the cases whose name contains this text.")
    var only: String?

    @Flag(help: "Print JSON.")
    var json = false

    public func run() throws {
        let source: Image
        if let image {
            source = try ImageFile.read(image)
        } else {
            let (w, h) = switch size.lowercased() {
            case "1080p": (1920, 1080)
            case "4k": (3840, 2160)
            default: throw ValidationError("--size is 1080p or 4k")
            }
            source = BenchCases.testImage(width: w, height: h)
        }
        guard runs > 0 else { throw ValidationError("--runs must be positive") }
        let context = RenderContext(options: .init(threads: threads ?? ProcessInfo.processInfo.activeProcessorCount))
        let extent = source.extent
        let bytes = UnsafeMutablePointer<UInt8>.allocate(capacity: Int(extent.width * extent.height) * 4)
        defer { bytes.deallocate() }
        var results: [[String: Any]] = []
        for (name, build) in try BenchCases.all(source) where only.map({ name.contains($0) }) ?? true {
            let graph = try build()
            // The result within the source's frame, as a peer's output would be (a 50% scale: 960 × 540).
            let clipped = graph.extent.intersection(extent)
            let rect = clipped.isEmpty ? extent : clipped
            for _ in 0..<3 { try context.renderRGBA8(graph, rect: rect, into: bytes) }
            var times: [Double] = []
            let cpuStart = Self.processCPUSeconds()
            for _ in 0..<runs {
                let start = DispatchTime.now().uptimeNanoseconds
                try context.renderRGBA8(graph, rect: rect, into: bytes)
                times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            }
            let cpuPerFrame = (Self.processCPUSeconds() - cpuStart) * 1000 / Double(runs)
            times.sort()
            let median = times[times.count / 2]
            let megapixels = rect.width * rect.height / 1e6
            results.append(["case": name, "ms": median, "mpixPerSecond": megapixels / (median / 1000),
                            "width": Int(rect.width), "height": Int(rect.height),
                            "threads": context.options.threads, "min": times.first!, "max": times.last!,
                            "cpuMs": cpuPerFrame])
        }
        if json {
            // The peak belongs to the whole run; each case carries it so that one-case runs report theirs.
            let peak = Self.peakResidentBytes()
            results = results.map { $0.merging(["peakRSSBytes": peak]) { _, new in new } }
            let data = try JSONSerialization.data(withJSONObject: results, options: [.prettyPrinted, .sortedKeys])
            print(String(decoding: data, as: UTF8.self))
        } else {
            print("bench: \(Int(extent.width))x\(Int(extent.height)) source (each case renders its result within it), "
                  + "\(context.options.threads) threads, median of \(runs) runs")
            for r in results {
                let name = (r["case"] as! String).padding(toLength: 34, withPad: " ", startingAt: 0)
                let figures = String(format: "%8.2f ms  %8.1f MP/s  %8.2f ms CPU", r["ms"] as! Double,
                                     r["mpixPerSecond"] as! Double, r["cpuMs"] as! Double)
                print("\(name) \(figures)")
            }
            print(String(format: "peak RSS %.1f MiB (the whole process: source, output and every case's buffers)",
                         Double(Self.peakResidentBytes()) / Double(1 << 20)))
        }
    }
}

extension BenchCommand {
    /// User and system seconds of the whole process so far: per frame, the work done whatever the machine's
    /// load (the wall-clock median measures the load too on a shared machine).
    static func processCPUSeconds() -> Double {
        var usage = rusage()
        #if os(Linux)
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)
        #else
        getrusage(RUSAGE_SELF, &usage)
        #endif
        func seconds(_ t: timeval) -> Double { Double(t.tv_sec) + Double(t.tv_usec) / 1e6 }
        return seconds(usage.ru_utime) + seconds(usage.ru_stime)
    }

    /// The process's peak resident memory so far (getrusage's ru_maxrss: KiB on Linux, bytes on Apple's systems).
    static func peakResidentBytes() -> Int {
        var usage = rusage()
        #if os(Linux)
        getrusage(Int32(RUSAGE_SELF.rawValue), &usage)  // Glibc imports the constant as an enum case
        return usage.ru_maxrss * 1024
        #else
        getrusage(RUSAGE_SELF, &usage)
        return usage.ru_maxrss  // bytes on Apple's systems
        #endif
    }
}

/// The benchmark's cases, as graphs over one source image.
enum BenchCases {
    static func all(_ source: Image) throws -> [(String, () throws -> Image)] {
        let e = source.extent
        let centre: FilterValue = .vector([e.midX, e.midY])
        return [
            ("a vintage dailies chain", { try vintageDailies(source) }),
            ("b warm fade (one custom kernel)", { warmFade(source) }),
            ("c CIGaussianBlur radius 10", { try source.applyingFilter("CIGaussianBlur", parameters: ["inputRadius": .number(10)]) }),
            ("d CISepiaTone", { try source.applyingFilter("CISepiaTone") }),
            ("e CIColorControls", { try colorControls(source) }),
            ("f five-step chain", { try fiveStep(source) }),
            ("g CIColorCube 32³ (warm look)", { try colorCube(source) }),
            // Each later family's heaviest filter, as its helper measured.
            ("h CIVividLightBlendMode over sepia", { try source.applyingFilter("CIVividLightBlendMode", parameters: [
                "inputBackgroundImage": .image(try source.applyingFilter("CISepiaTone"))]) }),
            ("i CIZoomBlur amount 20", { try source.applyingFilter("CIZoomBlur", parameters: [
                "inputCenter": centre, "inputAmount": .number(20)]) }),
            ("j CIMorphologyMaximum radius 20", { try source.applyingFilter("CIMorphologyMaximum", parameters: [
                "inputRadius": .number(20)]) }),
            ("k CILanczosScaleTransform 0.5", { try source.applyingFilter("CILanczosScaleTransform", parameters: [
                "inputScale": .number(0.5)]) }),
            ("l CITwelvefoldReflectedTile", { try source.applyingFilter("CITwelvefoldReflectedTile", parameters: [
                "inputCenter": centre]).cropped(to: e) }),
            ("m CIDroste", { try source.applyingFilter("CIDroste", parameters: [
                "inputInsetPoint0": .vector([e.width * 0.35, e.height * 0.3]),
                "inputInsetPoint1": .vector([e.width * 0.65, e.height * 0.7])]).cropped(to: e) }),
            ("n CIPageCurlTransition time 0.5", { try pageCurl(source) }),
            ("o CITwirlDistortion", { try source.applyingFilter("CITwirlDistortion", parameters: [
                "inputCenter": centre, "inputRadius": .number(500),
                "inputAngle": .number(3.14)]) }),
            // The kernel language against the same formulas written by hand (b and d).
            ("p warm fade in CIKL (same formula as b)", { try warmFadeKernelLanguage(source) }),
            ("q the sepia matrix in CIKL (as r)", { try sepiaKernelLanguage(source) }),
            ("r the sepia matrix by CIColorMatrix", { try sepiaColorMatrix(source) }),
            // What every colour row pays before its kernel: 8-bit sRGB to linear floats and back.
            ("s decode and encode alone (identity kernel)", { ColorKernel(name: "identity") { _ in }.apply(extent: e, inputs: [source]) }),
        ]
    }

    /// `warmFade`'s formula as Core Image Kernel Language source, compiled by the engine.
    static func warmFadeKernelLanguage(_ source: Image) throws -> Image {
        let e = source.extent
        let w = ColorMath.lumaWeights
        let program = try KernelProgram(source: """
            kernel vec4 warmFade(__sample s, vec2 centre, float inverseRadius) {
                vec4 c = unpremultiply(s);
                float luma = dot(c.rgb, vec3(\(w.x), \(w.y), \(w.z)));
                vec3 rgb = mix(c.rgb, vec3(luma), 0.15);
                rgb += vec3(-0.02, 0.03, 0.05) * (1.0 - luma) + vec3(0.06, 0.02, -0.04) * luma;
                vec2 d = (destCoord() - centre) * inverseRadius;
                float v = (1.0 - 0.35 * dot(d, d)) * c.a;
                return vec4(rgb * v, c.a);
            }
            """)
        let inverseRadius = 1 / ((e.width * e.width + e.height * e.height).squareRoot() / 2)
        return try program.kernels[0].apply(extent: e, arguments: [
            .image(source), .vector([e.midX, e.midY]), .float(inverseRadius)])
    }

    /// CISepiaTone at intensity 1 as kernel source: the matrix on premultiplied colour, as the built-in does.
    /// The classic sepia matrix (CISepiaTone follows Apple's renders instead), by the built-in colour matrix.
    static func sepiaColorMatrix(_ source: Image) throws -> Image {
        try source.applyingFilter("CIColorMatrix", parameters: [
            "inputRVector": .vector([0.393, 0.769, 0.189, 0]), "inputGVector": .vector([0.349, 0.686, 0.168, 0]),
            "inputBVector": .vector([0.272, 0.534, 0.131, 0]),
        ])
    }

    static func sepiaKernelLanguage(_ source: Image) throws -> Image {
        let program = try KernelProgram(source: """
            kernel vec4 sepia(__sample s) {
                mat3 m = mat3(0.393, 0.349, 0.272, 0.769, 0.686, 0.534, 0.189, 0.168, 0.131);
                return vec4(m * s.rgb, s.a);
            }
            """)
        return try program.kernels[0].apply(extent: source.extent, arguments: [.image(source)])
    }

    /// Monochrome film grain around 1: CIRandomGenerator through a colour matrix (0.03 × noise + 0.97).
    static func grain(over extent: Rect) throws -> Image {
        let noise = try Filter(named: "CIRandomGenerator").makeOutputImage()
        let grey: FilterValue = .vector([0.03, 0, 0, 0])
        return try noise.applyingFilter("CIColorMatrix", parameters: [
            "inputRVector": grey, "inputGVector": grey, "inputBVector": grey, "inputAVector": .vector([0, 0, 0, 0]),
            "inputBiasVector": .vector([0.97, 0.97, 0.97, 1]),
        ]).cropped(to: extent)
    }

    static func vintageDailies(_ source: Image) throws -> Image {
        let warmed = try source.applyingFilter("CITemperatureAndTint", parameters: [
            "inputNeutral": .vector([5500, 0]), "inputTargetNeutral": .vector([6500, 0]),
        ])
        let vignetted = try warmed.applyingFilter("CIVignette", parameters: ["inputIntensity": .number(1), "inputRadius": .number(2)])
        return try grain(over: source.extent).applyingFilter("CIMultiplyCompositing", parameters: ["inputBackgroundImage": .image(vignetted)])
    }

    /// A 32³ colour table (trilinear lookups, the colour-adjustment family's heaviest per-pixel filter).
    static func colorCube(_ source: Image) throws -> Image {
        try source.applyingFilter("CIColorCube", parameters: [
            "inputCubeDimension": .number(32), "inputCubeData": .data(ColorCubeData.look(.warm, dimension: 32)),
        ])
    }

    /// A page curl half way, onto a sepia copy, with the source as its back side and a radial gradient as shading.
    static func pageCurl(_ source: Image) throws -> Image {
        let e = source.extent
        return try source.applyingFilter("CIPageCurlTransition", parameters: [
            "inputTargetImage": .image(try source.applyingFilter("CISepiaTone")), "inputBacksideImage": .image(source),
            "inputShadingImage": .image(try Filter(named: "CIRadialGradient").makeOutputImage().cropped(to: e)),
            "inputTime": .number(0.5), "inputAngle": .number(0.4), "inputRadius": .number(100),
            "inputExtent": .vector([e.minX, e.minY, e.width, e.height]),
        ])
    }

    static func colorControls(_ source: Image) throws -> Image {
        try source.applyingFilter("CIColorControls", parameters: [
            "inputSaturation": .number(1.2), "inputBrightness": .number(0.05), "inputContrast": .number(1.1),
        ])
    }

    static func fiveStep(_ source: Image) throws -> Image {
        let warmed = try source.applyingFilter("CITemperatureAndTint", parameters: [
            "inputNeutral": .vector([6500, 0]), "inputTargetNeutral": .vector([5000, 0]),
        ])
        let vignetted = try warmed.applyingFilter("CIVignette", parameters: ["inputIntensity": .number(1), "inputRadius": .number(1.5)])
        let toned = try colorControls(vignetted).applyingFilter("CISepiaTone", parameters: ["inputIntensity": .number(0.3)])
        return try grain(over: source.extent).applyingFilter("CIMultiplyCompositing", parameters: ["inputBackgroundImage": .image(toned)])
    }

    /// A film look in one custom colour kernel: teal shadows, amber highlights, 15% desaturation and a vignette
    /// from the pixel's own coordinate, on straight colour (premultiplied alpha undone and redone).
    static func warmFade(_ source: Image) -> Image {
        let e = source.extent
        let cx = Float(e.midX), cy = Float(e.midY)
        let inverseRadius = 1 / Float((e.width * e.width + e.height * e.height).squareRoot() / 2)
        let shadow = SIMD3<Float>(-0.02, 0.03, 0.05), highlight = SIMD3<Float>(0.06, 0.02, -0.04)
        let w = ColorMath.lumaWeights
        return ColorKernel(name: "warmFade") { span in
            let (r, g, b, a) = (span.out.r, span.out.g, span.out.b, span.out.a)
            let dy = (Float(span.y) + 0.5 - cy) * inverseRadius
            let x0 = (Float(span.x0) + 0.5 - cx) * inverseRadius
            for i in 0..<span.count {
                let alpha = a[i]
                let inv: Float = alpha > 0 ? 1 / alpha : 0
                var cr = r[i] * inv, cg = g[i] * inv, cb = b[i] * inv
                let luma = cr * w.x + cg * w.y + cb * w.z
                cr += (luma - cr) * 0.15; cg += (luma - cg) * 0.15; cb += (luma - cb) * 0.15
                cr += shadow.x * (1 - luma) + highlight.x * luma
                cg += shadow.y * (1 - luma) + highlight.y * luma
                cb += shadow.z * (1 - luma) + highlight.z * luma
                let dx = x0 + Float(i) * inverseRadius
                let v = (1 - 0.35 * (dx * dx + dy * dy)) * alpha
                r[i] = cr * v; g[i] = cg * v; b[i] = cb * v
            }
        }.apply(extent: e, inputs: [source])
    }

    /// A deterministic photo-like frame: smooth gradients with fine detail, opaque 8-bit sRGB.
    static func testImage(width: Int, height: Int) -> Image {
        var bytes = [UInt8](repeating: 255, count: width * height * 4)
        for y in 0..<height {
            for x in 0..<width {
                let o = (y * width + x) * 4
                let detail = (x &* 7 ^ y &* 13) & 31
                bytes[o] = UInt8((x * 255 / max(1, width - 1) + detail) & 255)
                bytes[o + 1] = UInt8((y * 255 / max(1, height - 1) + detail / 2) & 255)
                bytes[o + 2] = UInt8(((x + y) * 255 / max(1, width + height - 2)) & 255)
            }
        }
        return bytes.withUnsafeBufferPointer { Image(source: SourcePixels(rgba8TopDown: $0.baseAddress!, width: width, height: height)) }
    }
}
