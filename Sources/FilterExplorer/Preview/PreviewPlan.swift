import FilterEngine
import Foundation

/// A cell rectangle on the screen.
public struct CellRect: Equatable, Sendable {
    public var x: Int, y: Int, width: Int, height: Int

    public init(x: Int, y: Int, width: Int, height: Int) {
        (self.x, self.y, self.width, self.height) = (x, y, width, height)
    }

    public var maxX: Int { x + width }
    public var maxY: Int { y + height }
    public var isEmpty: Bool { width <= 0 || height <= 0 }
    public func contains(x px: Int, y py: Int) -> Bool { px >= x && px < maxX && py >= y && py < maxY }
}

/// Where an image rectangle lands in the preview area, and back: the one place that knows terminal cells are
/// about twice as tall as wide.
public struct PreviewGeometry: Equatable, Sendable {
    /// A cell's height over its width in most terminal fonts (chafa assumes the same).
    public static let cellAspect = 2.0
    /// Pixels rendered per cell (wide, tall): square pixels at `cellAspect`, and chafa's 8×8 symbol grid
    /// sampled without upscaling when it is fed this size.
    public static let pixelsPerCell = (x: 8, y: 16)

    /// The image rectangle shown (bottom-left origin, y up).
    public let imageRect: Rect
    /// The cells it covers, centred in the area and as large as fits with the right aspect.
    public let cells: CellRect

    /// `maximumCells` caps the cell count (one colour pair per cell: the terminal may have too few).
    /// `scale` (preview pixels per image pixel, from a zoom) sizes the cells exactly, so that an image smaller
    /// than the area at that scale is not stretched to fill it.
    public init(imageRect: Rect, area: CellRect, maximumCells: Int = .max, scale: Double? = nil) {
        self.imageRect = imageRect
        let aspect = imageRect.width / max(imageRect.height, 1e-9)
        var width = area.width
        var height = Int((Double(width) / aspect / Self.cellAspect).rounded())
        if height > area.height {
            height = area.height
            width = Int((Double(height) * aspect * Self.cellAspect).rounded())
        }
        if let scale, scale.isFinite, scale > 0 {
            width = min(width, max(1, Int((imageRect.width * scale / Double(Self.pixelsPerCell.x)).rounded())))
            height = min(height, max(1, Int((imageRect.height * scale / Double(Self.pixelsPerCell.y)).rounded())))
        }
        // One-pixel strips (histograms, row and column averages, k-means) are stretched across a quarter of the
        // area, so their pixels show as bars rather than one line of cells.
        if imageRect.height <= 1 { height = max(height, area.height / 4) }
        if imageRect.width <= 1 { width = max(width, area.width / 4) }
        width = max(1, min(width, area.width))
        height = max(1, min(height, area.height))
        if width * height > maximumCells {
            let shrink = (Double(maximumCells) / Double(width * height)).squareRoot()
            width = max(1, Int(Double(width) * shrink))
            height = max(1, Int(Double(height) * shrink))
        }
        cells = CellRect(x: area.x + (area.width - width) / 2, y: area.y + (area.height - height) / 2,
                         width: width, height: height)
    }

    /// The image point at the centre of a screen cell.
    public func imagePoint(cellX: Int, cellY: Int) -> (x: Double, y: Double) {
        let fx = (Double(cellX - cells.x) + 0.5) / Double(cells.width)
        let fy = (Double(cellY - cells.y) + 0.5) / Double(cells.height)
        return (imageRect.x + fx * imageRect.width, imageRect.maxY - fy * imageRect.height)
    }

    /// The screen cell showing an image point, or nil when it is outside the preview.
    public func cell(imageX: Double, imageY: Double) -> (x: Int, y: Int)? {
        let fx = (imageX - imageRect.x) / imageRect.width
        let fy = (imageRect.maxY - imageY) / imageRect.height
        guard fx.isFinite, fy.isFinite, fx >= 0, fx <= 1, fy >= 0, fy <= 1 else { return nil }
        return (cells.x + min(cells.width - 1, Int(fx * Double(cells.width))),
                cells.y + min(cells.height - 1, Int(fy * Double(cells.height))))
    }

    /// The pixel size a preview is rendered at for chafa.
    public var pixelSize: (width: Int, height: Int) {
        (cells.width * Self.pixelsPerCell.x, cells.height * Self.pixelsPerCell.y)
    }
}

