import Foundation

/// Separable convolution and resampling stages, shared by the blur family.
enum Convolution {
    /// Normalised Gaussian weights for offsets -radius...radius.
    static func gaussianWeights(sigma: Double, radius: Int) -> [Float] {
        let w = (-radius...radius).map { exp(-Double($0 * $0) / (2 * sigma * sigma)) }
        let total = w.reduce(0, +)
        return w.map { Float($0 / total) }
    }

    /// One pass of a 1-D kernel along x (`vertical` false) or y. The output extent grows by the kernel's radius.
    static func pass(_ image: Image, weights: [Float], vertical: Bool) -> Image {
        let radius = weights.count / 2
        let (gx, gy) = vertical ? (0, radius) : (radius, 0)
        let kernel = GeneralKernel(name: vertical ? "convolveY" : "convolveX", roi: { _, r in
            r.insetBy(dx: -gx, dy: -gy)
        }) { context in
            let source = context.inputs[0]
            let r = context.rect
            let width = r.width
            if vertical {
                for y in r.y..<r.maxY {
                    let out = context.output.row(y) + (r.x - context.output.rect.x)
                    out.update(repeating: Pixel(0, 0, 0, 0), count: width)
                    for k in -radius...radius {
                        let sy = y + k
                        guard sy >= source.rect.y, sy < source.rect.maxY else { continue }
                        let w = weights[k + radius]
                        // The source row may be narrower than the output (at the extent's edge).
                        let start = max(r.x, source.rect.x), end = min(r.maxX, source.rect.maxX)
                        guard end > start else { continue }
                        let src = source.row(sy) + (start - source.rect.x)
                        let dst = out + (start - r.x)
                        for i in 0..<(end - start) { dst[i] += src[i] * w }
                    }
                }
            } else {
                // Copy each source row into a zero-padded line so the inner loop needs no bounds checks.
                let line = UnsafeMutablePointer<Pixel>.allocate(capacity: width + 2 * radius)
                defer { line.deallocate() }
                for y in r.y..<r.maxY {
                    source.readRow(x0: r.x - radius, y: y, count: width + 2 * radius, into: line)
                    let out = context.output.row(y) + (r.x - context.output.rect.x)
                    weights.withUnsafeBufferPointer { w in
                        for i in 0..<width {
                            var sum = Pixel(0, 0, 0, 0)
                            for k in 0..<w.count { sum += line[i + k] * w[k] }
                            out[i] = sum
                        }
                    }
                }
            }
        }
        return kernel.apply(extent: image.extent.insetBy(dx: -Double(gx), dy: -Double(gy)), inputs: [image])
    }
}
