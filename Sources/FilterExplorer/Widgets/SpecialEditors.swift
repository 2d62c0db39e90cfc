import FilterEngine
import Foundation

// The editors for the colour filters' special inputs: colour tables (cubes and curves), colour spaces, the
// tone curve's five points, and which generated images an image input offers. Pure logic, tested without a
// terminal; `FilterSession` keeps the choices and `Explorer` draws them.

/// Steps through a list of options, wrapping at both ends.
public enum ChoiceCycle {
    /// The option `steps` away from `current`; from an option not in the list, forward starts at the first
    /// option and backward at the last.
    public static func step<T: Equatable>(_ options: [T], from current: T?, by steps: Int) -> T? {
        guard !options.isEmpty else { return nil }
        let count = options.count
        let index: Int
        if let current, let position = options.firstIndex(of: current) {
            index = position + steps
        } else {
            index = steps > 0 ? steps - 1 : count + steps
        }
        return options[(index % count + count) % count]
    }
}

// MARK: Images

/// What an image input is for, which decides what its chooser offers first and its stock image.
public enum ImageRole: Equatable, Sendable {
    /// A picture: the source, a second sample, a mask, the shading ball, a bundled sample, a file.
    case picture
    /// A horizontal gradient used as a lookup table (CIColorMap): the generated gradients first.
    case gradient
    /// An N×1 palette (CIPalettize, CIPaletteCentroid, CIKMeans' seed means): the generated palettes first.
    case palette
    /// A low-resolution copy of the full-size input or guide (edge-preserving upsample, guided filter): the
    /// source downscaled first.
    case small
    /// A histogram row (CIHistogramDisplayFilter's input): the source's area histogram first.
    case histogram

    /// `filter` tells inputs apart whose key alone says nothing (every filter's inputImage).
    public init(_ input: InputDescriptor, filter: String? = nil) {
        self = ExplorerHints.imageRole(input, filter: filter)
    }
}

// MARK: Colour tables

/// The table a colour-table input holds: a cube look (the identity included), an Adobe .cube file, or a
/// generated set of colour curves. The session turns it into the filter's bytes at the filter's current
/// dimension, colour space and domain, so data and those inputs always agree.
public enum TableChoice: Equatable, Sendable {
    case look(ColorCubeData.Look)
    case cubeFile(String)
    case curves(CurvesPreset)

    /// What the ← → chooser of a cube steps through: every look, identity first.
    public static let cubeOptions: [TableChoice] = ColorCubeData.Look.allCases.map(TableChoice.look)
    public static let curvesOptions: [TableChoice] = CurvesPreset.allCases.map(TableChoice.curves)

    public var label: String {
        switch self {
        case .look(let look): look.rawValue
        case .cubeFile(let path): "file " + path
        case .curves(let preset): preset.rawValue
        }
    }

    public var persisted: String {
        switch self {
        case .look(let look): "look:" + look.rawValue
        case .cubeFile(let path): "cube-file:" + path
        case .curves(let preset): "curves:" + preset.rawValue
        }
    }

    public init?(persisted text: String) {
        if text.hasPrefix("look:"), let look = ColorCubeData.Look(rawValue: String(text.dropFirst(5))) {
            self = .look(look)
        } else if text.hasPrefix("cube-file:") {
            self = .cubeFile(String(text.dropFirst(10)))
        } else if text.hasPrefix("curves:"), let preset = CurvesPreset(rawValue: String(text.dropFirst(7))) {
            self = .curves(preset)
        } else {
            return nil
        }
    }

    /// The option among `options` whose label is `text` (case and surrounding spaces ignored).
    public static func named(_ text: String, in options: [TableChoice]) -> TableChoice? {
        let wanted = text.trimmingCharacters(in: .whitespaces).lowercased()
        return options.first { $0.label.lowercased() == wanted }
    }
}

/// Generated curves for CIColorCurves. Each is designed on sRGB-encoded values in 0…1 (as photo editors show
/// curves) and continues as a straight 45° line beyond them, so extended-range values keep their excess.
public enum CurvesPreset: String, CaseIterable, Sendable {
    case identity = "Identity"
    case sCurve = "S-curve contrast"
    case fade = "Fade"
    case crossProcess = "Cross-process"

