import Foundation

// Resizing distortions: stretch-and-crop to a target size, and the nine-part (resizable image) stretch and tile.

/// One axis of a nine-part image: below `low` and above `high` the image keeps its size; the band between them
/// (`middle` = high − low source pixels) becomes `grown` output pixels, stretched or repeated.
struct NinePartAxis {
    let low: Double, middle: Double, grown: Double
    let tiled: Bool
    /// For tiles: every other repeat mirrored (true) or all repeats the same way up.
    let mirrored: Bool

    init(breakpoints a: Double, _ b: Double, grow: Double, extentMin: Double, extentMax: Double, tiled: Bool, mirrored: Bool) {
        let lo = min(max(min(a, b), extentMin), extentMax), hi = min(max(max(a, b), extentMin), extentMax)
        low = lo
        middle = hi - lo
        grown = max(0, middle + grow)
        self.tiled = tiled
        self.mirrored = mirrored
    }

    /// How much longer the output is than the input along this axis.
    var growth: Double { grown - middle }

    /// The source coordinate of output coordinate `x`.
    @inline(__always) func map(_ x: Float) -> Float {
        let lo = Float(low), m = Float(middle), g = Float(grown)
        if x < lo { return x }
        if x >= lo + g { return x - (g - m) }
        guard m > 0 else { return lo }
        let u = x - lo
        if !tiled { return lo + u * (m / g) }
        let k = (u / m).rounded(.down)
        let f = u - m * k
        // Odd repeats run backwards: each tile meets its neighbour at the same source row (no seam).
        if mirrored, Int(k) & 1 != 0 { return lo + m - f }
        return lo + f
    }

    /// The source interval an output interval reads.
    func sourceRange(_ a: Double, _ b: Double) -> (Double, Double) {
        let fa = Double(map(Float(a))), fb = Double(map(Float(b)))
        var lo = min(fa, fb), hi = max(fa, fb)
        if tiled, b > low, a < low + grown { lo = min(lo, low); hi = max(hi, low + middle) }
        return (lo, hi)
    }
}

extension DistortionFilters {
    /// Fits the image to `inputSize`: crop amount 0 stretches the whole image to the new shape, 1 keeps its
    /// proportions and crops the overflow (centred), values between do part of each. The centre-stretch amount
    /// moves the remaining stretch towards the middle so that the sides keep their proportions: along the axis
    /// stretched more, the source position is u + a · sin(2πu) / 2π of the way across (u the output fraction),
    /// where a = k · (ratio − 1) makes the edges as undistorted as the other axis when k = 1 (a is kept below 1
    /// so the mapping stays monotonic). Apple does not document its profile; this one is smooth and symmetric.
    /// The output extent is the target size at the input's origin.
    static func stretchCrop(_ inputs: FilterInputs) throws -> Image {
        let image = try inputs.image("inputImage")
        let size = try inputs.point("inputSize")
        let crop = try inputs.number("inputCropAmount")
        let centerStretch = try inputs.number("inputCenterStretchAmount")
        let e = image.extent
        guard !e.isInfinite, !e.isEmpty else { return image }
        let W = size.x.rounded(), H = size.y.rounded()
        guard W >= 1, H >= 1 else { return .empty }
        let fill = max(W / e.width, H / e.height)
        let rw = e.width + (W / fill - e.width) * crop, rh = e.height + (H / fill - e.height) * crop
        let rx = e.minX + (e.width - rw) / 2, ry = e.minY + (e.height - rh) / 2
        let ax = W / rw, ay = H / rh
        let bendX = ax > ay ? min(centerStretch * (ax / ay - 1), 0.95) : 0
        let bendY = ax > ay ? 0 : min(centerStretch * (ay / ax - 1), 0.95)
        let twoPi = 2 * Double.pi
        @Sendable func along(_ u: Double, _ bend: Double) -> Double { u + bend * sin(twoPi * u) / twoPi }
        let ox = Float(e.minX), oy = Float(e.minY), fw = Float(W), fh = Float(H)
        let frx = Float(rx), fry = Float(ry), frw = Float(rw), frh = Float(rh)
        let kx = Float(bendX), ky = Float(bendY), tau = Float(twoPi)
        let kernel = WarpKernel(name: "stretchCrop") { coords, x0, y, count in
            let v = (Float(y) + 0.5 - oy) / fh
            let sy = fry + (v + ky * sin(tau * v) / tau) * frh
            for i in 0..<count {
                let u = (Float(x0 + i) + 0.5 - ox) / fw
                coords[i] = SIMD2(frx + (u + kx * sin(tau * u) / tau) * frw, sy)
            }
        }
        let out = Rect(x: e.minX, y: e.minY, width: W, height: H)
        return kernel.apply(extent: out, input: image) { rect in
            let u0 = min(max((rect.minX - e.minX) / W, 0), 1), u1 = min(max((rect.maxX - e.minX) / W, 0), 1)
            let v0 = min(max((rect.minY - e.minY) / H, 0), 1), v1 = min(max((rect.maxY - e.minY) / H, 0), 1)
            let x0 = rx + along(u0, bendX) * rw, x1 = rx + along(u1, bendX) * rw
            let y0 = ry + along(v0, bendY) * rh, y1 = ry + along(v1, bendY) * rh
            return Rect(x: x0 - 1, y: y0 - 1, width: x1 - x0 + 2, height: y1 - y0 + 2)
        }
    }

