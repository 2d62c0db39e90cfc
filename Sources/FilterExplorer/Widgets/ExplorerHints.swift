import FilterEngine
import Foundation

/// Everything the explorer knows about particular filters and inputs beyond the catalogue, in one table: the
/// controls some inputs get, what image inputs are for, which filters the preview clamps or shows opaque,
/// stock values, and the engine filters the explorer itself uses. A new filter needs no explorer code unless
/// it needs a line here; filter names appear nowhere else in the explorer.
enum ExplorerHints {
    // MARK: Controls

    /// Inputs with a fixed set of values (the engine refuses others), shown as pickers.
    static let choiceTable: [String: [Choice]] = [
        "CIQRCodeGenerator.inputCorrectionLevel": [
            Choice(.string("L"), "L (7%)"), Choice(.string("M"), "M (15%)"),
            Choice(.string("Q"), "Q (25%)"), Choice(.string("H"), "H (30%)"),
        ],
        "CIPDF417BarcodeGenerator.inputCompactionMode": [
            Choice(.number(0), "0 automatic"), Choice(.number(1), "1 numeric"), Choice(.number(2), "2 text"),
            Choice(.number(3), "3 byte"),
        ],
    ]

    static func choices(filter: String?, key: String) -> [Choice]? {
        filter.flatMap { choiceTable["\($0).\(key)"] }
    }

    /// The filter that plots the tone curve editor's curve.
    static let toneCurveFilter = "CIToneCurve"

    /// Inputs whose control is not the one their class and type give.
    static func control(filter: String?, input: InputDescriptor) -> (any InputWidget)? {
        let key = input.key
        // CIToneCurve's points: offsets [input output] in 0…1, edited together as a curve.
        if input.type == .offset, let index = ToneCurveEditor.pointIndex(of: key) {
            return ToneCurveWidget(index: index)
        }
        switch input.valueClass {
        case .data:
            // Messages are text; colour tables are chosen from generated ones (or a .cube file).
            if key == "inputMessage" { return TextWidget() }
            if key.hasPrefix("inputCube") && key.hasSuffix("Data") { return ColorTableWidget(isCube: true) }
            if key == "inputCurvesData" { return ColorTableWidget(isCube: false) }
        case .object:
            if key == "inputColorSpace" { return ColorSpaceWidget() }
        default:
            break
        }
        return nil
    }

    // MARK: Images

    /// What an image input is for; `filter` tells apart inputs whose key alone says nothing (inputImage).
    static func imageRole(_ input: InputDescriptor, filter: String?) -> ImageRole {
        let key = input.key
        if input.type == .gradient { return .gradient }
        if key == "inputPaletteImage" || key == "inputMeans" { return .palette }
        // CIGuidedFilter's inputImage is the low-resolution one, brought to its guide's size.
        if key == "inputSmallImage" || (filter == "CIGuidedFilter" && key == "inputImage") { return .small }
        if filter == histogramDisplayFilter && key == "inputImage" { return .histogram }
        return .picture
    }

    /// The picture a `.picture` input starts with.
    static func stockPicture(key: String, filter: String) -> ImageChoice {
        // A guide is the full-size picture a small image (the downscaled source) is brought up to.
        if key == "inputImage" || key == "inputGuideImage" { return .source }
        if key.localizedCaseInsensitiveContains("mask") { return filter == "CIBlendWithAlphaMask" ? .alphaMask : .mask }
        if key == "inputShadingImage" { return .shading }
        return .second  // targets, back sides, backgrounds, textures, displacement maps
    }

    // MARK: Preview

    /// Filters that read pixels beyond their input's edge, fed a clamped source (see `PreviewPlanner`): the
    /// blur and sharpen categories, and these name parts (bloom, gloom, the convolutions).
    static let readsBeyondEdgeCategories: Set<String> = ["CICategoryBlur", "CICategorySharpen"]
    static let readsBeyondEdgeNameParts = ["Bloom", "Gloom", "Convolution"]

    static func readsBeyondEdge(_ descriptor: FilterDescriptor) -> Bool {
        descriptor.categories.contains(where: readsBeyondEdgeCategories.contains)
            || readsBeyondEdgeNameParts.contains { descriptor.name.contains($0) }
    }

    /// The histogram display draws a picture of a histogram; the other histograms are raw values.
    static let histogramDisplayFilter = "CIHistogramDisplayFilter"

    /// Whether an output is values rather than a picture (a reduction or a histogram), shown opaque and with
    /// its numbers in the details; `rawValues` for histograms, whose colours are the values themselves.
    static func outputIsValues(_ descriptor: FilterDescriptor) -> (values: Bool, rawValues: Bool) {
        let name = descriptor.name
        let rawValues = name.hasSuffix("Histogram") && name != histogramDisplayFilter
        return (descriptor.categories.contains("CICategoryReduction") && name != histogramDisplayFilter || rawValues, rawValues)
    }

    /// Filters whose output does not show where their rectangle lies on the picture (a reduction's swatch, a
    /// crop's result): while the rectangle is edited the preview shows the source with the rectangle outlined.
    static func editsRectangleOnSource(_ descriptor: FilterDescriptor) -> Bool {
        outputIsValues(descriptor).values || descriptor.name == "CICrop"
    }

    /// Scalar inputs that are lengths in pixels although Apple's attributes type them as plain scalars: a proxy
    /// preview divides them like distances. (Relative sizes, such as CIVignette's radius, are not listed.)
    static let pixelScalars: Set<String> = [
        "CIGaussianBlur.inputRadius", "CIMaskedVariableBlur.inputRadius", "CISharpenLuminance.inputRadius",
        "CIDepthOfField.inputRadius", "CIDepthOfField.inputUnsharpMaskRadius", "CIHighlightShadowAdjust.inputRadius",
        "CIGuidedFilter.inputRadius", "CITriangleKaleidoscope.inputSize", "CIRippleTransition.inputScale",
    ]

    // MARK: Stock values

    /// The filter the explorer opens on the first time.
    static let firstFilter = "CISepiaTone"

    /// Area histograms (their inputScale gets a visible stock value).
    static func isAreaHistogram(_ name: String) -> Bool { name.hasPrefix("CIArea") && name.hasSuffix("Histogram") }

    /// Convolutions (their weights get an emboss kernel); `keepsAlpha`: the RGB variants, which leave alpha alone.
    static func convolution(_ name: String) -> (isConvolution: Bool, keepsAlpha: Bool) {
        (name.hasPrefix("CIConvolution"), name.hasPrefix("CIConvolutionRGB"))
    }

    // MARK: Engine filters the explorer uses itself

    /// Put before edge-reading filters in the printed `render` command, as the preview clamps their source.
    static let clampFilter = "CIAffineClamp"
    /// Make the histogram sample (sRGB-encoded, then binned).
    static let linearToSRGBFilter = "CILinearToSRGBToneCurve"
    static let areaHistogramFilter = "CIAreaHistogram"
}
