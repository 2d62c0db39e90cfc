// As on Apple's systems, `import CoreImage` brings Foundation, Core Graphics (CGImage, CGColorSpace,
// CGAffineTransform, CGVector …) and ImageIO's metadata names and CGImagePropertyOrientation with it.
// The engine is imported internally everywhere else and is never re-exported.
@_exported import Foundation
@_exported import CoreGraphics
@_exported import ImageIO
