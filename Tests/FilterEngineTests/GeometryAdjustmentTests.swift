import Foundation
import Testing
@testable import FilterEngine

/// Scale transforms, straighten, clamp, nearest sampling and perspective: known pixels and extents.
@Suite struct GeometryAdjustmentTests {
    static let constant = Pixel(0.2, 0.4, 0.6, 1)

    static func constantImage(_ w: Int = 20, _ h: Int = 16) -> Image {
        TestImages.make(width: w, height: h) { _, _ in constant }
    }

    /// Red rises linearly along x (0.05 per pixel), opaque.
    static func ramp(_ w: Int = 40, _ h: Int = 8) -> Image {
        TestImages.make(width: w, height: h) { x, _ in Pixel(0.05 * Float(x), 0.5, 0.25, 1) }
    }

    @Test func scaleTransformsScaleTheExtent() throws {
        for name in ["CILanczosScaleTransform", "CIBicubicScaleTransform", "CIMaximumScaleTransform"] {
            let out = try TestImages.filter(name, ["inputImage": .image(TestImages.pattern(width: 64, height: 48)),
                                                  "inputScale": .number(0.5)])
            #expect(out.extent == Rect(x: 0, y: 0, width: 32, height: 24), "\(name) \(out.extent)")
            let wide = try TestImages.filter(name, ["inputImage": .image(TestImages.pattern(width: 64, height: 48)),
                                                   "inputScale": .number(2), "inputAspectRatio": .number(1.5)])
            #expect(wide.extent == Rect(x: 0, y: 0, width: 192, height: 96), "\(name) \(wide.extent)")
        }
    }

    @Test func scaleOfAConstantImageStaysConstant() throws {
        for name in ["CILanczosScaleTransform", "CIBicubicScaleTransform", "CIMaximumScaleTransform"] {
            for scale in [2.0, 0.3] {
                let out = try TestImages.filter(name, ["inputImage": .image(Self.constantImage()),
                                                      "inputScale": .number(scale)])
                let buffer = try TestImages.render(out)
                for i in 0..<buffer.rect.area {
                    #expect(close(buffer.pixels[i], Self.constant, tolerance: 1e-4), "\(name) ×\(scale) \(buffer.pixels[i])")
                    if !close(buffer.pixels[i], Self.constant, tolerance: 1e-4) { break }
                }
            }
        }
    }

    @Test func zeroScaleKeepsOnePixelOfTheMean() throws {
        // Half the image at 0.2, half at 0.6 in red: the single remaining pixel is their mean.
        let image = TestImages.make(width: 8, height: 4) { x, _ in Pixel(x < 4 ? 0.2 : 0.6, 0, 0, 1) }
        let out = try TestImages.filter("CILanczosScaleTransform", ["inputImage": .image(image), "inputScale": .number(0)])
        #expect(out.extent == Rect(x: 0, y: 0, width: 1, height: 1))
        #expect(close(try TestImages.pixel(out, x: 0, y: 0), Pixel(0.4, 0, 0, 1), tolerance: 1e-3))
    }

    @Test func identityScaleIsTheInput() throws {
        let image = TestImages.pattern()
        for name in ["CILanczosScaleTransform", "CIBicubicScaleTransform", "CIMaximumScaleTransform"] {
            let out = try TestImages.filter(name, ["inputImage": .image(image)])
            #expect(TestImages.maxDifference(try TestImages.render(out), try TestImages.render(image)) == 0)
        }
    }

    /// Away from the edges, resampling a linear ramp gives the ramp at the mapped position:
    /// output pixel x (centre x + 0.5) sits at source position (x + 0.5) / s, where red = 0.05 (pos - 0.5).
    @Test func lanczosOfALinearRampIsTheRamp() throws {
        for scale in [2.0, 0.5, 1.7] {
            let out = try TestImages.filter("CILanczosScaleTransform", ["inputImage": .image(Self.ramp()),
                                                                       "inputScale": .number(scale)])
            let buffer = try TestImages.render(out)
            let y = buffer.rect.y + buffer.rect.height / 2
            let lo = Int(8 * scale), hi = Int(32 * scale)
            for x in lo..<hi {
                let expected = 0.05 * Float((Double(x) + 0.5) / scale - 0.5)
                let p = buffer.pixel(x: x, y: y)
                #expect(abs(p.x - expected) < 2e-3, "scale \(scale) x \(x): \(p.x) vs \(expected)")
                #expect(abs(p.y - 0.5) < 1e-4)
            }
        }
    }

    @Test func bicubicOfALinearRampIsTheRamp() throws {
        // Mitchell–Netravali filters with B + 2C = 1 reproduce linear functions exactly.
        let out = try TestImages.filter("CIBicubicScaleTransform", ["inputImage": .image(Self.ramp()),
            "inputScale": .number(2), "inputB": .number(1.0 / 3), "inputC": .number(1.0 / 3)])
        let buffer = try TestImages.render(out)
        for x in 16..<64 {
            let expected = 0.05 * Float((Double(x) + 0.5) / 2 - 0.5)
            #expect(abs(buffer.pixel(x: x, y: 4).x - expected) < 1e-4, "x \(x)")
        }
    }