/// The preview's special cases, after CIFilterTest: what to feed a filter and how to frame its output.
public enum PreviewPlanner {
    /// Filters that read pixels beyond the edge of their input: fed an image clamped to infinity (so the edge
    /// does not fade to transparent) and cropped back to the source. The blur category (blurs, median, noise
    /// reduction, morphology), sharpening, bloom, gloom and convolutions, as in CIFilterTest. Filters that
    /// clamp their input themselves (edges, edge work, line overlay, comic, highlight/shadow, depth of field,
    /// the guided filters) are left alone.
    public static func readsBeyondEdge(_ descriptor: FilterDescriptor) -> Bool {
        ExplorerHints.readsBeyondEdge(descriptor)
    }

    /// Whether a number input is a length in pixels (so a proxy preview scales it).
    public static func isMeasuredInPixels(_ input: InputDescriptor, of filter: String) -> Bool {
        input.type == .distance || ExplorerHints.pixelScalars.contains("\(filter).\(input.key)")
    }

    /// The source to give `inputImage`.
    public static func input(for descriptor: FilterDescriptor, source: Image) -> Image {
        readsBeyondEdge(descriptor) ? source.clampedToExtent() : source
    }

    /// How an output is shown: the image to render and the rectangle of it to show. (Outputs smaller than the
    /// preview, such as QR codes and barcodes, are upscaled with nearest-neighbour by `PreviewRenderer`.)
    public struct Framing: Sendable {
        public let image: Image
        /// The rectangle of `image` shown.
        public let rect: Rect
        /// How many times smaller than the source's coordinates `image` and `rect` are (1: full size).
        public var proxyFactor: Int = 1
        /// Whether `rect` cuts the output's own extent (an infinite or larger output), so that a command line
        /// reproducing it needs a crop.
        public var isCropped = false
        /// The output's own extent, before the framing cut it (infinite for generators), in `image`'s coordinates.
        public var outputExtent: Rect? = nil

        /// `outputExtent` in the source's coordinates.
        public var fullSizeOutputExtent: Rect? {
            guard let outputExtent, proxyFactor != 1, !outputExtent.isInfinite else { return outputExtent }
            return AffineTransform.scale(x: Double(proxyFactor), y: Double(proxyFactor)).apply(to: outputExtent)
        }

        /// `rect` in the source's coordinates, where markers and the mouse work.
        public var fullSizeRect: Rect {
            proxyFactor == 1 ? rect : AffineTransform.scale(x: Double(proxyFactor), y: Double(proxyFactor)).apply(to: rect)
        }
    }

    /// Frames `output` for a source of extent `sourceRect`: infinite outputs (generators, clamps), outputs of
    /// filters fed a clamped source, and outputs larger than the source are cropped to the source. Reductions
    /// are shown opaque (see `shownOpaque`).
    public static func frame(output: Image, descriptor: FilterDescriptor?, sourceRect: Rect, opaque: Bool = true,
                             proxyFactor: Int = 1) -> Framing {
        let output = opaque ? descriptor.map { shownOpaque(output, of: $0) } ?? output : output
        var extent = output.extent
        let clamped = descriptor.map(readsBeyondEdge) ?? false
        if extent.isInfinite || clamped || extent.width > sourceRect.width || extent.height > sourceRect.height {
            let inside = extent.intersection(sourceRect)
            // An output that does not meet the source at all (moved away) is shown where it is.
            extent = inside.isEmpty ? (extent.isInfinite ? sourceRect : extent) : inside
        }
        extent = extent.integral
        return Framing(image: output.cropped(to: extent), rect: extent, proxyFactor: proxyFactor,
                       isCropped: extent != output.extent, outputExtent: output.extent)
    }

    /// Some outputs are data more than pictures: a histogram's alpha is the histogram of the alpha channel
    /// (zero but in the top bin for an opaque source, so the bins would show as transparent), and k-means weights
    /// its means by alpha. Shown opaque so every pixel is visible: histograms with their values as colours,
    /// other reductions with their colours un-premultiplied. The histogram display makes a picture
    /// already and is left alone.
    static func shownOpaque(_ output: Image, of descriptor: FilterDescriptor) -> Image {
        let (values, rawValues) = ExplorerHints.outputIsValues(descriptor)
        guard values, !output.extent.isEmpty else { return output }
        let unpremultiplying = !rawValues
        return ColorKernel(name: "previewOpaque") { span in
            let p = span.out
            for i in 0..<span.count {
                if unpremultiplying, p.a[i] > 0 {
                    let k = 1 / p.a[i]
                    p.r[i] *= k; p.g[i] *= k; p.b[i] *= k
                }
                p.a[i] = 1
            }
        }.apply(extent: output.extent, inputs: [output])
    }
}

