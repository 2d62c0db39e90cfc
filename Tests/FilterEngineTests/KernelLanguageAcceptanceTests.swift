import Foundation
import Testing
@testable import FilterEngine
@testable import KernelLanguage

/// What Apple's Core Image Kernel Language compiler accepts beyond the strict reading of its reference, and the
/// bounds that keep hostile kernels from hanging: the preprocessor, local arrays, loops whose end is known only
/// when rendering, sampler kernels run as colour kernels, and the limits on compile and render work.
@Suite("Kernel language: what Apple accepts")
struct KernelLanguageAcceptanceTests {
    let image = TestImages.pattern()

    private func program(_ source: String) throws -> KernelProgram { try KernelProgram(source: source) }

    private func render(_ source: String, extent: Rect, _ arguments: [KernelArgument] = [],
                        roi: (@Sendable (Int, Rect) -> Rect)? = nil) throws -> PixelBuffer {
        let kernel = try program(source).kernels[0]
        return try TestImages.render(try kernel.apply(extent: extent, arguments: arguments, roi: roi))
    }

    // MARK: The preprocessor

    @Test func definesAndConditionals() throws {
        let source = """
        #define GAIN 2.0
        #define LUMA(c) dot((c).rgb, vec3(0.25, 0.5, 0.25))
        #define SCALE(x, k) ((x) * (k))
        #if defined(GAIN) && GAIN_LEVEL + 1 == 1
        #define OFFSET 0.125
        #elif 1
        #define OFFSET 7.0
        #else
        #error never
        #endif
        #ifndef MISSING
        #define TAIL 1.0
        #endif
        #ifdef MISSING
        this is skipped: ( ] @@
        #endif
        #undef GAIN
        #define GAIN 3.0
        kernel vec4 k(__sample s) {
            return vec4(LUMA(s), SCALE(s.g, GAIN), OFFSET, TAIL);
        }
        """
        let out = try render(source, extent: image.extent, [.image(image)])
        let input = try TestImages.render(image)
        for (x, y) in [(0, 0), (20, 30), (63, 47)] {
            let s = input.pixel(x: x, y: y)
            let expected = Pixel(0.25 * s.x + 0.5 * s.y + 0.25 * s.z, 3 * s.y, 0.125, 1)
            #expect(close(out.pixel(x: x, y: y), expected, tolerance: 1e-6), "\(out.pixel(x: x, y: y)) vs \(expected)")
        }
        // Directives that change nothing here.
        #expect(compileError("#version 120\n#pragma optimize(on)\n#extension GL_foo : enable\n#line 10\n#\nkernel vec4 k(__sample s) { return s; }") == nil)
    }

    @Test func preprocessorErrorsKeepTheirPositions() throws {
        let unknownInMacro = "#define BAD(x) (x * nope)\nkernel vec4 k(__sample s) {\n    return vec4(BAD(s.r));\n}"
        let e = try #require(compileError(unknownInMacro))
        #expect(e.kind == .type && e.line == 3 && e.column == 17 && e.message.contains("nope"), "\(e)")  // at the use
        let unterminated = "kernel vec4 k(__sample s) { return s; }\n  #if 1\n"
        let e2 = try #require(compileError(unterminated))
        #expect(e2.line == 2 && e2.column == 4 && e2.message.contains("#endif"), "\(e2)")
        let error = try #require(compileError("#if 2 > 1\n#error too big\n#endif\nkernel vec4 k(__sample s) { return s; }"))
        #expect(error.line == 2 && error.message.contains("#error too big"), "\(error)")
        #expect(compileError("#else\nkernel vec4 k(__sample s) { return s; }")?.message.contains("without #if") == true)
        #expect(compileError("#define F(a, b) a\nkernel vec4 k(__sample s) { return vec4(F(1.0)); }")?.message.contains("takes 2 arguments") == true)
        #expect(compileError("#foo\nkernel vec4 k(__sample s) { return s; }")?.message.contains("unknown preprocessor directive") == true)
        #expect(compileError("kernel vec4 k(__sample s) { return s # 2; }")?.message.contains("must start a line") == true)
        #expect(compileError("#if 1 / 0\n#endif\nkernel vec4 k(__sample s) { return s; }")?.message.contains("division by zero") == true)
        // A macro that names itself is not expanded again (it is then an unknown name).
        let selfReference = try #require(compileError("#define X X\nkernel vec4 k(__sample s) { return s * X; }"))
        #expect(selfReference.message.contains("'X'"), "\(selfReference)")
    }

