// As on Apple's systems, `import CoreImage` brings Foundation with it (Data, NSNumber, CGFloat, CGRect ...).
// The engine is imported internally everywhere else and is never re-exported.
@_exported import Foundation
