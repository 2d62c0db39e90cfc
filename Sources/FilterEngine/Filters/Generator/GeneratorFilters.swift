import Foundation

enum GeneratorFilters {
    static let all: [String: FilterImplementation] = [
        "CIConstantColorGenerator": constantColor,
        "CICheckerboardGenerator": checkerboard,
        "CIRandomGenerator": random,
    ]

    static func constantColor(_ inputs: FilterInputs) throws -> Image {
        Image(color: try inputs.color("inputColor"))
    }

    /// Squares of `width` pixels with a corner at the centre; sharpness 1 gives hard edges, lower values blend
    /// the two colours over a band (1 - sharpness) of the square's width.
    static func checkerboard(_ inputs: FilterInputs) throws -> Image {
        let center = try inputs.point("inputCenter")
        let c0 = try inputs.color("inputColor0").workingPixel
        let c1 = try inputs.color("inputColor1").workingPixel
        let width = Float(try inputs.number("inputWidth"))
        let sharpness = try inputs.float("inputSharpness")
        guard width > 0 else { return Image(color: try inputs.color("inputColor0")) }
        let cx = Float(center.x), cy = Float(center.y)
        // Blend band, in squares: at sharpness 1 just under a pixel, for antialiasing.
        let band = max((1 - sharpness) * 0.5, 0.5 / width)
        return ColorKernel(name: "checkerboard") { span in
            let fy = (Float(span.y) + 0.5 - cy) / width
            let ty = fy - fy.rounded(.down)
            let sy: Float = Int(fy.rounded(.down)) & 1 == 0 ? 1 : -1
            // Distance to the nearest horizontal edge, in squares, and the mix it gives.
            let ey = min(ty, 1 - ty)
            let my = min(ey / band, 1) * sy
            for i in 0..<span.count {
                let fx = (Float(span.x0 + i) + 0.5 - cx) / width
                let tx = fx - fx.rounded(.down)
                let sx: Float = Int(fx.rounded(.down)) & 1 == 0 ? 1 : -1
                let mx = min(min(tx, 1 - tx) / band, 1) * sx
                // mx·my runs from -1 (colour 1) to 1 (colour 0), 0 on an edge.
                let t = (mx * my + 1) * 0.5
                span.out[i] = c1 + (c0 - c1) * t
            }
        }.apply(extent: .infinite, inputs: [])
    }

    /// Uniform noise in each channel, a pure function of the pixel coordinate (so tiles agree).
    static func random(_ inputs: FilterInputs) throws -> Image {
        ColorKernel(name: "random") { span in
            let scale: Float = 1 / 16_777_216
            for i in 0..<span.count {
                var h = UInt32(truncatingIfNeeded: span.x0 + i) &* 0x9E37_79B1
                h ^= UInt32(truncatingIfNeeded: span.y) &* 0x85EB_CA77
                h = (h ^ (h >> 16)) &* 0x7FEB_352D
                h = (h ^ (h >> 15)) &* 0x846C_A68B
                h ^= h >> 16
                let h2 = (h ^ 0x68E3_1DA4) &* 0x1B87_3593
                let a = Float(h >> 8) * scale
                let b = Float((h2 ^ (h2 >> 13)) >> 8) * scale
                let c = Float(((h &* 0x2C1B_3C6D) ^ (h >> 11)) >> 8) * scale
                let d = Float(((h2 &* 0x297A_2D39) ^ (h2 >> 17)) >> 8) * scale
                span.out[i] = Pixel(a, b, c, d)
            }
        }.apply(extent: .infinite, inputs: [])
    }
}