    @Test func macroBombsStopQuickly() throws {
        var bomb = "#define A0 1.0\n"
        for i in 1...40 { bomb += "#define A\(i) (A\(i - 1) + A\(i - 1))\n" }
        bomb += "kernel vec4 k(__sample s) { return s * A40; }"
        let start = Date()
        let e = try #require(compileError(bomb))
        #expect(e.message.contains("macro expansion is too large"), "\(e)")
        #expect(Date().timeIntervalSince(start) < 10)
    }

    // MARK: Arrays

    @Test func localArrays() throws {
        let source = """
        const float k[3] = float[3](0.25, 0.5, 0.25);
        float pick(float w[3], int i) { return w[i]; }
        kernel vec4 arrays(__sample s, float which) {
            float weights[9];
            for (int i = 0; i < 9; i++) { weights[i] = float(i) * 0.125; }
            vec4 taps[2];
            taps[0] = s;
            taps[1] = vec4(1.0, 2.0, 3.0, 4.0);
            float listed[] = {1.0, 10.0, 100.0};
            int at = int(s.r * 8.0);                 // computed from the pixel
            int far = int(which);                    // out of range: clamped
            float sum = weights[at] + taps[1][2] + listed[2] * k[1];
            weights[at] += 1.0;                      // a store through a computed index
            return vec4(sum, weights[at], pick(k, 2) + listed[far], taps[0].a);
        }
        """
        let out = try render(source, extent: image.extent, [.image(image), .float(7)])
        let input = try TestImages.render(image)
        for (x, y) in [(0, 0), (10, 20), (40, 5), (63, 47)] {
            let s = input.pixel(x: x, y: y)
            let at = Float(Int(s.x * 8))
            let expected = Pixel(at * 0.125 + 3 + 50, at * 0.125 + 1, 0.25 + 100, s.w)
            #expect(close(out.pixel(x: x, y: y), expected, tolerance: 1e-5), "\(x),\(y): \(out.pixel(x: x, y: y)) vs \(expected)")
        }
        // A computed index below the range reads the first element.
        let low = try render("kernel vec4 f(float i) { float a[2] = float[](3.0, 4.0); return vec4(a[int(i)]); }",
                             extent: Rect(x: 0, y: 0, width: 1, height: 1), [.float(-5)])
        #expect(low.pixel(x: 0, y: 0) == Pixel(3, 3, 3, 3))
        // A constant index outside the array is an error, as in GLSL.
        let e = try #require(compileError("kernel vec4 f(__sample s) {\n  float a[4];\n  return vec4(a[4]);\n}"))
        #expect(e.kind == .type && e.line == 3 && e.message.contains("out of range"), "\(e)")
        #expect(compileError("kernel vec4 f(__sample s) { float a[3] = {1.0, 2.0}; return s; }")?.message.contains("3 elements") == true)
        #expect(compileError("kernel vec4 f(__sample s) { float a[100000]; return s; }")?.message.contains("limited to") == true)
        #expect(compileError("kernel vec4 f(__sample s) { float a[2][2]; return s; }")?.message.contains("arrays of arrays") == true)
        #expect(compileError("kernel vec4 f(__sample s, float n) { float a[int(n)]; return s; }")?.message.contains("constant integer") == true)
        #expect(compileError("kernel vec4 f(__sample s) { ivec2 p = ivec2(1, 2); return s; }")?.message.contains("'ivec2' is not supported") == true)
    }

    // MARK: Loops whose end is known only when rendering

