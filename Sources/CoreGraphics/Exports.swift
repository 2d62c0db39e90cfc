// As on Apple's systems, `import CoreGraphics` brings the Foundation geometry types (CGFloat, CGPoint, CGSize,
// CGRect), which Foundation on Linux declares itself.
@_exported import Foundation
