@_exported import CoreGraphics

// ImageIO's names for image metadata, as `CIImage.properties` holds them (Apple's values: on Apple's systems these
// are CFStrings, here Strings). Only the keys the decoders fill and the writers read are declared.

/// The orientation an image's EXIF metadata gives (values 1…8).
public enum CGImagePropertyOrientation: UInt32, Sendable, CaseIterable {
    case up = 1, upMirrored, down, downMirrored, leftMirrored, right, rightMirrored, left
}

public let kCGImagePropertyOrientation = "Orientation"
public let kCGImagePropertyPixelWidth = "PixelWidth"
public let kCGImagePropertyPixelHeight = "PixelHeight"
public let kCGImagePropertyDepth = "Depth"
public let kCGImagePropertyColorModel = "ColorModel"
public let kCGImagePropertyHasAlpha = "HasAlpha"
public let kCGImagePropertyDPIWidth = "DPIWidth"
public let kCGImagePropertyDPIHeight = "DPIHeight"
public let kCGImagePropertyProfileName = "ProfileName"
public let kCGImagePropertyColorModelRGB = "RGB"
public let kCGImagePropertyColorModelGray = "Gray"
public let kCGImagePropertyTIFFDictionary = "{TIFF}"
public let kCGImagePropertyTIFFOrientation = "Orientation"
public let kCGImagePropertyExifDictionary = "{Exif}"
public let kCGImagePropertyPNGDictionary = "{PNG}"
public let kCGImagePropertyPNGGamma = "Gamma"
public let kCGImagePropertyPNGsRGBIntent = "sRGBIntent"
public let kCGImagePropertyJFIFDictionary = "{JFIF}"

/// The JPEG quality (0…1) a writer takes.
public let kCGImageDestinationLossyCompressionQuality = "kCGImageDestinationLossyCompressionQuality"