    /// A loop whose count comes from each pixel and one whose count is an argument, with a local array and a
    /// macro: the values of the same loops written in Swift.
    @Test func dataDependentLoopsArraysAndMacros() throws {
        let source = """
        #define STEPS(v) int(floor((v) * 10.0))
        kernel vec4 counted(__sample s, float radius) {
            float acc = 0.0;
            int n = STEPS(s.r);
            for (int i = 0; i < n; i++) { acc += 0.5; }
            float x = s.g;
            int halvings = 0;
            while (x > 0.01) { x *= 0.5; halvings++; }
            float ring[4];
            for (int j = 0; j < int(radius); j++) { ring[j - 4 * (j / 4)] = float(j); }
            float total = 0.0;
            for (int j = 0; j < int(radius) + n; j++) {
                if (j > 40) break;
                total += 1.0;
            }
            return vec4(acc, float(halvings), ring[2], total);
        }
        """
        let out = try render(source, extent: image.extent, [.image(image), .float(7)])
        let input = try TestImages.render(image)
        for y in stride(from: 0, to: 48, by: 7) {
            for x in stride(from: 0, to: 64, by: 5) {
                let s = input.pixel(x: x, y: y)
                let n = Int((s.x * 10).rounded(.down))
                var v = s.y, halvings = 0
                while v > 0.01 { v *= 0.5; halvings += 1 }
                let expected = Pixel(Float(n) * 0.5, Float(halvings), 6, Float(min(7 + n, 41)))
                #expect(close(out.pixel(x: x, y: y), expected, tolerance: 1e-5), "\(x),\(y): \(out.pixel(x: x, y: y)) vs \(expected)")
            }
        }
    }

    @Test func loopsReturningAndBreakingAtRunTime() throws {
        let source = """
        float firstAbove(float v, float limit) {
            float t = 0.0;
            while (true) {
                t += 0.1;
                if (t * v > limit) return t;
                if (t > 50.0) break;
            }
            return -1.0;
        }
        kernel vec4 k(__sample s) {
            int count = 0;
            do { count++; } while (float(count) < s.b * 20.0);
            return vec4(firstAbove(s.r + 0.05, 1.0), float(count), 0.0, 1.0);
        }
        """
        let out = try render(source, extent: image.extent, [.image(image)])
        let input = try TestImages.render(image)
        for (x, y) in [(3, 3), (30, 40), (63, 0), (12, 25)] {
            let s = input.pixel(x: x, y: y)
            var t: Float = 0, found: Float = -1
            while true {
                t += 0.1
                if t * (s.x + 0.05) > 1 { found = t; break }
                if t > 50 { break }
            }
            var count = 0
            repeat { count += 1 } while Float(count) < s.z * 20
            #expect(close(out.pixel(x: x, y: y), Pixel(found, Float(count), 0, 1), tolerance: 1e-4), "\(x),\(y): \(out.pixel(x: x, y: y))")
        }
    }

    @Test func aVariableRadiusGeneralKernel() throws {
        // A neighbourhood whose size comes from a mask pixel (as variable-bokeh kernels do).
        let source = """
        kernel vec4 spread(sampler image, sampler mask, float maximum) {
            int radius = int(sample(mask, samplerCoord(mask)).r * maximum);
            vec4 brightest = vec4(0.0);
            for (int x = -radius; x <= radius; x++) {
                for (int y = -radius; y <= radius; y++) {
                    vec4 c = sample(image, samplerTransform(image, destCoord() + vec2(x, y)));
                    if (c.r > brightest.r) brightest = c;
                }
            }
            return brightest;
        }
        """
        let mask = TestImages.make(width: 64, height: 48) { x, _ in Pixel(Float(x % 4) / 4, 0, 0, 1) }
        let out = try render(source, extent: image.extent, [.image(image), .image(mask), .float(4)]) { _, r in r.insetBy(dx: -4, dy: -4) }
        let input = try TestImages.render(image)
        for (x, y) in [(10, 10), (33, 20), (62, 46), (5, 40)] {
            let radius = (x % 4)   // r · 4
            var brightest = Pixel(0, 0, 0, 0)
            for dx in -radius...radius {
                for dy in -radius...radius {
                    let (px, py) = (x + dx, y + dy)
                    let c = px >= 0 && px < 64 && py >= 0 && py < 48 ? input.pixel(x: px, y: py) : Pixel(0, 0, 0, 0)
                    if c.x > brightest.x { brightest = c }
                }
            }
            #expect(close(out.pixel(x: x, y: y), brightest, tolerance: 1e-6), "\(x),\(y)")
        }
    }

