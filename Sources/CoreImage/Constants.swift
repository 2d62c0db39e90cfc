import Foundation

// Core Image's string constants, with Apple's values. Filter keys and attribute keys are plain Strings, as
// Swift imports them on Apple's systems.

// MARK: Filter attribute keys

public let kCIAttributeFilterName = "CIAttributeFilterName"
public let kCIAttributeFilterDisplayName = "CIAttributeFilterDisplayName"
public let kCIAttributeDescription = "CIAttributeDescription"
public let kCIAttributeFilterAvailable_Mac = "CIAttributeFilterAvailable_Mac"
public let kCIAttributeFilterAvailable_iOS = "CIAttributeFilterAvailable_iOS"
public let kCIAttributeReferenceDocumentation = "CIAttributeReferenceDocumentation"
public let kCIAttributeFilterCategories = "CIAttributeFilterCategories"
public let kCIAttributeClass = "CIAttributeClass"
public let kCIAttributeType = "CIAttributeType"
public let kCIAttributeMin = "CIAttributeMin"
public let kCIAttributeMax = "CIAttributeMax"
public let kCIAttributeSliderMin = "CIAttributeSliderMin"
public let kCIAttributeSliderMax = "CIAttributeSliderMax"
public let kCIAttributeDefault = "CIAttributeDefault"
public let kCIAttributeIdentity = "CIAttributeIdentity"
public let kCIAttributeName = "CIAttributeName"
public let kCIAttributeDisplayName = "CIAttributeDisplayName"
public let kCIUIParameterSet = "CIUIParameterSet"
public let kCIUISetBasic = "CIUISetBasic"
public let kCIUISetIntermediate = "CIUISetIntermediate"
public let kCIUISetAdvanced = "CIUISetAdvanced"
public let kCIUISetDevelopment = "CIUISetDevelopment"

// MARK: Attribute types

public let kCIAttributeTypeTime = "CIAttributeTypeTime"
public let kCIAttributeTypeScalar = "CIAttributeTypeScalar"
public let kCIAttributeTypeDistance = "CIAttributeTypeDistance"
public let kCIAttributeTypeAngle = "CIAttributeTypeAngle"
public let kCIAttributeTypeBoolean = "CIAttributeTypeBoolean"
public let kCIAttributeTypeInteger = "CIAttributeTypeInteger"
public let kCIAttributeTypeCount = "CIAttributeTypeCount"
public let kCIAttributeTypePosition = "CIAttributeTypePosition"
public let kCIAttributeTypeOffset = "CIAttributeTypeOffset"
public let kCIAttributeTypePosition3 = "CIAttributeTypePosition3"
public let kCIAttributeTypeRectangle = "CIAttributeTypeRectangle"
public let kCIAttributeTypeOpaqueColor = "CIAttributeTypeOpaqueColor"
public let kCIAttributeTypeColor = "CIAttributeTypeColor"
public let kCIAttributeTypeGradient = "CIAttributeTypeGradient"
public let kCIAttributeTypeImage = "CIAttributeTypeImage"
public let kCIAttributeTypeTransform = "CIAttributeTypeTransform"

// MARK: Categories

public let kCICategoryDistortionEffect = "CICategoryDistortionEffect"
public let kCICategoryGeometryAdjustment = "CICategoryGeometryAdjustment"
public let kCICategoryCompositeOperation = "CICategoryCompositeOperation"
public let kCICategoryHalftoneEffect = "CICategoryHalftoneEffect"
public let kCICategoryColorAdjustment = "CICategoryColorAdjustment"
public let kCICategoryColorEffect = "CICategoryColorEffect"
public let kCICategoryTransition = "CICategoryTransition"
public let kCICategoryTileEffect = "CICategoryTileEffect"
public let kCICategoryGenerator = "CICategoryGenerator"
public let kCICategoryReduction = "CICategoryReduction"
public let kCICategoryGradient = "CICategoryGradient"
public let kCICategoryStylize = "CICategoryStylize"
public let kCICategorySharpen = "CICategorySharpen"
public let kCICategoryBlur = "CICategoryBlur"
public let kCICategoryVideo = "CICategoryVideo"
public let kCICategoryStillImage = "CICategoryStillImage"
public let kCICategoryInterlaced = "CICategoryInterlaced"
public let kCICategoryNonSquarePixels = "CICategoryNonSquarePixels"
public let kCICategoryHighDynamicRange = "CICategoryHighDynamicRange"
public let kCICategoryBuiltIn = "CICategoryBuiltIn"
public let kCICategoryFilterGenerator = "CICategoryFilterGenerator"

