import FilterEngine
import Foundation

extension Image {
    /// The transform that turns an image stored with EXIF orientation `orientation` (1–8) upright, as Core
    /// Image's `orientationTransform(forExifOrientation:)`: mirror and/or rotate by quarter turns. It is built
    /// around the extent so that the result covers the same origin: an image at (0, 0) of w×h gives (0, 0) of
    /// w×h (1–4) or h×w (5–8). (Apple documents the operation, not where a moved extent lands; for extents at the
    /// origin, which every decoded file has, this matches.) Values outside 1–8 give the identity.
    public func orientationTransform(forExifOrientation orientation: Int) -> FilterEngine.AffineTransform {
        let e = extent
        guard !e.isEmpty, !e.isInfinite else { return .identity }
        let (w, h) = (e.width, e.height)
        // In the image's own coordinates (origin at its bottom-left corner, y up); EXIF names where the stored
        // first row and column belong: 6 puts the first row on the right (a quarter turn clockwise).
        let local: FilterEngine.AffineTransform = switch orientation {
        case 2: FilterEngine.AffineTransform(a: -1, b: 0, c: 0, d: 1, tx: w, ty: 0)        // mirrored left-right
        case 3: FilterEngine.AffineTransform(a: -1, b: 0, c: 0, d: -1, tx: w, ty: h)       // half turn
        case 4: FilterEngine.AffineTransform(a: 1, b: 0, c: 0, d: -1, tx: 0, ty: h)        // mirrored top-bottom
        case 5: FilterEngine.AffineTransform(a: 0, b: -1, c: -1, d: 0, tx: h, ty: w)       // transposed about the anti-diagonal
        case 6: FilterEngine.AffineTransform(a: 0, b: -1, c: 1, d: 0, tx: 0, ty: w)        // quarter turn clockwise
        case 7: FilterEngine.AffineTransform(a: 0, b: 1, c: 1, d: 0, tx: 0, ty: 0)         // transposed
        case 8: FilterEngine.AffineTransform(a: 0, b: 1, c: -1, d: 0, tx: h, ty: 0)        // quarter turn anticlockwise
        default: .identity
        }
        return FilterEngine.AffineTransform.translation(x: -e.minX, y: -e.minY).concatenating(local)
            .concatenating(.translation(x: e.minX, y: e.minY))
    }

    /// The image turned upright from EXIF orientation `orientation` (1–8), as Core Image's
    /// `oriented(forExifOrientation:)`.
    public func oriented(forExifOrientation orientation: Int) -> Image {
        transformed(by: orientationTransform(forExifOrientation: orientation))
    }
}