    @Test func aRunawayLoopStopsInBoundedTime() throws {
        let source = "kernel vec4 forever(__sample s) {\n  float x = s.r;\n  while (x > -1.0) { x += 1.0; }\n  return vec4(x);\n}"
        let kernel = try program(source).kernels[0]
        let small = TestImages.pattern(width: 4, height: 2)
        let start = Date()
        _ = try TestImages.render(try kernel.apply(extent: small.extent, arguments: [.image(small)]))
        #expect(Date().timeIntervalSince(start) < 30)
        #expect(kernel.loopLimitHits > 0)
        // A constant bound far too long to unroll compiles at once and runs as a loop.
        let long = try program("kernel vec4 f(float n) { float x = 0.0; for (int i = 0; i < 100000000; i++) { x += 1.0; } return vec4(x); }").kernels[0]
        let compiled = Date()
        _ = try long.apply(extent: Rect(x: 0, y: 0, width: 1, height: 1), arguments: [.float(0)])
        #expect(Date().timeIntervalSince(compiled) < 5)
        // A loop of constant length that unrolls keeps its exact value.
        let exact = try render("kernel vec4 f() { float x = 0.0; for (int i = 0; i < 1000; i++) { x += 1.0; } return vec4(x); }",
                               extent: Rect(x: 0, y: 0, width: 2, height: 1))
        #expect(exact.pixel(x: 1, y: 0) == Pixel(1000, 1000, 1000, 1000))
    }

    // MARK: Compile work

    @Test func callTreesAndChainsFailQuickly() throws {
        // Thirty levels of helpers that each call the next twice: 2^30 inlined calls.
        var tree = "float h0(float x) { return x * 0.5; }\n"
        for i in 1...30 { tree += "float h\(i)(float x) { return h\(i - 1)(x) + h\(i - 1)(x + 1.0); }\n" }
        tree += "kernel vec4 k(__sample s) { return vec4(h30(s.r)); }"
        var start = Date()
        let e = try #require(compileError(tree))
        #expect(e.kind == .unsupported && e.message.contains("too large once its helper functions are inlined"), "\(e)")
        #expect(e.line == 32, "\(e)")
        #expect(Date().timeIntervalSince(start) < 10)
        // A chain of 100,000 helpers, each calling the next.
        var chain = ""
        chain.reserveCapacity(5_000_000)
        chain += "float c100000(float x) { return x; }\n"
        for i in stride(from: 99_999, through: 0, by: -1) { chain += "float c\(i)(float x) { return c\(i + 1)(x); }\n" }
        chain += "kernel vec4 k(__sample s) { return vec4(c0(s.r)); }"
        start = Date()
        let e2 = try #require(compileError(chain))
        #expect(e2.message.contains("more than 32 levels deep"), "\(e2)")
        #expect(Date().timeIntervalSince(start) < 60)   // a 5 MB source: about 10 s in a debug build
        // Recursion through a long cycle is found without deep recursion in the checker.
        var cycle = ""
        for i in 0..<20_000 { cycle += "float r\(i)(float x);\n" }
        for i in 0..<20_000 { cycle += "float r\(i)(float x) { return r\((i + 1) % 20_000)(x); }\n" }
        cycle += "kernel vec4 k(__sample s) { return vec4(r0(s.r)); }"
        #expect(compileError(cycle)?.message.contains("recursive") == true)
    }

    // MARK: Diagnostics

    @Test func diagnosticsEscapeControlCharactersAndStayShort() throws {
        let hostile = "kernel vec4 k(__sample s) { return s \u{1B}\u{7}; }"
        let e = try #require(compileError(hostile))
        #expect(!e.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F }, "\(e.description.debugDescription)")
        #expect(e.description.contains("\\x1B") || e.description.contains("\\u{1B}"), "\(e)")
        let longName = String(repeating: "q", count: 100_000)
        let e2 = try #require(compileError("kernel vec4 k(__sample s) { return s * \(longName); }"))
        #expect(e2.description.count < 400, "\(e2.description.count) characters")
        let e3 = try #require(compileError("#error \u{1B}]0;title\u{7} \u{202E}reversed\nkernel vec4 k(__sample s) { return s; }"))
        #expect(!e3.description.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x202E }, "\(e3.description.debugDescription)")
    }

    // MARK: Sampler kernels applied as colour kernels

