import Foundation

/// CIMeshGenerator: antialiased line segments of the given width in one colour. inputMesh is a flat list of
/// numbers, four per segment (x0 y0 x1 y1), as Core Image's array of four-component vectors; unset or empty
/// gives an empty image. The extent bounds the segments grown by half the width and a pixel of antialiasing.
enum MeshGenerator {
    static let all: [String: FilterImplementation] = ["CIMeshGenerator": make]

    struct Segment {
        var x0: Float, y0: Float, dx: Float, dy: Float, invLength2: Float, minY: Float, maxY: Float
    }

    static func make(_ inputs: FilterInputs) throws -> Image {
        let width = try inputs.float("inputWidth")
        let color = try inputs.color("inputColor").workingPixel
        let numbers = try inputs.has("inputMesh") ? try inputs.vector("inputMesh") : []
        let half = width / 2
        let reach = half + 1
        var segments: [Segment] = []
        var bounds = Rect.zero
        var first = true
        var i = 0
        while i + 3 < numbers.count {
            let x0 = Float(numbers[i]), y0 = Float(numbers[i + 1]), x1 = Float(numbers[i + 2]), y1 = Float(numbers[i + 3])
            i += 4
            let dx = x1 - x0, dy = y1 - y0
            let length2 = dx * dx + dy * dy
            segments.append(Segment(x0: x0, y0: y0, dx: dx, dy: dy, invLength2: length2 > 1e-12 ? 1 / length2 : 0,
                                    minY: min(y0, y1) - reach, maxY: max(y0, y1) + reach))
            let box = Rect(x: Double(min(x0, x1) - reach), y: Double(min(y0, y1) - reach),
                           width: Double(abs(dx) + 2 * reach), height: Double(abs(dy) + 2 * reach))
            bounds = first ? box : bounds.union(box)
            first = false
        }
        guard !segments.isEmpty, width > 0 else { return Image(color: .clear) }
        let table = segments
        return ColorKernel(name: "mesh") { span in
            let out = span.out
            let py = Float(span.y) + 0.5
            for i in 0..<span.count { out.a[i] = 0 }
            // Coverage: 1 within half the width of the segment, ramping to 0 over one pixel; segments combine
            // by their maximum coverage.
            for s in table where py >= s.minY && py <= s.maxY {
                let ry = py - s.y0
                let x0 = Float(span.x0) + 0.5 - s.x0
                for i in 0..<span.count {
                    let rx = x0 + Float(i)
                    let t = min(max((rx * s.dx + ry * s.dy) * s.invLength2, 0), 1)
                    let ex = rx - t * s.dx, ey = ry - t * s.dy
                    let d = (ex * ex + ey * ey).squareRoot()
                    let coverage = min(max(half + 0.5 - d, 0), min(width, 1))
                    out.a[i] = max(out.a[i], coverage)
                }
            }
            for i in 0..<span.count {
                let c = out.a[i]
                out.r[i] = color.x * c; out.g[i] = color.y * c; out.b[i] = color.z * c; out.a[i] = color.w * c
            }
        }.apply(extent: bounds, inputs: [])
    }
}
