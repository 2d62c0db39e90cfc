import Foundation
import Testing
@testable import FilterEngine

/// Each first filter on a few pixels, against values worked out by hand from the filter's definition.
@Suite struct FormulaTests {
    let grey = Pixel(0.2, 0.4, 0.6, 1)
    var input: Image { TestImages.make(width: 4, height: 4) { x, _ in x == 0 ? Pixel(0.2, 0.4, 0.6, 1) : Pixel(0.1, 0.2, 0.3, 0.5) } }

    @Test func exposureDoublesLinearLightPerStop() throws {
        let out = try TestImages.filter("CIExposureAdjust", ["inputImage": .image(input), "inputEV": .number(1)])
        #expect(close(try TestImages.pixel(out, x: 0, y: 0), Pixel(0.4, 0.8, 1.2, 1)))
        #expect(close(try TestImages.pixel(out, x: 1, y: 0), Pixel(0.2, 0.4, 0.6, 0.5)))
    }

    @Test func gammaRaisesStraightColour() throws {
        let out = try TestImages.filter("CIGammaAdjust", ["inputImage": .image(input), "inputPower": .number(2)])
        #expect(close(try TestImages.pixel(out, x: 0, y: 0), Pixel(0.04, 0.16, 0.36, 1)))
        // Premultiplied (0.1, 0.2, 0.3, 0.5) is straight (0.2, 0.4, 0.6): squared and premultiplied again.
        #expect(close(try TestImages.pixel(out, x: 1, y: 0), Pixel(0.02, 0.08, 0.18, 0.5)))
    }

    @Test func invertOnStraightColour() throws {
        let out = try TestImages.filter("CIColorInvert", ["inputImage": .image(input)])
        #expect(close(try TestImages.pixel(out, x: 0, y: 0), Pixel(0.8, 0.6, 0.4, 1)))
        #expect(close(try TestImages.pixel(out, x: 1, y: 0), Pixel(0.4, 0.3, 0.2, 0.5)))
    }

    @Test func colorMatrixWithBias() throws {
        let out = try TestImages.filter("CIColorMatrix", [
            "inputImage": .image(input), "inputRVector": .vector([0, 1, 0, 0]), "inputGVector": .vector([0, 0, 1, 0]),
            "inputBVector": .vector([1, 0, 0, 0]), "inputAVector": .vector([0, 0, 0, 1]),
            "inputBiasVector": .vector([0.1, 0, 0, 0]),
        ])
        #expect(close(try TestImages.pixel(out, x: 0, y: 0), Pixel(0.5, 0.6, 0.2, 1)))
        // Straight (0.2, 0.4, 0.6) → (0.5, 0.6, 0.2), premultiplied by 0.5.
        #expect(close(try TestImages.pixel(out, x: 1, y: 0), Pixel(0.25, 0.3, 0.1, 0.5)))
    }

    @Test func alphaAboveOneEncodesAsCoreImagesPremultipliedOutput() throws {
        // Apple's iOS 7 CIColorMatrix render (alpha row 1.25 on an opaque photo) shows the 8-bit output as
        // min(1, alpha · sRGB(straight colour)) with alpha clamped to 1; below alpha 1 nothing changes.
        let out = try TestImages.filter("CIColorMatrix", [
            "inputImage": .image(input), "inputRVector": .vector([0.5, 0, 0, 0]), "inputAVector": .vector([0, 0, 0, 1.25]),
        ])
        let bytes = try TestImages.context.renderRGBA8(out, rect: Rect(x: 0, y: 0, width: 2, height: 1)).bytes
        func byte(_ v: Float) -> Int { Int(min(v, 1) * 255 + 0.5) }
        func near(_ got: ArraySlice<UInt8>, _ want: [Int]) -> Bool {
            zip(got, want).allSatisfy { abs(Int($0) - $1) <= 1 }
        }
        // Pixel (0, 0): straight (0.1, 0.4, 0.6), alpha 1.25.
        let encoded = [0.1, 0.4, 0.6].map { byte(ColorMath.sRGB(fromLinear: Float($0)) * 1.25) }
        #expect(near(bytes[0..<3], encoded), "\(Array(bytes[0..<4])) vs \(encoded)")
        #expect(bytes[3] == 255)
        // Pixel (1, 0): alpha 0.5 · 1.25 = 0.625, below 1: the straight colour's bytes as before.
        let straight = [0.1, 0.4, 0.6].map { byte(ColorMath.sRGB(fromLinear: Float($0))) }
        #expect(near(bytes[4..<7], straight), "\(Array(bytes[4..<8]))")
        #expect(Int(bytes[7]) == byte(0.625))
    }

