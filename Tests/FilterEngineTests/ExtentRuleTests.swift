import Foundation
import Testing
@testable import FilterEngine

/// Every filter's output extent at its defaults, on an odd-sized image at a non-zero origin (101×67 at (13, −7);
/// every other image input 80×90 at (−5, 20)), checked against the rule of its family. Where a rule rests on
/// Apple's evidence the comment says so; the others are the engine's reading of Apple's description.
@Suite struct ExtentRuleTests {
    static let a = Rect(x: 13, y: -7, width: 101, height: 67)
    static let b = Rect(x: -5, y: 20, width: 80, height: 90)

    struct Rule: Sendable {
        let what: String
        let extent: @Sendable (_ image: Rect, _ other: Rect) -> Rect
        let filters: [String]
    }

    static func grown(_ r: Rect, _ dx: Double, _ dy: Double? = nil) -> Rect { r.insetBy(dx: -dx, dy: -(dy ?? dx)) }
    static func fixed(_ r: Rect) -> @Sendable (Rect, Rect) -> Rect { { _, _ in r } }

    static let rules: [Rule] = [
        Rule(what: "per-pixel: the input's extent (colour kernels, point distortions and identities at defaults)",
             extent: { a, _ in a }, filters: [
            "CIBumpDistortion", "CIBumpDistortionLinear", "CICMYKHalftone", "CICannyEdgeDetector", "CICircularScreen",
            "CIColorAbsoluteDifference", "CIColorClamp", "CIColorControls", "CIColorCrossPolynomial", "CIColorCube",
            "CIColorCubeWithColorSpace", "CIColorCubesMixedWithMask", "CIColorCurves", "CIColorInvert", "CIColorMap",
            "CIColorMatrix", "CIColorMonochrome", "CIColorPolynomial", "CIColorPosterize", "CIColorThreshold",
            "CIColorThresholdOtsu", "CIComicEffect", "CIConvertLabToRGB", "CIConvertRGBtoLab", "CIDepthOfField",
            "CIDepthToDisparity", "CIDisparityToDepth", "CIDisplacementDistortion", "CIDither", "CIDocumentEnhancer",
            "CIDotScreen", "CIDroste", "CIEdgePreserveUpsampleFilter", "CIEdgeWork", "CIEdges", "CIExposureAdjust",
            "CIFalseColor", "CIGaborGradients", "CIGammaAdjust", "CIGlassDistortion", "CIGlassLozenge", "CIGloom",
            "CIHatchedScreen", "CIHeightFieldFromMask", "CIHighlightShadowAdjust", "CIHueAdjust", "CILabDeltaE",
            "CILineOverlay", "CILineScreen", "CILinearToSRGBToneCurve", "CIMaskToAlpha",
            "CIMaximumComponent", "CIMedianFilter", "CIMinimumComponent", "CIMix", "CINoiseReduction", "CIPalettize",
            "CIPhotoEffectChrome", "CIPhotoEffectFade", "CIPhotoEffectInstant", "CIPhotoEffectMono",
            "CIPhotoEffectNoir", "CIPhotoEffectProcess", "CIPhotoEffectTonal", "CIPhotoEffectTransfer",
            "CISRGBToneCurveToLinear", "CISampleNearest", "CISepiaTone", "CIShadedMaterial",
            "CISharpenLuminance", "CISobelGradients", "CISpotColor", "CISpotLight", "CITemperatureAndTint",
            "CIThermal", "CIToneCurve", "CIToneMapHeadroom", "CITorusLensDistortion",
            "CIUnsharpMask", "CIVibrance", "CIVignette", "CIVignetteEffect", "CIVortexDistortion",
            "CIWhitePointAdjust", "CIXRay", "CIMorphologyMaximum", "CIMorphologyMinimum", "CIMorphologyGradient",
            "CISourceOutCompositing", "CIKeystoneCorrectionCombined",
            "CIKeystoneCorrectionHorizontal", "CIKeystoneCorrectionVertical", "CIPerspectiveRotate",
            // Geometry at its identity defaults.
            "CIAffineTransform", "CIBicubicScaleTransform", "CICrop", "CILanczosScaleTransform",
            "CIMaximumScaleTransform", "CIStraightenFilter",
        ]),
        Rule(what: "two images: the union of both extents (blend modes, arithmetic composites, source-over, transitions)",
             extent: { a, b in a.union(b) }, filters: [
            "CIAdditionCompositing", "CIColorBlendMode", "CIColorBurnBlendMode", "CIColorDodgeBlendMode",
            "CIDarkenBlendMode", "CIDifferenceBlendMode", "CIDivideBlendMode", "CIExclusionBlendMode",
            "CIHardLightBlendMode", "CIHueBlendMode", "CILightenBlendMode", "CILinearBurnBlendMode",
            "CILinearDodgeBlendMode", "CILinearLightBlendMode", "CILuminosityBlendMode", "CIMaximumCompositing",
            "CIMultiplyBlendMode", "CIOverlayBlendMode",
            "CIPinLightBlendMode", "CISaturationBlendMode", "CIScreenBlendMode", "CISoftLightBlendMode",
            "CISourceOverCompositing", "CISubtractBlendMode", "CIVividLightBlendMode",
            "CICopyMachineTransition",
            "CIDisintegrateWithMaskTransition", "CIDissolveTransition", "CIFlashTransition", "CIModTransition",
            "CIPageCurlTransition", "CIPageCurlWithShadowTransition", "CIRippleTransition", "CISwipeTransition",
        ]),
        Rule(what: "accordion fold at time 0 (its default): the source itself, as Core Image's code returns it",
             extent: { a, _ in a }, filters: ["CIAccordionFoldTransition"]),
        Rule(what: "bars swipe: the source's extent (Apple's iOS 7 render, conformance CIBarsSwipeTransition)",
             extent: { a, _ in a }, filters: ["CIBarsSwipeTransition"]),
        Rule(what: "Porter–Duff 'in': the intersection (Apple's render: conformance CISourceInCompositing)",
             extent: { a, b in a.intersection(b) }, filters: ["CISourceInCompositing"]),
        Rule(what: "component-wise minimum: the intersection (Apple's iOS 7 render: conformance CIMinimumCompositing)",
             extent: { a, b in a.intersection(b) }, filters: ["CIMinimumCompositing"]),
        Rule(what: "component-wise product: the intersection (Apple's reference: the product of the two images, alpha too)",
             extent: { a, b in a.intersection(b) }, filters: ["CIMultiplyCompositing"]),
        Rule(what: "Porter–Duff 'atop': the background's extent", extent: { _, b in b }, filters: ["CISourceAtopCompositing"]),
        Rule(what: "mask blends: the background plus the part of the image the mask covers",
             extent: { a, b in b.union(a.intersection(b)) },
             filters: ["CIBlendWithAlphaMask", "CIBlendWithBlueMask", "CIBlendWithMask", "CIBlendWithRedMask"]),
        Rule(what: "guided upsampling: the guide's extent", extent: { _, b in b }, filters: ["CIGuidedFilter"]),
        Rule(what: "Gaussian reach: ⌈3σ⌉ a side (σ 10 at defaults; Apple's iOS 13+ renders, conformance CIGaussianBlur)",
             extent: { a, _ in grown(a, 30) }, filters: ["CIGaussianBlur", "CIBloom"]),
        // Convolutions: half the kernel a side, along the kernel's axes.
        Rule(what: "3×3 kernel", extent: { a, _ in grown(a, 1) }, filters: ["CIConvolution3X3", "CIConvolutionRGB3X3"]),
        Rule(what: "5×5 kernel", extent: { a, _ in grown(a, 2) }, filters: ["CIConvolution5X5", "CIConvolutionRGB5X5"]),
        Rule(what: "7×7 kernel", extent: { a, _ in grown(a, 3) }, filters: ["CIConvolution7X7", "CIConvolutionRGB7X7"]),
        Rule(what: "9-tap horizontal kernel", extent: { a, _ in grown(a, 4, 0) },
             filters: ["CIConvolution9Horizontal", "CIConvolutionRGB9Horizontal"]),
        Rule(what: "9-tap vertical kernel", extent: { a, _ in grown(a, 0, 4) },
             filters: ["CIConvolution9Vertical", "CIConvolutionRGB9Vertical"]),
        Rule(what: "box blur: grown by its reach (radius 10: 4 px; Apple's r 40 render grows 19 px, conformance CIBoxBlur)",
             extent: { a, _ in grown(a, 4) }, filters: ["CIBoxBlur"]),
        Rule(what: "disc blur of radius 8: ⌈8⌉ + 2 px a side (Apple's r 20 render grows 22, conformance CIDiscBlur)",
             extent: { a, _ in grown(a, 10) }, filters: ["CIDiscBlur"]),
        Rule(what: "bokeh r 20: rounded out to even coordinates, grown 2·⌈20/2⌉ + 4 = 24 (Apple's r 30 render, conformance "
             + "CIBokehBlur), then 3σ of the softness 1", extent: fixed(Rect(x: -15, y: -35, width: 156, height: 122)),
             filters: ["CIBokehBlur"]),
        Rule(what: "masked variable blur r 5: the largest Gaussian level's ⌈3σ⌉ = 15 (today's Gaussian extents)",
             extent: { a, _ in grown(a, 15) }, filters: ["CIMaskedVariableBlur"]),
        Rule(what: "zoom blur, amount 20 about (150, 150): the input and its copy scaled by 1/(1 − 20/66) about the "
             + "centre, rounded out (Apple's render, conformance CIZoomBlur)",
             extent: fixed(Rect(x: -47, y: -76, width: 161, height: 136)), filters: ["CIZoomBlur"]),
        Rule(what: "motion blur of radius (σ) 20 at angle 0: grown 3σ = 60 px along x only", extent: { a, _ in grown(a, 60, 0) },
             filters: ["CIMotionBlur"]),
        Rule(what: "rectangle maximum and minimum 5×5: 2 px a side (the disc minimum grows as the maximum, conformance "
             + "CIMorphologyMinimum)", extent: { a, _ in grown(a, 2) },
             filters: ["CIMorphologyRectangleMaximum", "CIMorphologyRectangleMinimum"]),
        Rule(what: "cells of 20 px: grown by a cell radius", extent: { a, _ in grown(a, 20) },
             filters: ["CICrystallize", "CIPointillize"]),
        Rule(what: "pixellate: grown by half a square (scale 8: 4 px), as Apple's iOS 7 render",
             extent: { a, _ in grown(a, 4) }, filters: ["CIPixellate"]),
        Rule(what: "twirl: united with the square around its circle (centre 150,150, radius 300), as Apple's iOS 7 render",
             extent: { a, _ in a.union(Rect(x: -150, y: -150, width: 600, height: 600)) }, filters: ["CITwirlDistortion"]),
        Rule(what: "hexagonal pixellate: grown by half a cell (scale 8: 4 px)", extent: { a, _ in grown(a, 4) },
             filters: ["CIHexagonalPixellate"]),
        Rule(what: "infinite: generators without a size, clamps, tiles, and distortions that streak outwards",
             extent: fixed(.infinite), filters: [
            "CIAffineClamp", "CIAffineTile", "CIClamp", "CICheckerboardGenerator", "CIConstantColorGenerator",
            "CICircleSplashDistortion", "CIDistanceGradientFromRedMask", "CIEightfoldReflectedTile",
            "CIFourfoldReflectedTile", "CIFourfoldRotatedTile", "CIFourfoldTranslatedTile", "CIGaussianGradient",
            "CIGlideReflectedTile", "CILightTunnel", "CILinearGradient", "CIMeshGenerator", "CIOpTile",
            "CIParallelogramTile", "CIPerspectiveTile", "CIRadialGradient", "CIRandomGenerator",
            "CISixfoldReflectedTile", "CISixfoldRotatedTile", "CISmoothLinearGradient", "CIStarShineGenerator",
            "CIStripesGenerator", "CITriangleKaleidoscope", "CITriangleTile",
            "CITwelvefoldReflectedTile",
        ]),
    ]