    @Test func samplerKernelsWithoutARegionOfInterest() throws {
        let input = try TestImages.render(image)
        // Sampling at its own pixel: a colour kernel (fused, per pixel).
        let own = try render("kernel vec4 k(sampler s) { vec4 c = sample(s, samplerCoord(s)); return vec4(c.gbr, c.a) * 0.5; }",
                             extent: image.extent, [.image(image)])
        for (x, y) in [(0, 0), (31, 17), (63, 47)] {
            let s = input.pixel(x: x, y: y)
            #expect(close(own.pixel(x: x, y: y), Pixel(s.y, s.z, s.x, s.w) * 0.5, tolerance: 1e-6))
        }
        // Sampling next door: a general kernel whose region of interest covers the offset, in bands too.
        let source = "kernel vec4 k(sampler s, float dx) { return sample(s, samplerCoord(s) + vec2(dx, -2.0)); }"
        let kernel = try program(source).kernels[0]
        let shifted = try kernel.apply(extent: image.extent, arguments: [.image(image), .float(3)])
        for context in [RenderContext(options: .init(threads: 1)), RenderContext(options: .init(threads: 2, bandHeight: 3))] {
            let out = try context.render(shifted, rect: image.extent)
            for (x, y) in [(0, 2), (20, 20), (60, 47), (62, 10)] {
                let expected = x + 3 < 64 && y - 2 >= 0 ? input.pixel(x: x + 3, y: y - 2) : Pixel(0, 0, 0, 0)
                #expect(close(out.pixel(x: x, y: y), expected, tolerance: 1e-6), "\(x),\(y)")
            }
        }
        // Sampling anywhere: the whole input.
        let mirrored = try render("kernel vec4 k(sampler s) { vec2 d = destCoord(); return sample(s, vec2(64.0 - d.x, d.y)); }",
                                  extent: image.extent, [.image(image)])
        #expect(close(mirrored.pixel(x: 0, y: 5), input.pixel(x: 63, y: 5), tolerance: 1e-6))
        #expect(close(mirrored.pixel(x: 40, y: 30), input.pixel(x: 23, y: 30), tolerance: 1e-6))
    }

    // MARK: Fuzzing the new syntax

    /// Sources using macros, arrays and run-time loops, cut and mutated: each ends in a kernel or an error (and
    /// a render, when it compiles) within bounded time; never a crash or a hang.
    @Test func fuzzedNewSyntaxNeverCrashesOrHangs() throws {
        let seeds = [
            """
            #define N 4
            #define F(a, b) ((a) * (b) + 1.0)
            #if N > 2
            const float w[N] = float[N](0.1, 0.2, 0.3, 0.4);
            #endif
            kernel vec4 k(__sample s, float r) {
                float acc[N];
                for (int i = 0; i < N; i++) { acc[i] = F(w[i], s.r); }
                int n = int(s.g * r);
                float t = 0.0;
                for (int j = 0; j < n; j++) { t += acc[j - N * (j / N)]; }
                while (t > 1.0) { t -= 0.25; }
                return vec4(t, acc[int(s.b * 3.0)], 0.0, 1.0);
            }
            """,
            """
            kernel vec4 g(sampler src, float radius) {
                vec4 sum = vec4(0.0);
                int r = int(radius * sample(src, samplerCoord(src)).a);
                for (int x = -r; x <= r; x++) {
                    sum += sample(src, samplerTransform(src, destCoord() + vec2(float(x), 0.0)));
                    if (sum.a > 10.0) break;
                }
                do { sum *= 0.5; } while (sum.r > 1.0);
                return sum;
            }
            """,
        ]
        var generator = SplitMix(seed: 7)
        let alphabet = Array("#defineifelsendif()[]{};,.+-*/=<>!0123456789xyzNFrgba_ \nwhilefor")
        let tiny = TestImages.pattern(width: 3, height: 2)
        var outcomes = (compiled: 0, failed: 0)
        var slowest = 0.0
        func attempt(_ source: String) {
            let start = Date()
            do {
                let program = try KernelProgram(source: source)
                outcomes.compiled += 1
                for k in program.kernels {
                    let arguments: [KernelArgument] = k.parameters.map { $0.isImage ? .image(tiny) : .float(3) }
                    if let out = try? k.apply(extent: tiny.extent, arguments: arguments) { _ = try? TestImages.render(out) }
                }
            } catch is KernelLanguageError {
                outcomes.failed += 1
            } catch {
                Issue.record("unexpected error type: \(error)")
            }
            slowest = max(slowest, Date().timeIntervalSince(start))
        }
        feedMutants(of: seeds, alphabet: alphabet, cutStride: 11, mutants: 120, duplicatingSlices: true,
                    generator: &generator, attempt)
        #expect(outcomes.compiled > 0 && outcomes.failed > 0)
        #expect(slowest < 20, "slowest case \(slowest) s")
    }
}