    /// The nine-part stretch: the corners keep their size, the bands between the breakpoints stretch to grow the
    /// image by the grow amount (a negative amount shrinks the middle band, at most to nothing).
    static func ninePartStretched(_ inputs: FilterInputs) throws -> Image {
        try ninePart(inputs, tiled: false, flipYTiles: false)
    }

    /// The nine-part tiling: as the stretch, but the middle bands repeat instead of stretching, from the
    /// band's start; the partial tile falls at its end. With inputFlipYTiles every other vertical repeat is
    /// flipped upside down (mirrored), as "flip Y tiles" means in the tile modes of other toolkits (WPF's
    /// TileMode.FlipY, OOXML's tile flip "y"). Apple documents the flag by its name only (no description, no
    /// picture): this reading is a guess from that name.
    static func ninePartTiled(_ inputs: FilterInputs) throws -> Image {
        try ninePart(inputs, tiled: true, flipYTiles: try inputs.bool("inputFlipYTiles"))
    }

    private static func ninePart(_ inputs: FilterInputs, tiled: Bool, flipYTiles: Bool) throws -> Image {
        let image = try inputs.image("inputImage")
        let b0 = try inputs.point("inputBreakpoint0")
        let b1 = try inputs.point("inputBreakpoint1")
        let grow = try inputs.point("inputGrowAmount")
        let e = image.extent
        guard !e.isInfinite, !e.isEmpty else { return image }
        let ax = NinePartAxis(breakpoints: b0.x, b1.x, grow: grow.x, extentMin: e.minX, extentMax: e.maxX,
                              tiled: tiled, mirrored: false)
        let ay = NinePartAxis(breakpoints: b0.y, b1.y, grow: grow.y, extentMin: e.minY, extentMax: e.maxY,
                              tiled: tiled, mirrored: flipYTiles)
        let kernel = WarpKernel(name: tiled ? "ninePartTiled" : "ninePartStretched") { coords, x0, y, count in
            let sy = ay.map(Float(y) + 0.5)
            for i in 0..<count { coords[i] = SIMD2(ax.map(Float(x0 + i) + 0.5), sy) }
        }
        let extent = Rect(x: e.minX, y: e.minY, width: e.width + ax.growth, height: e.height + ay.growth)
        guard !extent.isEmpty else { return .empty }
        return kernel.apply(extent: extent, input: image) { rect in
            let (x0, x1) = ax.sourceRange(rect.minX, rect.maxX), (y0, y1) = ay.sourceRange(rect.minY, rect.maxY)
            return Rect(x: x0 - 1, y: y0 - 1, width: x1 - x0 + 2, height: y1 - y0 + 2)
        }
    }
}