/// How much of the output the preview shows: all of it (fit), or a window around a centre at a scale, in
/// preview pixels (`PreviewGeometry.pixelsPerCell`) per image pixel, so 1 is 1:1. Coordinates are the source's.
public struct PreviewZoom: Equatable, Sendable {
    /// Preview pixels per image pixel; nil: the whole output fits the preview.
    public var scale: Double?
    /// The image point at the middle of the preview while zoomed.
    public var centreX = 0.0, centreY = 0.0

    public static let maximumScale = 64.0
    public static let fit = PreviewZoom()

    public init(scale: Double? = nil, centreX: Double = 0, centreY: Double = 0) {
        (self.scale, self.centreX, self.centreY) = (scale, centreX, centreY)
    }

    /// The scale at which all of `rect` fits `area`.
    public static func fitScale(of rect: Rect, area: CellRect) -> Double {
        let pixels = PreviewGeometry(imageRect: rect, area: area).pixelSize
        return min(Double(pixels.width) / max(rect.width, 1e-9), Double(pixels.height) / max(rect.height, 1e-9))
    }

    /// The part of `rect` shown in `area`: all of it when fitted; when zoomed, the window of the area's pixel
    /// size divided by the scale, kept inside `rect` (its origin on whole pixels, so 1:1 is pixel for pixel).
    public func visibleRect(of rect: Rect, area: CellRect) -> Rect {
        guard let scale, !rect.isInfinite, !rect.isEmpty else { return rect }
        let width = Double(area.width * PreviewGeometry.pixelsPerCell.x) / scale
        let height = Double(area.height * PreviewGeometry.pixelsPerCell.y) / scale
        guard width < rect.width || height < rect.height else { return rect }
        func origin(_ centre: Double, _ size: Double, _ min: Double, _ max: Double) -> Double {
            size >= max - min ? min : Swift.min(Swift.max((centre - size / 2).rounded(.down), min), max - size)
        }
        let x = origin(centreX, width, rect.minX, rect.maxX), y = origin(centreY, height, rect.minY, rect.maxY)
        return Rect(x: x, y: y, width: min(width, rect.width), height: min(height, rect.height))
    }

    /// Zoomed by `factor` (2 in, 0.5 out) keeping the image point (`x`, `y`) where it is on screen (the centre
    /// by default); zooming out to the fit scale or below fits. `shown` is the visible rectangle now.
    public func zoomed(by factor: Double, of rect: Rect, area: CellRect, around point: (x: Double, y: Double)? = nil) -> PreviewZoom {
        let fit = Self.fitScale(of: rect, area: area)
        let current = scale ?? fit
        let shown = visibleRect(of: rect, area: area)
        let centre = scale == nil ? (rect.midX, rect.midY) : (shown.midX, shown.midY)
        let next = min(Self.maximumScale, current * factor)
        guard next > fit * 1.0001 else { return .fit }
        let anchor = point ?? centre
        let keep = current / next
        return PreviewZoom(scale: next, centreX: anchor.x + (centre.0 - anchor.x) * keep,
                           centreY: anchor.y + (centre.1 - anchor.y) * keep)
    }

    /// One image pixel per preview pixel, around the centre of what is shown.
    public func oneToOne(of rect: Rect, area: CellRect) -> PreviewZoom {
        let shown = visibleRect(of: rect, area: area)
        return PreviewZoom(scale: 1, centreX: shown.midX, centreY: shown.midY)
    }

    /// Moved by fractions of the visible window (x right, y up), kept inside `rect`.
    public func panned(dx: Double, dy: Double, of rect: Rect, area: CellRect) -> PreviewZoom {
        guard scale != nil else { return self }
        let shown = visibleRect(of: rect, area: area)
        var next = self
        next.centreX = min(max(shown.midX + dx * shown.width, rect.minX + shown.width / 2), rect.maxX - shown.width / 2)
        next.centreY = min(max(shown.midY + dy * shown.height, rect.minY + shown.height / 2), rect.maxY - shown.height / 2)
        return next
    }

    /// The proxy factor a zoomed view needs: the largest whole factor keeping a proxy pixel no smaller than a
    /// preview pixel (1 from 1:1 on, where the visible region renders at full resolution).
    public var proxyFactor: Int? {
        guard let scale else { return nil }
        return max(1, min(64, Int((1 / scale).rounded(.down))))
    }
}