    /// Filters whose extent depends only on their own numbers (a size, an extent input, a reduction's output),
    /// with what it is at the defaults.
    static let fixedAtDefaults: [String: Rect] = [
        "CIAreaAverage": Rect(x: 0, y: 0, width: 1, height: 1), "CIAreaBoundsRed": Rect(x: 0, y: 0, width: 1, height: 1),
        "CIAreaMaximum": Rect(x: 0, y: 0, width: 1, height: 1), "CIAreaMaximumAlpha": Rect(x: 0, y: 0, width: 1, height: 1),
        "CIAreaMinMaxRed": Rect(x: 0, y: 0, width: 1, height: 1), "CIAreaMinimum": Rect(x: 0, y: 0, width: 1, height: 1),
        "CIAreaMinimumAlpha": Rect(x: 0, y: 0, width: 1, height: 1), "CIAreaMinMax": Rect(x: 0, y: 0, width: 2, height: 1),
        "CIAreaHistogram": Rect(x: 0, y: 0, width: 64, height: 1),
        "CIAreaAlphaWeightedHistogram": Rect(x: 0, y: 0, width: 64, height: 1),
        "CIAreaLogarithmicHistogram": Rect(x: 0, y: 0, width: 64, height: 1),
        "CIKMeans": Rect(x: 0, y: 0, width: 8, height: 1),
        // inputExtent [0 0 640 80]: one pixel per column or row.
        "CIColumnAverage": Rect(x: 0, y: 0, width: 640, height: 1), "CIRowAverage": Rect(x: 0, y: 0, width: 1, height: 80),
        "CIAztecCodeGenerator": Rect(x: 0, y: 0, width: 19, height: 19),
        "CIQRCodeGenerator": Rect(x: 0, y: 0, width: 23, height: 23),
        "CICode128BarcodeGenerator": Rect(x: 0, y: 0, width: 55, height: 52),
        "CIPDF417BarcodeGenerator": Rect(x: 0, y: 0, width: 90, height: 31),
        "CIRoundedRectangleGenerator": Rect(x: 0, y: 0, width: 100, height: 100),
        "CIRoundedRectangleStrokeGenerator": Rect(x: -5, y: -5, width: 110, height: 110),
        "CIBlurredRectangleGenerator": Rect(x: -30, y: -30, width: 160, height: 160),
        "CIHueSaturationValueGradient": Rect(x: 0, y: 0, width: 600, height: 600),
        "CITextImageGenerator": Rect(x: 0, y: 0, width: 0, height: 0),
        "CIAttributedTextImageGenerator": Rect(x: 0, y: 0, width: 0, height: 0),
    ]

