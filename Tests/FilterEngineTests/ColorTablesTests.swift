import CPixelLoops
import Foundation
import Testing
@testable import FilterEngine
import FilterPipeline

/// Colour chains over opaque 8-bit pictures rendered by tables (`ColorTables`) against the float path.
@Suite struct ColorTablesTests {
    /// The tables' own check sample as a 128 × 64 picture: a 16³ lattice of the byte cube and 4,096 scattered
    /// colours.
    static let picture = TestImages.rgba8(width: 128, height: 64, bytes: ColorTables.sampleColours)
    static let exact = RenderContext(options: .init(threads: 2, colorTables: false))
    static let tabled = RenderContext(options: .init(threads: 2))

    static func bytes(_ image: Image, _ context: RenderContext, _ rect: Rect = picture.extent) throws -> [UInt8] {
        try context.renderRGBA8(image, rect: rect).bytes
    }

    static func largestDifference(_ a: [UInt8], _ b: [UInt8]) -> Int {
        zip(a, b).reduce(0) { max($0, abs(Int($1.0) - Int($1.1))) }
    }

    /// Every filter whose only image input is inputImage, at its defaults and at each number's slider ends:
    /// where the planner takes tables, the bytes are the float path's within one level (per-channel tables:
    /// exactly); elsewhere it fell back to the float path.
    @Test func everyFilterAtItsDefaultsAndSliderEndsIsWithinOneLevelOrFallsBack() throws {
        var taken: [String] = [], fellBack = 0
        // Tables are kept by kernel names and parameters: two settings whose kernels say the same must render the
        // same, or a kernel leaves out of its parameters a value its body uses.
        var byParameters: [String: (setting: String, bytes: [UInt8])] = [:]
        for descriptor in Catalog.builtIn.filters where descriptor.unavailableReason == nil
            && descriptor.inputs.filter(\.isImage).map(\.key) == ["inputImage"] {
            var settings: [[String: FilterValue]] = [[:]]
            for input in descriptor.inputs where input.valueClass == .number && !input.isBoolean {
                for end in [input.sliderMinimum, input.sliderMaximum].compactMap({ $0 }) {
                    settings.append([input.key: .number(end)])
                }
            }
            for values in settings {
                let image: Image
                do {
                    image = try TestImages.filter(descriptor.name, values.merging(["inputImage": .image(Self.picture)]) { $1 })
                } catch {
                    continue
                }
                guard let tables = ColorTables.make(for: image, area: PixelRect(covering: Self.picture.extent)) else {
                    fellBack += 1
                    continue
                }
                let setting = "\(descriptor.name) \(values.map { "\($0.key)=\($0.value)" }.joined(separator: " "))"
                taken.append(setting)
                let exactBytes = try Self.bytes(image, Self.exact)
                let worst = Self.largestDifference(exactBytes, try Self.bytes(image, Self.tabled))
                if case .color(let kernel, _) = image.kind {
                    let key = "\(kernel.name) \(kernel.parameters.map(\.bitPattern))"
                    if let earlier = byParameters[key] {
                        #expect(earlier.bytes == exactBytes, "\(setting) and \(earlier.setting) have equal parameters")
                    } else {
                        byParameters[key] = (setting, exactBytes)
                    }
                }
                let allowed = if case .channels = tables.lookup { 0 } else { 1 }
                #expect(worst <= allowed, "\(setting): \(worst) levels from the float path")
                // The check samples the chain; gains (CIVignette) scale it after.
                if tables.gain == nil { #expect(tables.sampleError == worst, "\(setting): the check's sample is this picture") }
            }
        }
        print("colour tables: \(taken.count) settings taken, \(fellBack) fell back")
        for name in ["CISepiaTone ", "CIExposureAdjust ", "CIGammaAdjust ", "CIColorInvert ", "CIColorPosterize ",
                     "CIWhitePointAdjust ", "CIColorMonochrome ", "CIMaskToAlpha ", "CILinearToSRGBToneCurve ",
                     "CIHueAdjust ", "CITemperatureAndTint ", "CIColorControls inputSaturation=2"] {
            #expect(taken.contains(name), "\(name)at its defaults takes tables")
        }
    }

    /// A chain: per-channel steps, then sepia (luminance), then a colour matrix; a sub-rectangle is the same
    /// bytes as the same rows of the whole picture.
    @Test func aChainThroughTheLuminanceAndASubRectangle() throws {
        let exposed = try TestImages.filter("CIExposureAdjust", ["inputImage": .image(Self.picture), "inputEV": .number(-0.7)])
        let sepia = try TestImages.filter("CISepiaTone", ["inputImage": .image(exposed)])
        let chain = try TestImages.filter("CIColorMatrix", ["inputImage": .image(sepia), "inputRVector": .vector([0.9, 0.1, 0, 0])])
        let tables = try #require(ColorTables.make(for: chain, area: PixelRect(covering: Self.picture.extent)))
        #expect(Self.shape(tables.lookup) == "luminance")
        let whole = try Self.bytes(chain, Self.tabled)
        #expect(Self.largestDifference(try Self.bytes(chain, Self.exact), whole) <= 1)
        let part = try Self.bytes(chain, Self.tabled, Rect(x: 10, y: 20, width: 50, height: 30))
        // Rows of the part, top first: picture rows 49 down to 20, columns 10 to 59.
        for row in 0..<30 {
            let y = 49 - row, top = 63 - y
            #expect(Array(part[(row * 50 * 4)..<((row + 1) * 50 * 4)]) == Array(whole[((top * 128 + 10) * 4)..<((top * 128 + 60) * 4)]))
        }
    }

    /// What a lookup works out per pixel: per-channel bytes, an affine map, or the luminance.
    static func shape(_ lookup: ColorTables.Lookup) -> String {
        switch lookup {
        case .channels: "channels"
        case .affine: "affine"
        case .luminance: "luminance"
        case .matrix(let m): m.coefficients.count == 4 ? "luminance" : "affine"
        }
    }

    /// A row of `count` opaque pixels whose channels run through every byte in different orders, and its bytes
    /// through `lookup`'s loop.
    static func applied(_ lookup: ColorTables.Lookup, count: Int) -> (src: [UInt8], out: [UInt8]) {
        var src: [UInt8] = []
        for i in 0..<count { src += [UInt8(i % 256), UInt8((i * 7 + 3) % 256), UInt8(255 - i % 256), 255] }
        var out = [UInt8](repeating: 0, count: 4 * count)
        out.withUnsafeMutableBufferPointer { ColorTables.apply(lookup, src, Int32(count), $0.baseAddress!) }
        return (src, out)
    }

    /// The loops of a luminance kernel, on rows of lengths that are no multiple of 64 and every byte in every
    /// channel: with AVX-512, CISepiaTone by the matrix loop's one row, each channel its steps' byte of the
    /// luminance's root; the tables' loop (byte permutes and gathers with AVX-512) the entry of its three sums, for
    /// CISepiaTone then CIColorInvert (whose falling outputs the steps cannot hold) and, without AVX-512, CISepiaTone.
    @Test func luminanceLoopsGiveTheirArithmetic() throws {
        let sepia = try TestImages.filter("CISepiaTone", ["inputImage": .image(Self.picture)])
        let inverted = try TestImages.filter("CIColorInvert", ["inputImage": .image(sepia)])
        for image in [sepia, inverted] {
            let tables = try #require(ColorTables.make(for: image, area: PixelRect(covering: Self.picture.extent)))
            for count in [1, 63, 64, 65, 200, 256] {
                let (src, out) = Self.applied(tables.lookup, count: count)
                for i in 0..<count {
                    let expected: [UInt8]
                    switch tables.lookup {
                    case .matrix(let m):
                        #expect(image === sepia && m.coefficients.count == 4)
                        let y = m.value(0, (Int(src[4 * i]), Int(src[4 * i + 1]), Int(src[4 * i + 2])))
                        expected = (0..<3).map { Self.rootByte(m, $0, y, near: out[4 * i + $0]) } + [255]
                    case .luminance(let sums, let entries):
                        #expect(image === inverted || pixelloops_has_byte_permutes() == 0)
                        let red = sums[Int(src[4 * i])], green = sums[256 + Int(src[4 * i + 1])]
                        let entry = entries[Int(UInt32(truncatingIfNeeded: red &+ green &+ sums[512 + Int(src[4 * i + 2])]))]
                        expected = (0..<4).map { UInt8(truncatingIfNeeded: entry >> (8 * $0)) }
                    default:
                        Issue.record("a luminance's tables"); return
                    }
                    #expect(Array(out[(4 * i)..<(4 * i + 4)]) == expected, "pixel \(i) of \(count)")
                }
            }
        }
    }

    /// The per-channel loop (byte permutes with AVX-512) gives each channel its table's byte and alpha 255.
    @Test func channelsLoopGivesEachChannelItsTable() throws {
        let curve = try TestImages.filter("CIGammaAdjust", ["inputImage": .image(Self.picture), "inputPower": .number(0.6)])
        let exposed = try TestImages.filter("CIExposureAdjust", ["inputImage": .image(curve), "inputEV": .number(0.4)])
        let tables = try #require(ColorTables.make(for: exposed, area: PixelRect(covering: Self.picture.extent)))
        guard case .channels(let bytes) = tables.lookup else { Issue.record("channel tables"); return }
        for count in [1, 15, 16, 17, 256, 300] {
            let (src, out) = Self.applied(tables.lookup, count: count)
            for i in 0..<count {
                let expected = (0..<3).map { bytes[256 * $0 + Int(src[4 * i + $0])] } + [255]
                #expect(Array(out[(4 * i)..<(4 * i + 4)]) == expected, "pixel \(i) of \(count)")
            }
        }
    }

    /// The affine map's loops, for CIColorControls and a colour matrix with an offset, on rows of lengths that are
    /// no multiple of 64 and every byte in every channel: with AVX-512 the matrix loop gives each channel the
    /// encode by roots of `Matrix.value` (its arithmetic in Swift; the loop's estimate of the root is within
    /// 2^−14), without it the tables' loop the output byte of its lane's sum.
    @Test func affineLoopsGiveTheirArithmetic() throws {
        let controls = try TestImages.filter("CIColorControls", ["inputImage": .image(Self.picture), "inputSaturation": .number(1.3),
                                                                 "inputBrightness": .number(0.05), "inputContrast": .number(1.2)])
        let matrix = try TestImages.filter("CIColorMatrix", ["inputImage": .image(Self.picture), "inputRVector": .vector([0.5, 0.4, 0.1, 0]),
                                                             "inputBiasVector": .vector([0.02, -0.01, 0.03, 0])])
        for image in [controls, matrix] {
            let tables = try #require(ColorTables.make(for: image, area: PixelRect(covering: Self.picture.extent)))
            let expected: ([UInt8], [UInt8], Int) -> [UInt8]
            switch tables.lookup {
            case .matrix(let m):
                #expect(pixelloops_has_byte_permutes() != 0)
                expected = { src, out, i in
                    let bytes = (Int(src[4 * i]), Int(src[4 * i + 1]), Int(src[4 * i + 2]))
                    return (0..<3).map { Self.rootByte(m, $0, m.value($0, bytes), near: out[4 * i + $0]) } + [255]
                }
            case .affine(let sums, let outputs, let stride):
                #expect(pixelloops_has_byte_permutes() == 0 && stride == 0)
                expected = { src, _, i in
                    let sum = sums[Int(src[4 * i])] &+ sums[256 + Int(src[4 * i + 1])] &+ sums[512 + Int(src[4 * i + 2])]
                    return (0..<3).map { outputs[Int(UInt16(truncatingIfNeeded: sum >> (16 * $0)))] } + [255]
                }
            default:
                Issue.record("an affine map's tables"); return
            }
            for count in [1, 63, 64, 65, 200, 256] {
                let (src, out) = Self.applied(tables.lookup, count: count)
                for i in 0..<count {
                    #expect(Array(out[(4 * i)..<(4 * i + 4)]) == expected(src, out, i), "pixel \(i) of \(count)")
                }
            }
            // With gains: each channel's value times its own plane's factor.
            guard case .matrix(let m) = tables.lookup else { continue }
            let count = 200
            let gains: [[Float]] = (0..<3).map { (c: Int) -> [Float] in
                (0..<count).map { (i: Int) -> Float in Float((i * 37 + c * 11) % 101) / 100 }
            }
            let (src, _) = Self.applied(tables.lookup, count: count)
            var out = [UInt8](repeating: 0, count: 4 * count)
            gains[0].withUnsafeBufferPointer { r in
                gains[1].withUnsafeBufferPointer { g in
                    gains[2].withUnsafeBufferPointer { b in
                        out.withUnsafeMutableBufferPointer {
                            m.apply(src, Int32(count), gains: (r.baseAddress!, g.baseAddress!, b.baseAddress!), $0.baseAddress!)
                        }
                    }
                }
            }
            for i in 0..<count {
                let bytes = (Int(src[4 * i]), Int(src[4 * i + 1]), Int(src[4 * i + 2]))
                let expected = (0..<3).map { Self.rootByte(m, $0, m.value($0, bytes, gain: gains[$0][i]), near: out[4 * i + $0]) } + [255]
                #expect(Array(out[(4 * i)..<(4 * i + 4)]) == expected, "pixel \(i) with gains")
            }
        }
    }

    /// The matrix loop's byte of channel c for its row's value: `byte` where that is the byte of a value within
    /// 2^−12 (relative) of it, else the byte of the value itself.
    static func rootByte(_ m: ColorTables.Matrix, _ c: Int, _ v: Float, near byte: UInt8) -> UInt8 {
        let ends = [v * (1 - 0x1p-12), v * (1 + 0x1p-12)].map { m.byte(c, $0) }
        return (ends.min()!...ends.max()!).contains(byte) ? byte : m.byte(c, v)
    }

    /// The encode by roots gives the sRGB curve's rounded byte but within a hundredth of a level of a step (the
    /// float path's encode table within a twentieth): linear values from 0 to 1.2, and negative ones. Measured:
    /// 350 of the 120,101 values differ from the curve's rounding (the table's encode: 1,251).
    @Test func rootStepsGiveTheEncode() throws {
        try #require(ColorTables.Matrix.rootSteps != nil)
        var differ = 0
        let values = (-100...120_000).map { Float($0) / 100_000 }
        for v in values {
            let curve = Double(ColorMath.sRGB(fromLinear: min(max(v, 0), 1))) * 255
            let top = Int(PIXELLOOPS_STEP_TOP), index = min(Int((max(v, 0).squareRoot() * Float(top + 1)).rounded()), top)
            let root = Double(ColorTables.Matrix.byte(ColorTables.Matrix.rootSteps!.steps[...], index: index))
            if root != curve.rounded() { differ += 1; #expect(abs(curve - root) < 0.51, "\(v)") }
        }
        #expect(differ < values.count / 200, "\(differ) of \(values.count)")
    }

    /// A video frame (`stream`) starts from the bytes its decoding makes: tables taken for every chroma layout,
    /// per channel exactly and through the luminance within one level of the float path.
    @Test(arguments: Y4MFormat.Chroma.allCases) func videoFramesStartFromTheirBytes(chroma: Y4MFormat.Chroma) throws {
        let format = Y4MFormat(width: 37, height: 23, chroma: chroma, matrix: .bt709, fullRange: false)
        let frame = Y4MFrame(format: format)
        var state: UInt32 = 7
        for i in 0..<format.frameBytes {
            state = state &* 1_664_525 &+ 1_013_904_223
            frame.bytes[i] = UInt8(state >> 24)
        }
        let picture = Y4MDecoder(format: format).image(frame)
        for (name, values, allowed) in [("CIExposureAdjust", ["inputEV": FilterValue.number(0.5)], 0), ("CISepiaTone", [:], 1)] {
            let image = try TestImages.filter(name, values.merging(["inputImage": .image(picture)]) { $1 })
            #expect(ColorTables.make(for: image, area: PixelRect(covering: image.extent)) != nil, "\(name) \(chroma)")
            let worst = Self.largestDifference(try Self.bytes(image, Self.exact, image.extent),
                                               try Self.bytes(image, Self.tabled, image.extent))
            #expect(worst <= allowed, "\(name) \(chroma): \(worst) levels")
        }
    }

    /// Affine kernels (colour matrices, CIColorControls) between per-channel ones, or before the luminance:
    /// affine tables within one level of the float path, for contrast and brightness pushing values below 0 and
    /// past 1 too.
    @Test func affineChains() throws {
        func filter(_ name: String, _ image: Image, _ values: [String: FilterValue] = [:]) throws -> Image {
            try TestImages.filter(name, values.merging(["inputImage": .image(image)]) { $1 })
        }
        let controls: [String: FilterValue] = ["inputSaturation": .number(1.2), "inputBrightness": .number(0.05),
                                               "inputContrast": .number(1.1)]
        let exposed = try filter("CIExposureAdjust", Self.picture, ["inputEV": .number(-0.7)])
        let warmed = try filter("CITemperatureAndTint", Self.picture, ["inputNeutral": .vector([5500, 0]),
                                                                        "inputTargetNeutral": .vector([6500, 0])])
        let mixed = try filter("CIColorMatrix", Self.picture, ["inputRVector": .vector([0.9, 0.1, 0, 0])])
        let chains: [(String, Image, String)] = [
            ("controls", try filter("CIColorControls", Self.picture, controls), "affine"),
            ("exposure, controls, gamma", try filter("CIGammaAdjust", try filter("CIColorControls", exposed, controls),
                                                     ["inputPower": .number(0.8)]), "affine"),
            ("temperature, hue, controls", try filter("CIColorControls", try filter("CIHueAdjust", warmed), controls), "affine"),
            ("dark, high contrast", try filter("CIColorControls", Self.picture, ["inputSaturation": .number(2),
                "inputBrightness": .number(-0.4), "inputContrast": .number(3)]), "affine"),
            ("matrix, sepia", try filter("CISepiaTone", mixed), "luminance"),
            ("temperature, controls, sepia", try filter("CISepiaTone", try filter("CIColorControls", warmed, controls)),
             "luminance"),
        ]
        for (name, chain, shape) in chains {
            let tables = try #require(ColorTables.make(for: chain, area: PixelRect(covering: Self.picture.extent)), "\(name)")
            let taken = Self.shape(tables.lookup)
            #expect(taken == shape, "\(name): \(shape) tables, not \(taken)")
            #expect(Self.largestDifference(try Self.bytes(chain, Self.exact), try Self.bytes(chain, Self.tabled)) <= 1, "\(name)")
        }
    }

    /// A colour chain under a vignette and a film grain's multiply (the vintage look) with AVX-512: the chain from
    /// its bytes times the factors, kept between renders, within one level of the float path on the check's
    /// sample and on a 300 × 200 picture of random and hard colours; a changed vignette makes new factors.
    @Test func aChainUnderGainsIsScaledByKeptFactors() throws {
        guard pixelloops_has_byte_permutes() != 0 else {
            print("gain paths: skipped (no AVX-512 byte permutes on this machine: the float path renders)")
            return
        }
        var state: UInt32 = 11
        let noise = (0..<(300 * 200 * 4)).map { i -> UInt8 in
            state = state &* 1_664_525 &+ 1_013_904_223
            // Half the rows dark (bytes under 24), where a level is the least linear light; every other pixel of
            // the rest a colour whose warmed red is dark, from bright green and blue (the matrix's rounding most
            // levels there: two levels at a factor of 6, so the grain's largest are exceptions).
            if i % 4 == 3 { return 255 }
            if i < 300 * 100 * 4 { return UInt8(state >> 24) % 24 }
            return i / 4 % 2 == 0 ? [51, 170, 255][i % 4] : UInt8(state >> 24)
        }
        let context = RenderContext(options: .init(threads: 2)), kept = context.gainFactors
        for picture in [Self.picture, TestImages.rgba8(width: 300, height: 200, bytes: noise)] {
            for intensity in [1.0, 0.4] {
                let look = try Self.vintage(picture, intensity: intensity)
                let tables = try #require(ColorTables.make(for: look, area: PixelRect(covering: picture.extent)))
                #expect(tables.gain != nil)
                let before = kept.made
                let worst = Self.largestDifference(try Self.bytes(look, Self.exact, picture.extent),
                                                   try Self.bytes(look, context, picture.extent))
                #expect(worst <= 1, "\(worst) levels from the float path")
                #expect(kept.made == before + 1, "factors made for a new picture size or vignette")
                // The gain path rendered: its factors are kept and take the chain, but for a few pixels (the grain's
                // over what the matrix's rounding allows), which the float path's steps did.
                let area = PixelRect(covering: picture.extent), gain = try #require(tables.gain)
                let factors = try #require(GainFactors.of(gain.factors, key: gain.key, area: area, kept: kept, spans: { _, _, _ in throw RenderError.emptyRect }))
                let exceptions = try #require(factors.exceptions(for: tables))
                #expect(exceptions.xs.count > 0 && exceptions.xs.count * 50 < area.area, "\(exceptions.xs.count) exceptions")
                _ = try Self.bytes(try Self.vintage(picture, intensity: intensity), context, picture.extent)
                #expect(kept.made == before + 1, "the same look's next frame keeps them")
            }
        }
    }

    /// Where the factors cannot stand for the float path the float path renders: a chain read by two inputs of a
    /// multiply (not linear in it), factors from a general kernel (nothing says what fixes them) or reading the
    /// picture itself (they change with it), factors that are not opaque (CIRandomGenerator's own pixels: refused
    /// once, remembered). A vignette that brightens (factors up to 10¹²) stays within a level, its largest factors
    /// by the float path's steps or all of it by the float path.
    @Test func gainsTheFactorsCannotStandFor() throws {
        let area = PixelRect(covering: Self.picture.extent)
        let warmed = try TestImages.filter("CITemperatureAndTint", ["inputImage": .image(Self.picture),
                                                                     "inputNeutral": .vector([5500, 0])])
        let squared = try TestImages.filter("CIMultiplyCompositing", ["inputImage": .image(warmed), "inputBackgroundImage": .image(warmed)])
        #expect(ColorTables.make(for: squared, area: area) == nil)
        let gradient = try TestImages.filter("CILinearGradient", [:]).cropped(to: Self.picture.extent)
        let shaded = try TestImages.filter("CIMultiplyCompositing", ["inputImage": .image(gradient), "inputBackgroundImage": .image(warmed)])
        #expect(ColorTables.make(for: shaded, area: area) == nil)
        // Factors that read the picture itself (it times its own warmer copy): they would change with every frame.
        let selfLit = try TestImages.filter("CIMultiplyCompositing", ["inputImage": .image(Self.picture), "inputBackgroundImage": .image(warmed)])
        #expect(ColorTables.make(for: selfLit, area: area) == nil)
        let noise = try TestImages.filter("CIRandomGenerator", [:]).cropped(to: Self.picture.extent)
        let context = RenderContext(options: .init(threads: 2))
        for _ in 0..<3 {
            let noisy = try TestImages.filter("CIMultiplyCompositing", ["inputImage": .image(noise), "inputBackgroundImage": .image(warmed)])
            #expect(try Self.bytes(noisy, context) == (try Self.bytes(noisy, Self.exact)), "factors with alpha: the float path")
        }
        #expect(context.gainFactors.made == (pixelloops_has_byte_permutes() != 0 ? 1 : 0), "refused factors are remembered")
        for _ in 0..<3 {
            let brightened = try TestImages.filter("CIVignette", ["inputImage": .image(warmed), "inputIntensity": .number(-1)])
            #expect(Self.largestDifference(try Self.bytes(brightened, Self.exact), try Self.bytes(brightened, context)) <= 1)
        }
    }

    /// The bench's vintage look: a warmer white balance, a vignette, and a film grain multiplied in.
    static func vintage(_ picture: Image, intensity: Double) throws -> Image {
        let warmed = try TestImages.filter("CITemperatureAndTint", ["inputImage": .image(picture), "inputNeutral": .vector([5500, 0]),
                                                                     "inputTargetNeutral": .vector([6500, 0])])
        let vignetted = try TestImages.filter("CIVignette", ["inputImage": .image(warmed), "inputIntensity": .number(intensity),
                                                             "inputRadius": .number(2)])
        let grey: FilterValue = .vector([0.03, 0, 0, 0])
        let grain = try TestImages.filter("CIColorMatrix", ["inputImage": .image(try TestImages.filter("CIRandomGenerator", [:])),
            "inputRVector": grey, "inputGVector": grey, "inputBVector": grey, "inputAVector": .vector([0, 0, 0, 0]),
            "inputBiasVector": .vector([0.97, 0.97, 0.97, 1])]).cropped(to: picture.extent)
        return try TestImages.filter("CIMultiplyCompositing", ["inputImage": .image(grain), "inputBackgroundImage": .image(vignetted)])
    }

    /// Tables are made once per chain and values: equal kernels (a video's next frame) reuse them, a changed value
    /// or another chain makes new ones, a chain without tables is remembered too, and the oldest chain goes first.
    @Test func tablesAreMadeOncePerChainAndValues() throws {
        let made = ColorTables.Made()
        func sepia(_ intensity: Double, over image: Image = Self.picture) throws -> Image {
            try TestImages.filter("CISepiaTone", ["inputImage": .image(image), "inputIntensity": .number(intensity)])
        }
        let area = PixelRect(covering: Self.picture.extent)
        let first = try #require(ColorTables.make(for: try sepia(1), area: area, made: made))
        // Another picture under the same kernels: the same tables.
        let sample = ColorTables.sampleColours
        let other = TestImages.rgba8(width: 128, height: 64, bytes: sample.indices.map { $0 % 4 == 3 ? 255 : sample[$0 ^ 2] })
        let again = try #require(ColorTables.make(for: try sepia(1, over: other), area: area, made: made))
        #expect(made.misses == 1)
        #expect(Self.shape(first.lookup) == "luminance" && first.lookup == again.lookup)
        // Claims to be affine but squares: refused by the sample check once.
        let square = ColorKernel(name: "square", dependence: .affine, parameters: []) { span in
            for i in 0..<span.count { span.out.r[i] *= span.out.r[i] }
        }.apply(extent: Self.picture.extent, inputs: [Self.picture])
        #expect(ColorTables.make(for: square, area: area, made: made) == nil)
        #expect(ColorTables.make(for: square, area: area, made: made) == nil)
        #expect(made.misses == 2)
        let exposed = try TestImages.filter("CIExposureAdjust", ["inputImage": .image(Self.picture), "inputEV": .number(0.25)])
        let nudged = try TestImages.filter("CIExposureAdjust", ["inputImage": .image(Self.picture), "inputEV": .number(0.25 + 1e-6)])
        _ = ColorTables.make(for: exposed, area: area, made: made)
        _ = ColorTables.make(for: nudged, area: area, made: made)
        #expect(made.misses == 4, "a value a millionth away is another chain")
        for ev in 1...ColorTables.Made.capacity {
            _ = ColorTables.make(for: try TestImages.filter("CIExposureAdjust", ["inputImage": .image(Self.picture),
                                                                                 "inputEV": .number(Double(ev))]), area: area, made: made)
        }
        _ = ColorTables.make(for: try sepia(1), area: area, made: made)
        #expect(made.misses == 5 + ColorTables.Made.capacity, "the first chain was the oldest")
    }

    /// The float path renders where tables cannot stand for it: a translucent picture, a place-dependent
    /// kernel, a colour kernel of no table's shape before the luminance, a translucent result, a rectangle
    /// reaching outside, kernels whose claims are wrong.
    @Test func theFloatPathWhereTablesCannotStandForIt() throws {
        var translucentBytes = ColorTables.sampleColours
        translucentBytes[3] = 254
        let translucent = TestImages.rgba8(width: 128, height: 64, bytes: translucentBytes)
        let area = PixelRect(covering: Self.picture.extent)
        #expect(ColorTables.make(for: try TestImages.filter("CIExposureAdjust", ["inputImage": .image(translucent)]), area: area) == nil)
        #expect(ColorTables.make(for: try TestImages.filter("CIVignette", ["inputImage": .image(Self.picture)]), area: area) == nil)
        let halfSepia = try TestImages.filter("CISepiaTone", ["inputImage": .image(Self.picture), "inputIntensity": .number(0.5)])
        #expect(ColorTables.make(for: try TestImages.filter("CISepiaTone", ["inputImage": .image(halfSepia)]), area: area) == nil)
        let halfOpaque = try TestImages.filter("CIColorMatrix", ["inputImage": .image(Self.picture),
                                                                 "inputRVector": .vector([0.9, 0.1, 0, 0]), "inputAVector": .vector([0, 0, 0, 0.5])])
        #expect(ColorTables.make(for: halfOpaque, area: area) == nil)
        let exposed = try TestImages.filter("CIExposureAdjust", ["inputImage": .image(Self.picture)])
        #expect(ColorTables.make(for: exposed, area: PixelRect(x: -1, y: 0, width: 10, height: 10)) == nil)
        // Claims per channel but swaps red and blue: the sample check refuses it.
        let liar = ColorKernel(name: "swap", dependence: .perChannel, parameters: []) { span in
            for i in 0..<span.count { (span.out.r[i], span.out.b[i]) = (span.out.b[i], span.out.r[i]) }
        }.apply(extent: Self.picture.extent, inputs: [Self.picture])
        #expect(ColorTables.make(for: liar, area: area) == nil)
        #expect(Self.largestDifference(try Self.bytes(liar, Self.exact), try Self.bytes(liar, Self.tabled)) == 0)
        // Sums past the float range (infinities, and ∞ − ∞ in the luminance): the float path, no trap.
        let huge = try TestImages.filter("CIColorMatrix", ["inputImage": .image(Self.picture),
                                                           "inputRVector": .vector([3e38, -3e38, 0, 0]), "inputGVector": .vector([0, 3e38, 0, 0])])
        #expect(ColorTables.make(for: huge, area: area) == nil)
        #expect(ColorTables.make(for: try TestImages.filter("CISepiaTone", ["inputImage": .image(huge)]), area: area) == nil)
        let steep = try TestImages.filter("CIColorControls", ["inputImage": .image(Self.picture), "inputContrast": .number(1e30),
                                                              "inputSaturation": .number(2)])
        // A contrast of 1e30 makes every channel 0 or 255: tables stay within a level of that, or fall back.
        #expect(Self.largestDifference(try Self.bytes(steep, Self.exact), try Self.bytes(steep, Self.tabled)) <= 1)
        // Claims to be affine but squares red: right at black and the primaries, refused by the sample check.
        let square = ColorKernel(name: "square", dependence: .affine, parameters: []) { span in
            for i in 0..<span.count { span.out.r[i] *= span.out.r[i] }
        }.apply(extent: Self.picture.extent, inputs: [Self.picture])
        #expect(ColorTables.make(for: square, area: area) == nil)
    }
}