    @Test func colorControls() throws {
        let out = try TestImages.filter("CIColorControls", [
            "inputImage": .image(input), "inputSaturation": .number(0), "inputBrightness": .number(0.1),
            "inputContrast": .number(2),
        ])
        // Contrast about mid-grey first, brightness added after (Apple's iOS 7 render): not (luma + 0.1 − 0.5)·2.
        let luma: Float = 0.2126 * 0.2 + 0.7152 * 0.4 + 0.0722 * 0.6
        let v = (luma - 0.5) * 2 + 0.5 + 0.1
        #expect(close(try TestImages.pixel(out, x: 0, y: 0), Pixel(v, v, v, 1)))
    }

    @Test func sepiaIsAFunctionOfLuminanceMixedInLinearLight() throws {
        let out = try TestImages.filter("CISepiaTone", ["inputImage": .image(input), "inputIntensity": .number(1)])
        // Y = 0.2126·0.2 + 0.7152·0.4 + 0.0722·0.6 = 0.37192; the fitted curves 1.005·Y^0.785, 0.993·Y^1.086,
        // 0.923·Y^1.903 (worked out in Python).
        let expected = Pixel(0.462348, 0.339201, 0.140529, 1)
        #expect(close(try TestImages.pixel(out, x: 0, y: 0), expected))
        // The half-transparent pixel has the same straight colour: the same tone, premultiplied.
        #expect(close(try TestImages.pixel(out, x: 1, y: 0), expected * 0.5))
        let half = try TestImages.filter("CISepiaTone", ["inputImage": .image(input), "inputIntensity": .number(0.5)])
        #expect(close(try TestImages.pixel(half, x: 0, y: 0), (expected + grey) / 2))
    }

    @Test func hueRotationKeepsGreyAndLumaAndTurnsChroma() throws {
        let primaries = TestImages.make(width: 2, height: 1) { x, _ in x == 0 ? Pixel(1, 0, 0, 1) : Pixel(0.5, 0.5, 0.5, 1) }
        let out = try TestImages.filter("CIHueAdjust", ["inputImage": .image(primaries), "inputAngle": .number(1)])
        // Red: Y = 0.2126, U = B − Y = −0.2126, V = R − Y = 0.7874. Turned by 1 rad: U' = U·cos 1 − V·sin 1,
        // V' = U·sin 1 + V·cos 1; R = Y + V', B = Y + U', G = (Y − 0.2126·R − 0.0722·B) / 0.7152.
        let c = Float(cos(1.0)), s = Float(sin(1.0))
        let y: Float = 0.2126, u: Float = -0.2126, v: Float = 0.7874
        let r = y + u * s + v * c, b = y + u * c - v * s
        let g = (y - 0.2126 * r - 0.0722 * b) / 0.7152
        let red = try TestImages.pixel(out, x: 0, y: 0)
        #expect(close(red, Pixel(r, g, b, 1), tolerance: 1e-4), "\(red)")
        // Luma is kept; grey is kept.
        #expect(abs(0.2126 * red.x + 0.7152 * red.y + 0.0722 * red.z - 0.2126) < 1e-4)
        #expect(close(try TestImages.pixel(out, x: 1, y: 0), Pixel(0.5, 0.5, 0.5, 1)))
    }