    /// Entries in a generated table: enough that the linear-space version follows the curve closely.
    public static let tableEntries = 256

    /// The red, green and blue curves at one encoded value in 0…1.
    func curves(_ x: Double) -> SIMD3<Double> {
        // A smoothstep S blended with the diagonal by `amount`.
        func s(_ amount: Double) -> Double { x + amount * (x * x * (3 - 2 * x) - x) }
        switch self {
        case .identity: return SIMD3(repeating: x)
        case .sCurve: return SIMD3(repeating: s(0.8))
        // Lifted blacks and lowered whites, a touch warm.
        case .fade: return SIMD3(0.12 + 0.8 * x, 0.11 + 0.78 * x, 0.14 + 0.7 * x)
        // Hard red contrast, softer green, flattened blue: yellow highlights, blue-green shadows.
        case .crossProcess: return SIMD3(s(1), 0.03 + 0.94 * s(0.5), 0.2 + 0.6 * x)
        }
    }

    /// The curves at `x`, continued as 45° lines beyond 0…1.
    func extended(_ x: Double) -> SIMD3<Double> {
        if x < 0 { return curves(0) + x }
        if x > 1 { return curves(1) + (x - 1) }
        return curves(x)
    }

    /// CIColorCurves' table: `entries` RGB float32 triples sampled evenly over `domain` (min, max), for
    /// colour in `space` (nil: the working space, linear sRGB). Display P3 is encoded with the sRGB curve, so
    /// the encoded-value design applies to it directly; linear values are encoded first and decoded after.
    public func table(domain: (Double, Double), space: NamedColorSpace?, entries: Int = tableEntries) -> [UInt8] {
        let linear = space == nil || space == .linear
        var floats: [Float] = []
        floats.reserveCapacity(entries * 3)
        for i in 0..<entries {
            let x = domain.0 + (domain.1 - domain.0) * Double(i) / Double(max(1, entries - 1))
            let encoded = linear ? Double(ColorMath.sRGB(fromLinear: Float(x))) : x
            let y = extended(encoded)
            for channel in [y.x, y.y, y.z] {
                floats.append(linear ? ColorMath.linear(fromSRGB: Float(channel)) : Float(channel))
            }
        }
        return ColorCubeData.bytes(floats)
    }
}

/// Writes colour cube bytes as an Adobe .cube file, the form `cifiltertest render` reads back
/// (`ColorCubeData.parseCubeFile`). Tables here have alpha 1 (looks and .cube files), so red, green and blue
/// carry the whole table; floats are written in their shortest exact form.
public enum CubeFileText {
    public static func make(dimension: Int, data: [UInt8], title: String) -> String {
        var lines = ["TITLE \"\(title.replacingOccurrences(of: "\"", with: "'"))\"", "LUT_3D_SIZE \(dimension)"]
        let count = data.count / 16
        lines.reserveCapacity(count + 2)
        for entry in 0..<count {
            let rgb = (0..<3).map { channel -> String in
                let o = entry * 16 + channel * 4
                let bits = UInt32(data[o]) | UInt32(data[o + 1]) << 8 | UInt32(data[o + 2]) << 16 | UInt32(data[o + 3]) << 24
                return "\(Float(bitPattern: bits))"
            }
            lines.append(rgb.joined(separator: " "))
        }
        return lines.joined(separator: "\n") + "\n"
    }
}

// MARK: Colour spaces

/// The chooser of an `inputColorSpace`: the names `NamedColorSpace(name:)` accepts. Unset means the working
/// space, which is linear sRGB, so an unset value steps as "linear" does.
public enum ColorSpaceChoice {
    public static let options: [String] = NamedColorSpace.allCases.map(\.rawValue)
    public static let unsetLabel = "(not set: the working space, linear)"

    public static func stepped(_ current: String?, by steps: Int) -> String {
        let position = (try? NamedColorSpace(name: current ?? NamedColorSpace.linear.rawValue))?.rawValue
        return ChoiceCycle.step(options, from: position, by: steps) ?? NamedColorSpace.sRGB.rawValue
    }

