import Foundation
import Testing
import CoreImage
import CoreImage.CIFilterBuiltins

/// Apple's CIFilterBuiltins spellings and types (read from Apple's CIFilterBuiltins.h): the irregular names,
/// the non-Float types and the shared protocols. This file compiling is most of the test; each value is also
/// read back.
@Suite struct BuiltinNamesTests {
    @Test func irregularNamesAndTypesMatchApple() {
        let image = CIImage(color: .red).cropped(to: CGRect(x: 0, y: 0, width: 4, height: 4))
        let point = CGPoint(x: 1, y: 2), rect = CGRect(x: 0, y: 0, width: 3, height: 4)
        let int: Int = 6, bool = true, float: Float = 0.5
        let vector = CIVector(x: 6500, y: 0), space = CGColorSpace(name: CGColorSpace.sRGB)

        let halftone = CIFilter.cmykHalftone()
        halftone.grayComponentReplacement = float; halftone.underColorRemoval = float
        let bicubic = CIFilter.bicubicScaleTransform()
        bicubic.parameterB = float; bicubic.parameterC = float; bicubic.aspectRatio = float
        let upsample = CIFilter.edgePreserveUpsample()
        upsample.smallImage = image; upsample.spatialSigma = float; upsample.lumaSigma = float
        let keystone: CIFilter & CIFourCoordinateGeometryFilter = CIFilter.keystoneCorrectionCombined()
        keystone.topLeft = point
        let perspective = CIFilter.perspectiveCorrection()
        perspective.crop = bool; perspective.bottomRight = point
        let rotate = CIFilter.perspectiveRotate()
        rotate.pitch = float; rotate.yaw = float; rotate.roll = float; rotate.focalLength = float
        let withExtent = CIFilter.perspectiveTransformWithExtent()
        withExtent.extent = rect
        let fold = CIFilter.accordionFoldTransition()
        fold.bottomHeight = float; fold.numberOfFolds = float; fold.foldShadowAmount = float; fold.targetImage = image
        let disintegrate = CIFilter.disintegrateWithMaskTransition()
        disintegrate.maskImage = image; disintegrate.shadowOffset = point; disintegrate.shadowDensity = float
        let curl = CIFilter.pageCurlWithShadowTransition()
        curl.backsideImage = image; curl.shadowExtent = rect; curl.shadowSize = float
        let clamp = CIFilter.colorClamp()
        clamp.minComponents = CIVector(x: 0, y: 0, z: 0, w: 0)
        let exposure = CIFilter.exposureAdjust()
        exposure.ev = float
        let temperature = CIFilter.temperatureAndTint()
        temperature.neutral = vector; temperature.targetNeutral = vector
        let curve = CIFilter.toneCurve()
        curve.point4 = point
        let mixed = CIFilter.colorCubesMixedWithMask()
        mixed.cube0Data = Data(); mixed.cube1Data = Data(); mixed.colorSpace = space; mixed.maskImage = image
        let curves = CIFilter.colorCurves()
        curves.curvesDomain = CIVector(x: 0, y: 1)
        let delta = CIFilter.labDeltaE()
        delta.image2 = image
        let centroid = CIFilter.paletteCentroid()
        centroid.paletteImage = image; centroid.perceptual = bool
        let tile = CIFilter.affineTile()
        tile.transform = CGAffineTransform(scaleX: 2, y: 2)
        let kaleidoscope = CIFilter.kaleidoscope()
        kaleidoscope.count = int
        let triangle = CIFilter.triangleKaleidoscope()
        triangle.point = point; triangle.decay = float; triangle.rotation = float; triangle.size = float
        let text = CIFilter.attributedTextImageGenerator()
        text.text = NSAttributedString(string: "Hi"); text.scaleFactor = float
        let aztec = CIFilter.aztecCodeGenerator()
        aztec.message = Data("A".utf8); aztec.correctionLevel = 23; aztec.layers = float; aztec.compactStyle = float
        let code128 = CIFilter.code128BarcodeGenerator()
        code128.quietSpace = float; code128.barcodeHeight = float
        let mesh = CIFilter.meshGenerator()
        mesh.mesh = [CIVector(x: 0, y: 0, z: 10, w: 10)]
        let pdf417 = CIFilter.pdf417BarcodeGenerator()
        pdf417.preferredAspectRatio = float; pdf417.alwaysSpecifyCompaction = float; pdf417.compactionMode = float
        let qr = CIFilter.qrCodeGenerator()
        qr.correctionLevel = "H"
        let star = CIFilter.starShineGenerator()
        star.crossScale = float; star.epsilon = float
        let blend: CIFilter & CIBlendWithMask = CIFilter.blendWithAlphaMask()
        blend.maskImage = image; blend.backgroundImage = image
        let convolution: CIFilter & CIConvolution = CIFilter.convolution3X3()
        convolution.weights = CIVector(values: [0, 0, 0, 0, 1, 0, 0, 0, 0], count: 9); convolution.bias = float
        let overlay = CIFilter.lineOverlay()
        overlay.nrNoiseLevel = float; overlay.nrSharpness = float; overlay.edgeIntensity = float
        let spot = CIFilter.spotColor()
        spot.centerColor1 = .red; spot.replacementColor3 = .blue; spot.closeness2 = float
        let light = CIFilter.spotLight()
        light.lightPosition = CIVector(x: 1, y: 2, z: 3); light.lightPointsAt = CIVector(x: 0, y: 0, z: 0)
        let masked = CIFilter.maskedVariableBlur()
        masked.mask = image
        let droste = CIFilter.droste()
        droste.insetPoint0 = point; droste.strands = float; droste.periodicity = float; droste.zoom = float
        let tiled = CIFilter.ninePartTiled()
        tiled.flipYTiles = bool; tiled.growAmount = point; tiled.breakpoint1 = point
        let stretch = CIFilter.stretchCrop()
        stretch.size = point; stretch.centerStretchAmount = float
        let histogram: CIFilter & CIAreaReductionFilter = CIFilter.areaHistogram()
        histogram.extent = rect
        let areaHistogram = CIFilter.areaHistogram()
        areaHistogram.count = int; areaHistogram.scale = float
        let logHistogram = CIFilter.areaLogarithmicHistogram()
        logHistogram.minimumStop = float; logHistogram.maximumStop = float
        let display = CIFilter.histogramDisplay()
        display.highLimit = float; display.lowLimit = float
        let kMeans = CIFilter.kMeans()
        kMeans.inputMeans = image; kMeans.count = int; kMeans.passes = float; kMeans.perceptual = bool
        let person = CIFilter.personSegmentation()
        person.qualityLevel = UInt(1)
        let hsv = CIFilter.hueSaturationValueGradient()
        hsv.colorSpace = space; hsv.dither = float
        let noir: CIFilter & CIPhotoEffect = CIFilter.photoEffectNoir()
        noir.inputImage = image
        let lab: CIFilter & CIConvertLab = CIFilter.convertRGBtoLab()
        lab.normalize = bool

        #expect(halftone.grayComponentReplacement == float && exposure.ev == float && rotate.yaw == float)
        #expect(perspective.crop && perspective.bottomRight == point && withExtent.extent == rect)
        #expect(temperature.neutral == vector && curve.point4 == point && tile.transform == CGAffineTransform(scaleX: 2, y: 2))
        #expect(kaleidoscope.count == int && areaHistogram.count == int && kMeans.count == int && person.qualityLevel == 1)
        #expect(text.text.string == "Hi" && aztec.correctionLevel == 23 && qr.correctionLevel == "H")
        #expect(mesh.mesh.count == 1 && mixed.colorSpace == space && hsv.colorSpace == space)
        #expect(light.lightPosition == CIVector(x: 1, y: 2, z: 3) && droste.insetPoint0 == point && tiled.flipYTiles)
        #expect(stretch.size == point && histogram.extent == rect && lab.normalize && noir.inputImage === image)
        #expect(spot.centerColor1 == .red && convolution.weights.count == 9 && blend.maskImage === image)
    }
}