// MARK: Apply options (CIFilter.apply, for custom kernels)

public let kCIApplyOptionExtent = "extent"
public let kCIApplyOptionDefinition = "definition"
public let kCIApplyOptionUserInfo = "userInfo"
public let kCIApplyOptionColorSpace = "colorSpace"

// MARK: Common filter keys

public let kCIOutputImageKey = "outputImage"
public let kCIInputBackgroundImageKey = "inputBackgroundImage"
public let kCIInputImageKey = "inputImage"
public let kCIInputDepthImageKey = "inputDepthImage"
public let kCIInputDisparityImageKey = "inputDisparityImage"
public let kCIInputAmountKey = "inputAmount"
public let kCIInputTimeKey = "inputTime"
public let kCIInputTransformKey = "inputTransform"
public let kCIInputScaleKey = "inputScale"
public let kCIInputAspectRatioKey = "inputAspectRatio"
public let kCIInputCenterKey = "inputCenter"
public let kCIInputRadiusKey = "inputRadius"
public let kCIInputAngleKey = "inputAngle"
public let kCIInputRefractionKey = "inputRefraction"
public let kCIInputWidthKey = "inputWidth"
public let kCIInputSharpnessKey = "inputSharpness"
public let kCIInputIntensityKey = "inputIntensity"
public let kCIInputEVKey = "inputEV"
public let kCIInputSaturationKey = "inputSaturation"
public let kCIInputColorKey = "inputColor"
public let kCIInputBrightnessKey = "inputBrightness"
public let kCIInputContrastKey = "inputContrast"
public let kCIInputBiasKey = "inputBias"
public let kCIInputWeightsKey = "inputWeights"
public let kCIInputGradientImageKey = "inputGradientImage"
public let kCIInputMaskImageKey = "inputMaskImage"
public let kCIInputMatteImageKey = "inputMatteImage"
public let kCIInputShadingImageKey = "inputShadingImage"
public let kCIInputTargetImageKey = "inputTargetImage"
public let kCIInputExtentKey = "inputExtent"
public let kCIInputVersionKey = "inputVersion"
public let kCIInputBacksideImageKey = "inputBacksideImage"

// MARK: Option types

/// The shape of Core Image's string-valued option names: Apple's structs take the name with and without the
/// `rawValue:` label.
public protocol _CoreImageKey: Hashable, RawRepresentable, Sendable where RawValue == String {
    init(rawValue: String)
}

extension _CoreImageKey {
    public init(_ rawValue: String) { self.init(rawValue: rawValue) }
}