    static func output(_ name: String) throws -> Image {
        let pattern = TestImages.pattern(width: 101, height: 67)
        let main = try pattern.applyingFilter("CIAffineTransform", parameters: [
            "inputTransform": .transform(AffineTransform([1, 0, 0, 1, a.minX, a.minY]))])
        let other = try TestImages.pattern(width: Int(b.width), height: Int(b.height)).applyingFilter(
            "CIAffineTransform", parameters: ["inputTransform": .transform(AffineTransform([1, 0, 0, 1, b.minX, b.minY]))])
        let filter = try Filter(named: name)
        for input in filter.descriptor.inputs where input.isImage {
            try filter.setValue(.image(input.key == "inputImage" ? main : other), forKey: input.key)
        }
        return try filter.makeOutputImage()
    }

    @Test func oddInputsKeepTheirPlace() throws {
        #expect(try Self.output("CIColorMatrix").extent == Self.a)
    }

    @Test func everyFilterFollowsItsFamilysRule() throws {
        var covered: Set<String> = []
        for rule in Self.rules {
            let expected = rule.extent(Self.a, Self.b)
            for name in rule.filters {
                #expect(covered.insert(name).inserted, "\(name) is in two rules")
                let extent = try Self.output(name).extent
                #expect(extent == expected || (extent.isInfinite && expected.isInfinite),
                        "\(name): \(extent), expected \(expected) (\(rule.what))")
            }
        }
        for (name, expected) in Self.fixedAtDefaults {
            #expect(covered.insert(name).inserted, "\(name) is in two rules")
            #expect(try Self.output(name).extent == expected, "\(name): fixed at its defaults")
        }
        // Every implemented filter is covered, except the few whose extent follows their own geometry inputs (or,
        // for CIBarcodeGenerator, its descriptor: it has no default).
        let geometric: Set<String> = [
            "CICircularWrap", "CIHoleDistortion", "CIPinchDistortion", "CIKaleidoscope", "CILenticularHaloGenerator",
            "CISunbeamsGenerator",
            "CINinePartStretched", "CINinePartTiled", "CIStretchCrop", "CIPerspectiveCorrection",
            "CIPerspectiveTransform", "CIPerspectiveTransformWithExtent", "CIPaletteCentroid",
            "CIHistogramDisplayFilter", "CIBarcodeGenerator",
        ]
        // Apple's filters, that is: a custom filter's extent is its author's rule, with no Apple render to match.
        let apple = CatalogSources.appleNamesIfPresent
        for name in FilterRegistry.implementedNames where !covered.contains(name) && !geometric.contains(name)
            && apple?.contains(name) ?? true {
            Issue.record("\(name) has no extent rule here")
        }
    }
}