    @Test func maximumScaleKeepsThinBrightLines() throws {
        // A one-pixel bright column at x = 5 in a dark image survives a 4× reduction at full strength.
        let image = TestImages.make(width: 16, height: 8) { x, _ in x == 5 ? Pixel(1, 1, 1, 1) : Pixel(0, 0, 0, 1) }
        let out = try TestImages.filter("CIMaximumScaleTransform", ["inputImage": .image(image), "inputScale": .number(0.25)])
        #expect(out.extent == Rect(x: 0, y: 0, width: 4, height: 2))
        #expect(close(try TestImages.pixel(out, x: 1, y: 0), Pixel(1, 1, 1, 1)))
        #expect(close(try TestImages.pixel(out, x: 0, y: 1), Pixel(0, 0, 0, 1)))
        #expect(close(try TestImages.pixel(out, x: 2, y: 1), Pixel(0, 0, 0, 1)))
    }

    @Test func straightenKeepsTheExtentAndFillsTheCorners() throws {
        let image = Self.constantImage(40, 30)
        let out = try TestImages.filter("CIStraightenFilter", ["inputImage": .image(image), "inputAngle": .number(0.3)])
        #expect(out.extent == image.extent)
        let buffer = try TestImages.render(out)
        for (x, y) in [(0, 0), (39, 0), (0, 29), (39, 29), (20, 15)] {
            #expect(close(buffer.pixel(x: x, y: y), Self.constant, tolerance: 1e-4), "(\(x), \(y))")
        }
        let identity = try TestImages.filter("CIStraightenFilter", ["inputImage": .image(TestImages.pattern())])
        #expect(TestImages.maxDifference(try TestImages.render(identity), try TestImages.render(TestImages.pattern())) == 0)
    }

    @Test func straightenByAHalfTurnRotatesAboutTheCentre() throws {
        // A half turn needs no enlargement: pixel (x, y) comes from (w-1-x, h-1-y).
        let image = TestImages.pattern(width: 16, height: 12)
        let out = try TestImages.filter("CIStraightenFilter", ["inputImage": .image(image), "inputAngle": .number(.pi)])
        let src = try TestImages.render(image), dst = try TestImages.render(out)
        for (x, y) in [(3, 4), (10, 2), (8, 9)] {
            #expect(close(dst.pixel(x: x, y: y), src.pixel(x: 15 - x, y: 11 - y), tolerance: 1e-3))
        }
    }

    @Test func clampRepeatsTheRectanglesEdges() throws {
        let image = TestImages.pattern()
        let out = try TestImages.filter("CIClamp", ["inputImage": .image(image), "inputExtent": .vector([10, 5, 20, 10])])
        #expect(out.extent.isInfinite)
        let src = try TestImages.render(image)
        #expect(try TestImages.pixel(out, x: -50, y: 7) == src.pixel(x: 10, y: 7))
        #expect(try TestImages.pixel(out, x: 100, y: 100) == src.pixel(x: 29, y: 14))
        #expect(try TestImages.pixel(out, x: 15, y: 8) == src.pixel(x: 15, y: 8))
    }