/// A `CIContext` option key.
public struct CIContextOption: _CoreImageKey {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A `CGColorSpace` (or `NSNull` for none) that outputs are converted to. Default sRGB.
    public static let outputColorSpace = CIContextOption("output_color_space")
    /// A `CGColorSpace` the filters work in (or `NSNull` to work unmanaged). Default linear sRGB.
    public static let workingColorSpace = CIContextOption("working_color_space")
    /// A `CIFormat` for intermediate images. Accepted; the engine always works in 32-bit float.
    public static let workingFormat = CIContextOption("working_format")
    /// A Bool: higher-quality (slower) downsampling in `transformed(by:)`. Accepted.
    public static let highQualityDownsample = CIContextOption("high_quality_downsample")
    /// A Bool: whether rendered RGBA output is premultiplied (default true).
    public static let outputPremultiplied = CIContextOption("output_premultiplied")
    /// A Bool: keep intermediate buffers between renders (default true on Apple's systems; here it turns on the
    /// engine's intermediate cache of 256 MB).
    public static let cacheIntermediates = CIContextOption("kCIContextCacheIntermediates")
    /// A Bool. Every context here renders on the CPU, so this is always in effect.
    public static let useSoftwareRenderer = CIContextOption("software_renderer")
    /// A Bool: render at low priority. Accepted and ignored.
    public static let priorityRequestLow = CIContextOption("priority_request_low")
    /// A Bool: allow a low-power GPU. Accepted and ignored.
    public static let allowLowPower = CIContextOption("kCIContextAllowLowPower")
    /// A String naming the context (for debugging).
    public static let name = CIContextOption("kCIContextName")
    /// A number of bytes: the memory the context aims to stay within. Used as the cache size with
    /// `.cacheIntermediates`.
    public static let memoryTarget = CIContextOption("kCIContextMemoryLimit")
}

public let kCIContextOutputColorSpace = CIContextOption.outputColorSpace
public let kCIContextWorkingColorSpace = CIContextOption.workingColorSpace
public let kCIContextWorkingFormat = CIContextOption.workingFormat
public let kCIContextHighQualityDownsample = CIContextOption.highQualityDownsample
public let kCIContextOutputPremultiplied = CIContextOption.outputPremultiplied
public let kCIContextCacheIntermediates = CIContextOption.cacheIntermediates
public let kCIContextUseSoftwareRenderer = CIContextOption.useSoftwareRenderer
public let kCIContextPriorityRequestLow = CIContextOption.priorityRequestLow
public let kCIContextAllowLowPower = CIContextOption.allowLowPower
public let kCIContextName = CIContextOption.name

/// A `CIImage` creation option key.
public struct CIImageOption: _CoreImageKey {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }

    /// A `CGColorSpace` the pixels are in (or `NSNull` to leave them unmanaged).
    public static let colorSpace = CIImageOption("kCIImageColorSpace")
    /// A Bool: apply the EXIF orientation of the file.
    public static let applyOrientationProperty = CIImageOption("kCIImageApplyOrientationProperty")
    /// A dictionary of metadata to attach (it replaces the file's).
    public static let properties = CIImageOption("kCIImageProperties")
    /// A Bool: sample the image with nearest neighbour (as `samplingNearest()`).
    public static let nearestSampling = CIImageOption("kCIImageNearestSampling")
    /// A Bool: tone-map HDR content to SDR. Accepted; files here are SDR.
    public static let toneMapHDRtoSDR = CIImageOption("kCIImageToneMapHDRtoSDR")
    /// Auxiliary images (depth, mattes) exist only in Apple's HEIF files: these give nil here.
    public static let auxiliaryDepth = CIImageOption("kCIImageAuxiliaryDepth")
    public static let auxiliaryDisparity = CIImageOption("kCIImageAuxiliaryDisparity")
    public static let auxiliaryPortraitEffectsMatte = CIImageOption("kCIImageAuxiliaryPortraitEffectsMatte")
    public static let cacheImmediately = CIImageOption("kCIImageCacheImmediately")
}

public let kCIImageColorSpace = CIImageOption.colorSpace
public let kCIImageApplyOrientationProperty = CIImageOption.applyOrientationProperty
public let kCIImageProperties = CIImageOption.properties
public let kCIImageNearestSampling = CIImageOption.nearestSampling
public let kCIImageToneMapHDRtoSDR = CIImageOption.toneMapHDRtoSDR
public let kCIImageAuxiliaryDepth = CIImageOption.auxiliaryDepth
public let kCIImageAuxiliaryDisparity = CIImageOption.auxiliaryDisparity
public let kCIImageAuxiliaryPortraitEffectsMatte = CIImageOption.auxiliaryPortraitEffectsMatte
public let kCIImageCacheImmediately = CIImageOption.cacheImmediately