    /// A typed name as its canonical spelling ("p3" → "Display P3"), or the engine's error listing the names.
    public static func canonical(_ text: String) throws -> String {
        try NamedColorSpace(name: text.trimmingCharacters(in: .whitespaces)).rawValue
    }
}

// MARK: Tone curve

/// CIToneCurve's five points, edited together: one selected point moves with the arrow keys, its input (x) kept
/// between its neighbours' so the points stay in order, both coordinates within 0…1.
public enum ToneCurveEditor {
    public static let pointCount = 5
    /// The closest two points' inputs may come (two points at one input would make the curve ambiguous).
    public static let minimumGap = 0.01
    public static let fineStep = 0.01
    public static let coarseStep = 0.1

    /// The key of point `index`: inputPoint0…inputPoint4.
    public static func key(_ index: Int) -> String { "inputPoint\(index)" }

    /// The index of a point key (inputPoint0…inputPoint4), nil for other keys.
    public static func pointIndex(of key: String) -> Int? {
        guard key.hasPrefix("inputPoint"), let index = Int(key.dropFirst(10)), (0..<pointCount).contains(index) else { return nil }
        return index
    }

    /// Point `index` of `points` ([x y] each) moved by (dx, dy) steps. A coordinate that is not moved is left
    /// as it is; one that is moved is clamped (x between the neighbours, `minimumGap` away, and within 0…1;
    /// y within 0…1). When the neighbours leave no room, x stays.
    public static func moved(_ points: [[Double]], index: Int, dx: Int, dy: Int, coarse: Bool) -> [Double] {
        guard points.indices.contains(index), points[index].count >= 2 else { return points.indices.contains(index) ? points[index] : [] }
        let step = coarse ? coarseStep : fineStep
        var (x, y) = (points[index][0], points[index][1])
        if dx != 0 {
            let lower = index > 0 && points[index - 1].count >= 2 ? max(0, points[index - 1][0] + minimumGap) : 0
            let upper = index + 1 < points.count && points[index + 1].count >= 2 ? min(1, points[index + 1][0] - minimumGap) : 1
            if lower <= upper { x = min(max(x + Double(dx) * step, lower), upper) }
        }
        if dy != 0 { y = min(max(y + Double(dy) * step, 0), 1) }
        return [SliderSpec.tidy(x), SliderSpec.tidy(y)]
    }

    /// The curve as the engine makes it: its output at `count` inputs evenly spaced over 0…1, both in the
    /// curve's own space (sRGB-encoded values, where the points live). Rendered by CIToneCurve itself on a ramp of
    /// `count` pixels, so the drawing can never disagree with the filter.
    public static func plot(points: [[Double]], extrapolate: Bool, count: Int) throws -> [Double] {
        guard count > 1 else { return [] }
        let buffer = PixelBuffer(rect: PixelRect(x: 0, y: 0, width: count, height: 1))
        for i in 0..<count {
            // The curve's space is sRGB-encoded values: input x is the linear value that encodes to x.
            let x = ColorMath.linear(fromSRGB: Float(i) / Float(count - 1))
            buffer.row(0)[i] = Pixel(x, x, x, 1)
        }
        let filter = try Filter(named: ExplorerHints.toneCurveFilter)
        try filter.setValue(.image(Image(buffer: buffer)), forKey: "inputImage")
        for (index, point) in points.enumerated() { try filter.setValue(.vector(point), forKey: key(index)) }
        try filter.setValue(.number(extrapolate ? 1 : 0), forKey: "inputExtrapolate")
        let output = try plotContext.render(try filter.makeOutputImage(), rect: Rect(x: 0, y: 0, width: Double(count), height: 1))
        return (0..<count).map { i in
            Double(ColorMath.sRGB(fromLinear: output.pixel(x: i, y: 0).x))
        }
    }

    /// One thread: a ramp of a few dozen pixels is done before a second thread would start.
    static let plotContext = RenderContext(options: .init(threads: 1))
}