    @Test func sampleNearestMakesAnAffineEnlargementBlocky() throws {
        let image = TestImages.make(width: 2, height: 1) { x, _ in x == 0 ? Pixel(0, 0, 0, 1) : Pixel(1, 1, 1, 1) }
        let nearest = try TestImages.filter("CISampleNearest", ["inputImage": .image(image)])
        #expect(TestImages.maxDifference(try TestImages.render(nearest), try TestImages.render(image)) == 0)
        let big = try TestImages.filter("CIAffineTransform", ["inputImage": .image(nearest),
                                                              "inputTransform": .transform(.scale(x: 4, y: 4))])
        #expect(big.extent == Rect(x: 0, y: 0, width: 8, height: 4))
        let buffer = try TestImages.render(big)
        for x in 0..<8 { #expect(buffer.pixel(x: x, y: 2) == (x < 4 ? Pixel(0, 0, 0, 1) : Pixel(1, 1, 1, 1)), "x \(x)") }
    }

    static func corners(_ r: Rect) -> [String: FilterValue] {
        ["inputBottomLeft": .vector([r.minX, r.minY]), "inputBottomRight": .vector([r.maxX, r.minY]),
         "inputTopRight": .vector([r.maxX, r.maxY]), "inputTopLeft": .vector([r.minX, r.maxY])]
    }

    @Test func perspectiveWithTheImagesOwnCornersIsTheIdentity() throws {
        let image = TestImages.pattern()
        var values = Self.corners(image.extent)
        values["inputImage"] = .image(image)
        for name in ["CIPerspectiveTransform", "CIPerspectiveCorrection"] {
            let out = try TestImages.filter(name, values)
            #expect(out.extent == image.extent, "\(name) \(out.extent)")
            #expect(TestImages.maxDifference(try TestImages.render(out), try TestImages.render(image)) < 1e-4, "\(name)")
        }
        values["inputExtent"] = .vector([0, 0, 64, 48])
        let withExtent = try TestImages.filter("CIPerspectiveTransformWithExtent", values)
        #expect(TestImages.maxDifference(try TestImages.render(withExtent), try TestImages.render(image)) < 1e-4)
    }

    @Test func perspectiveToAnAxisAlignedRectangleIsAScale() throws {
        // Corners of [0 0 64 48] onto [10 20 128 96]: output pixel (x, y) samples (x - 10) / 2, (y - 20) / 2.
        let image = TestImages.pattern()
        var values = Self.corners(Rect(x: 10, y: 20, width: 128, height: 96))
        values["inputImage"] = .image(image)
        let out = try TestImages.filter("CIPerspectiveTransform", values)
        #expect(out.extent == Rect(x: 10, y: 20, width: 128, height: 96))
        let src = try TestImages.render(image)
        for (x, y) in [(30, 40), (77, 61), (120, 100)] {
            let sx = Float(Double(x) + 0.5 - 10) / 2, sy = Float(Double(y) + 0.5 - 20) / 2
            #expect(close(try TestImages.pixel(out, x: x, y: y), src.sampleLinear(sx, sy), tolerance: 1e-4))
        }
        // Correction undoes it: the quad back to a 128×96 rectangle at its lower-left corner, then the same
        // pixels as the scaled image.
        var back = Self.corners(Rect(x: 10, y: 20, width: 128, height: 96))
        back["inputImage"] = .image(out)
        let corrected = try TestImages.filter("CIPerspectiveCorrection", back)
        #expect(corrected.extent == Rect(x: 10, y: 20, width: 128, height: 96))
        #expect(close(try TestImages.pixel(corrected, x: 60, y: 50), try TestImages.pixel(out, x: 60, y: 50), tolerance: 1e-4))
    }

    @Test func perspectiveExtentIsTheBoundingBoxOfTheCorners() throws {
        let out = try TestImages.filter("CIPerspectiveTransform", ["inputImage": .image(TestImages.pattern())])
        // Defaults: (118,484) (646,507) (548,140) (155,153).
        #expect(out.extent == Rect(x: 118, y: 140, width: 528, height: 367))
        #expect(!(try TestImages.render(out).pixel(x: 350, y: 320).w.isNaN))
    }

    @Test func cameraFiltersAreTheIdentityAtTheirDefaults() throws {
        let image = TestImages.pattern()
        for name in ["CIPerspectiveRotate", "CIKeystoneCorrectionCombined", "CIKeystoneCorrectionHorizontal",
                     "CIKeystoneCorrectionVertical"] {
            let out = try TestImages.filter(name, ["inputImage": .image(image)])
            #expect(out.extent == image.extent, "\(name)")
            #expect(TestImages.maxDifference(try TestImages.render(out), try TestImages.render(image)) < 1e-4, "\(name)")
        }
    }

    @Test func perspectiveRotateRollTurnsAboutTheCentre() throws {
        // A quarter turn anticlockwise about (32, 24): output centre (37.5, 24.5) reads (32.5, 18.5).
        let image = TestImages.pattern()
        let out = try TestImages.filter("CIPerspectiveRotate", ["inputImage": .image(image), "inputRoll": .number(.pi / 2)])
        #expect(out.extent == Rect(x: 8, y: -8, width: 48, height: 64))
        let src = try TestImages.render(image)
        #expect(close(try TestImages.pixel(out, x: 37, y: 24), src.pixel(x: 32, y: 18), tolerance: 1e-4))
        // Yaw narrows the picture on one side: a finite, different extent with finite pixels.
        let yawed = try TestImages.filter("CIPerspectiveRotate", ["inputImage": .image(image), "inputYaw": .number(0.4)])
        #expect(!yawed.extent.isInfinite && yawed.extent != image.extent)
        RegistryTests.checkFinite(try TestImages.render(yawed), "yaw")
    }

    @Test func keystoneVerticalStraightensEquallyLeaningSides() throws {
        // Both guides lean by 10 px over the height: correcting them is the shear
        // x' = x - 10 y / 48 + 5, so output (x', y') reads source (x' + 10 y' / 48 - 5, y').
        let image = TestImages.pattern()
        let out = try TestImages.filter("CIKeystoneCorrectionVertical", ["inputImage": .image(image),
            "inputBottomLeft": .vector([10, 0]), "inputTopLeft": .vector([20, 48]),
            "inputBottomRight": .vector([50, 0]), "inputTopRight": .vector([60, 48])])
        let src = try TestImages.render(image)
        for (x, y) in [(30, 10), (40, 30), (20, 40)] {
            let sx = Float(x) + 0.5 + 10 * (Float(y) + 0.5) / 48 - 5
            #expect(close(try TestImages.pixel(out, x: x, y: y), src.sampleLinear(sx, Float(y) + 0.5), tolerance: 1e-3), "(\(x), \(y))")
        }
    }
}