/// An option key of `CIContext`'s PNG/JPEG encoders (the JPEG quality, `kCGImageDestinationLossyCompressionQuality`).
public struct CIImageRepresentationOption: _CoreImageKey {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
}

/// A pixel format for rendering to memory.
public struct CIFormat: Hashable, RawRepresentable, Sendable {
    public let rawValue: Int32
    public init(rawValue: Int32) { self.rawValue = rawValue }

    public static let ARGB8 = CIFormat(rawValue: 264)
    public static let BGRA8 = CIFormat(rawValue: 266)
    public static let RGBA8 = CIFormat(rawValue: 24)
    public static let ABGR8 = CIFormat(rawValue: 268)
    public static let RGBAh = CIFormat(rawValue: 2056)
    public static let RGBA16 = CIFormat(rawValue: 291)
    public static let RGBAf = CIFormat(rawValue: 34)
    public static let RGBX16 = CIFormat(rawValue: 0x13D)
    public static let A8 = CIFormat(rawValue: 267)
    public static let A16 = CIFormat(rawValue: 269)
    public static let Ah = CIFormat(rawValue: 270)
    public static let Af = CIFormat(rawValue: 271)
    public static let R8 = CIFormat(rawValue: 272)
    public static let R16 = CIFormat(rawValue: 273)
    public static let Rh = CIFormat(rawValue: 274)
    public static let Rf = CIFormat(rawValue: 275)
    public static let RG8 = CIFormat(rawValue: 276)
    public static let RG16 = CIFormat(rawValue: 277)
    public static let RGh = CIFormat(rawValue: 278)
    public static let RGf = CIFormat(rawValue: 279)
    public static let L8 = CIFormat(rawValue: 280)
    public static let L16 = CIFormat(rawValue: 281)
    public static let Lh = CIFormat(rawValue: 282)
    public static let Lf = CIFormat(rawValue: 283)
    public static let LA8 = CIFormat(rawValue: 284)
    public static let LA16 = CIFormat(rawValue: 285)
    public static let LAh = CIFormat(rawValue: 286)
    public static let LAf = CIFormat(rawValue: 287)
    public static let RGBX8 = CIFormat(rawValue: 0x13E)
    public static let rgbXh = CIFormat(rawValue: 0x13F)
    public static let rgbXf = CIFormat(rawValue: 0x140)
    public static let RGB10 = CIFormat(rawValue: 0x141)

    /// Channels per pixel, bytes per channel, where alpha is, whether the channels are float (nil: unsupported).
    var layout: (channels: [Channel], bytesPerChannel: Int, float: Bool)? {
        switch self {
        case .RGBA8: ([.r, .g, .b, .a], 1, false)
        case .BGRA8: ([.b, .g, .r, .a], 1, false)
        case .ARGB8: ([.a, .r, .g, .b], 1, false)
        case .ABGR8: ([.a, .b, .g, .r], 1, false)
        case .RGBA16: ([.r, .g, .b, .a], 2, false)
        case .RGBAh: ([.r, .g, .b, .a], 2, true)
        case .RGBAf: ([.r, .g, .b, .a], 4, true)
        case .A8: ([.a], 1, false)
        case .A16: ([.a], 2, false)
        case .Ah: ([.a], 2, true)
        case .Af: ([.a], 4, true)
        case .R8: ([.r], 1, false)
        case .R16: ([.r], 2, false)
        case .Rh: ([.r], 2, true)
        case .Rf: ([.r], 4, true)
        case .RG8: ([.r, .g], 1, false)
        case .RG16: ([.r, .g], 2, false)
        case .RGh: ([.r, .g], 2, true)
        case .RGf: ([.r, .g], 4, true)
        case .L8: ([.luma], 1, false)
        case .L16: ([.luma], 2, false)
        case .Lh: ([.luma], 2, true)
        case .Lf: ([.luma], 4, true)
        case .LA8: ([.luma, .a], 1, false)
        case .LA16: ([.luma, .a], 2, false)
        case .LAh: ([.luma, .a], 2, true)
        case .LAf: ([.luma, .a], 4, true)
        case .RGBX8: ([.r, .g, .b, .one], 1, false)
        case .RGBX16: ([.r, .g, .b, .one], 2, false)
        case .rgbXh: ([.r, .g, .b, .one], 2, true)
        case .rgbXf: ([.r, .g, .b, .one], 4, true)
        default: nil
        }
    }