    @Test func temperatureAdaptsTheNeutralWhiteToTheTarget() throws {
        // Bradford adaptation takes the white of the neutral light exactly to the white of the target light.
        func white(_ kelvin: Double) -> [Double] {
            let (x, y) = WhiteBalance.chromaticity(kelvin: kelvin, tint: 0)
            return Matrix3.multiply(Matrix3.inverse(WhiteBalance.srgbToXYZ), [x / y, 1, (1 - x - y) / y])
        }
        let adapted = Matrix3.multiply(WhiteBalance.adaptation(from: SIMD2(4000, 0), to: SIMD2(6500, 0)), white(4000))
        for (a, b) in zip(adapted, white(6500)) { #expect(abs(a - b) < 1e-9) }
        // Telling it the light was warmer than the target cools the picture: grey gets bluer.
        let cooled = try TestImages.filter("CITemperatureAndTint", [
            "inputImage": .image(input), "inputNeutral": .vector([4000, 0]), "inputTargetNeutral": .vector([6500, 0])])
        let p = try TestImages.pixel(cooled, x: 0, y: 0)
        #expect(p.z / p.x > 0.6 / 0.2)
        // Same neutral and target (the defaults): identity.
        let out = try TestImages.filter("CITemperatureAndTint", ["inputImage": .image(input)])
        #expect(close(try TestImages.pixel(out, x: 0, y: 0), grey))
    }

    @Test func constantColourIsLinearised() throws {
        let out = try TestImages.filter("CIConstantColorGenerator", ["inputColor": .color(Color(red: 0.5, green: 1, blue: 0, alpha: 1))])
        #expect(out.extent.isInfinite)
        #expect(close(try TestImages.pixel(out, x: -100, y: 5000), Pixel(ColorMath.linear(fromSRGB: 0.5), 1, 0, 1)))
    }

    @Test func checkerboardSquares() throws {
        let out = try TestImages.filter("CICheckerboardGenerator", [
            "inputCenter": .vector([0, 0]), "inputWidth": .number(10), "inputSharpness": .number(1),
        ])
        let white = Pixel(1, 1, 1, 1), black = Pixel(0, 0, 0, 1)
        #expect(close(try TestImages.pixel(out, x: 5, y: 5), white))
        #expect(close(try TestImages.pixel(out, x: 15, y: 5), black))
        #expect(close(try TestImages.pixel(out, x: 15, y: 15), white))
        #expect(close(try TestImages.pixel(out, x: -5, y: 5), black))
    }

    @Test func randomIsUniformAndDeterministic() throws {
        let out = try Filter(named: "CIRandomGenerator").makeOutputImage()
        let a = try TestImages.render(out, Rect(x: 0, y: 0, width: 200, height: 200))
        let b = try TestImages.render(out, Rect(x: 0, y: 0, width: 200, height: 200))
        #expect(TestImages.maxDifference(a, b) == 0)
        var mean = SIMD4<Double>(0, 0, 0, 0)
        for i in 0..<a.rect.area {
            #expect(a.pixels[i].min() >= 0 && a.pixels[i].max() <= 1)  // bytes / 255: 255 gives 1
            mean += SIMD4<Double>(a.pixels[i])
        }
        mean /= Double(a.rect.area)
        #expect(largestComponent(mean - SIMD4(repeating: 0.5)) < 0.01, "\(mean)")
    }

    @Test func compositing() throws {
        let fg = TestImages.make(width: 2, height: 1) { x, _ in x == 0 ? Pixel(0.25, 0, 0, 0.5) : Pixel(0, 0, 0, 0) }
        let bg = TestImages.make(width: 2, height: 1) { _, _ in Pixel(0, 0.5, 1, 1) }
        let over = try TestImages.filter("CISourceOverCompositing", ["inputImage": .image(fg), "inputBackgroundImage": .image(bg)])
        #expect(close(try TestImages.pixel(over, x: 0, y: 0), Pixel(0.25, 0.25, 0.5, 1)))
        #expect(close(try TestImages.pixel(over, x: 1, y: 0), Pixel(0, 0.5, 1, 1)))
        let multiply = try TestImages.filter("CIMultiplyCompositing", ["inputImage": .image(fg), "inputBackgroundImage": .image(bg)])
        // The component-wise product, alpha too: (0.25·0, 0·0.5, 0·1, 0.5·1); where the foreground is clear, clear.
        #expect(close(try TestImages.pixel(multiply, x: 0, y: 0), Pixel(0, 0, 0, 0.5)))
        #expect(close(try TestImages.pixel(multiply, x: 1, y: 0), Pixel(0, 0, 0, 0)))
    }

    @Test func vignetteIsAPowerOfOneMinusTheSquaredDistance() throws {
        // 200×100: S = min(200, 100) · radius / 2 = 100 at radius 2 (and at 10: the radius clamps to 2).
        let flat = TestImages.make(width: 200, height: 100) { _, _ in Pixel(0.5, 0.5, 0.5, 1) }
        for radius in [2.0, 10] {
            let out = try TestImages.filter("CIVignette", ["inputImage": .image(flat), "inputIntensity": .number(2),
                                                           "inputRadius": .number(radius)])
            // Pixel (150, 50): centre (150.5, 50.5), d = 50.5 from (100, 50): (1 − 50.5²/100²)⁴.
            let expected = 0.5 * powf(1 - 50.5 * 50.5 / 10000, 4)
            #expect(abs(try TestImages.pixel(out, x: 150, y: 50).x - expected) < 1e-4)
            // Beyond S: black. Near the centre: almost unchanged.
            #expect(try TestImages.pixel(out, x: 199, y: 0).x == 0)
            #expect(abs(try TestImages.pixel(out, x: 100, y: 50).x - 0.5) < 1e-3)
        }
        // Radius 1 halves S: the same pixel is past it.
        let small = try TestImages.filter("CIVignette", ["inputImage": .image(flat), "inputIntensity": .number(1),
                                                         "inputRadius": .number(1)])
        #expect(try TestImages.pixel(small, x: 150, y: 50).x == 0)
    }

    @Test func twirlLeavesTheOutsideAndTurnsTheCentre() throws {
        // A linear ramp, so bilinear sampling reads back exactly the ramp at the source point.
        let image = TestImages.make(width: 64, height: 64) { x, y in Pixel(Float(x) / 64, Float(y) / 64, 0, 1) }
        let out = try TestImages.filter("CITwirlDistortion", [
            "inputImage": .image(image), "inputCenter": .vector([32, 32]), "inputRadius": .number(20),
            "inputAngle": .number(Double.pi),
        ])
        #expect(out.extent == image.extent)
        #expect(close(try TestImages.pixel(out, x: 2, y: 60), try TestImages.pixel(image, x: 2, y: 60)))
        // Pixel (40, 32): its centre is (8.5, 0.5) from the twirl's. The content turns anticlockwise by
        // π·s(1 - d/20), s the smoothstep, so the pixel reads the point turned clockwise by that angle.
        let t = 1 - (8.5 * 8.5 + 0.25).squareRoot() / 20, theta = Double.pi * t * t * (3 - 2 * t)
        let sx = 32 + 8.5 * cos(theta) + 0.5 * sin(theta), sy = 32 - 8.5 * sin(theta) + 0.5 * cos(theta)
        let p = try TestImages.pixel(out, x: 40, y: 32)
        #expect(abs(Double(p.x) - (sx - 0.5) / 64) < 1e-4 && abs(Double(p.y) - (sy - 0.5) / 64) < 1e-4, "\(p)")
    }

    @Test func areaAverage() throws {
        let image = TestImages.make(width: 4, height: 2) { x, _ in Pixel(Float(x), 0, 0, 1) }
        let out = try TestImages.filter("CIAreaAverage", ["inputImage": .image(image), "inputExtent": .vector([0, 0, 4, 2])])
        #expect(out.extent == Rect(x: 0, y: 0, width: 1, height: 1))
        #expect(close(try TestImages.pixel(out, x: 0, y: 0), Pixel(1.5, 0, 0, 1)))
    }

    @Test func affineTransformTranslatesAndScales() throws {
        let image = TestImages.pattern(width: 16, height: 16)
        let moved = try TestImages.filter("CIAffineTransform", ["inputImage": .image(image), "inputTransform": .transform(.translation(x: 3, y: -2))])
        #expect(moved.extent == Rect(x: 3, y: -2, width: 16, height: 16))
        #expect(close(try TestImages.pixel(moved, x: 10, y: 5), try TestImages.pixel(image, x: 7, y: 7)))
        let doubled = try TestImages.filter("CIAffineTransform", ["inputImage": .image(image), "inputTransform": .transform(.scale(x: 2, y: 2))])
        #expect(doubled.extent == Rect(x: 0, y: 0, width: 32, height: 32))
        // Output pixel (9, 9) has its centre at 9.5 → source 4.75: between pixels 4 and 5 (centres 4.5, 5.5).
        let a = try TestImages.pixel(image, x: 4, y: 4), b = try TestImages.pixel(image, x: 5, y: 4)
        let c = try TestImages.pixel(image, x: 4, y: 5), d = try TestImages.pixel(image, x: 5, y: 5)
        let expected = (a * 0.75 + b * 0.25) * 0.75 + (c * 0.75 + d * 0.25) * 0.25
        #expect(close(try TestImages.pixel(doubled, x: 9, y: 9), expected))
    }
}