    /// `one`: a padding channel written as 1 (the RGBX formats), read as nothing.
    enum Channel { case r, g, b, a, luma, one }
}

public let kCIFormatRGBA8 = CIFormat.RGBA8
public let kCIFormatBGRA8 = CIFormat.BGRA8
public let kCIFormatARGB8 = CIFormat.ARGB8
public let kCIFormatRGBAh = CIFormat.RGBAh
public let kCIFormatRGBA16 = CIFormat.RGBA16
public let kCIFormatRGBAf = CIFormat.RGBAf
public let kCIFormatABGR8 = CIFormat.ABGR8
public let kCIFormatRGBX16 = CIFormat.RGBX16
public let kCIFormatRGBX8 = CIFormat.RGBX8
public let kCIFormatRGBXh = CIFormat.rgbXh
public let kCIFormatRGBXf = CIFormat.rgbXf
public let kCIFormatRGB10 = CIFormat.RGB10
public let kCIFormatA8 = CIFormat.A8
public let kCIFormatA16 = CIFormat.A16
public let kCIFormatAh = CIFormat.Ah
public let kCIFormatAf = CIFormat.Af
public let kCIFormatR8 = CIFormat.R8
public let kCIFormatR16 = CIFormat.R16
public let kCIFormatRh = CIFormat.Rh
public let kCIFormatRf = CIFormat.Rf
public let kCIFormatRG8 = CIFormat.RG8
public let kCIFormatRG16 = CIFormat.RG16
public let kCIFormatRGh = CIFormat.RGh
public let kCIFormatRGf = CIFormat.RGf
public let kCIFormatL8 = CIFormat.L8
public let kCIFormatL16 = CIFormat.L16
public let kCIFormatLh = CIFormat.Lh
public let kCIFormatLf = CIFormat.Lf
public let kCIFormatLA8 = CIFormat.LA8
public let kCIFormatLA16 = CIFormat.LA16
public let kCIFormatLAh = CIFormat.LAh
public let kCIFormatLAf = CIFormat.LAf

/// An option of `CIImage.autoAdjustmentFilters(options:)`.
public struct CIImageAutoAdjustmentOption: _CoreImageKey {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public static let enhance = CIImageAutoAdjustmentOption("CIImageAutoAdjustEnhance")
    public static let redEye = CIImageAutoAdjustmentOption("CIImageAutoAdjustRedEye")
    public static let features = CIImageAutoAdjustmentOption("CIImageAutoAdjustFeatures")
    public static let crop = CIImageAutoAdjustmentOption("CIImageAutoAdjustCrop")
    public static let level = CIImageAutoAdjustmentOption("CIImageAutoAdjustLevel")
}

public let kCIImageAutoAdjustEnhance = CIImageAutoAdjustmentOption.enhance.rawValue
public let kCIImageAutoAdjustRedEye = CIImageAutoAdjustmentOption.redEye.rawValue
public let kCIImageAutoAdjustFeatures = CIImageAutoAdjustmentOption.features.rawValue
public let kCIImageAutoAdjustCrop = CIImageAutoAdjustmentOption.crop.rawValue
public let kCIImageAutoAdjustLevel = CIImageAutoAdjustmentOption.level.rawValue

// Options of `CIImage(imageProvider:…)` (image providers are not supported here; the keys exist for code that
// names them).
public let kCIImageProviderTileSize = "CIImageProviderTileSize"
public let kCIImageProviderUserInfo = "CIImageProviderUserInfo"
