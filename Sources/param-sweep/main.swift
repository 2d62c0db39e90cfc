import Foundation
import FilterEngine
import FilterPipeline
import KernelLanguage

// One process of the parameter sweep (driven by scripts/fuzz-params, which classifies crashes, hangs and memory
// blow-ups from outside). Every filter × every numeric input (numbers, vectors, colours, transforms) × each value
// through the public API on a small image, one line per case:
//
//   param-sweep --list                                  the cases, "filter key" per line
//   param-sweep [--values v,v,…] [--filter NAME] [--skip N]  runs them: "start i filter key value" before a case,
//                                                        then "done i class milliseconds message"
//
//   param-sweep --kernels FILE…                         compiles each file as kernel source (scripts/fuzz-kernels)
//                                                        and renders its first kernel on the pattern
//
// Classes: ok (rendered, finite pixels), nonfinite (rendered, some NaN/inf pixels), clean-error (a thrown error:
// a rejected value or an over-budget render), both judged by the driver. A crash or hang shows as a missing
// "done" line.

let defaultValues: [Double] = [0, -1, -1e9, 1e9, 1e30, 1e-30, .nan, .infinity, -.infinity]

struct Case {
    let filter: String
    let key: String
}

func cases(only filter: String?) -> [Case] {
    var result: [Case] = []
    for descriptor in Catalog.builtIn.filters where filter == nil || descriptor.name == filter {
        guard (try? Filter(named: descriptor.name))?.isImplemented == true, descriptor.unavailableReason == nil else { continue }
        for input in descriptor.inputs {
            switch input.valueClass {
            case .number, .vector, .color, .transform: result.append(Case(filter: descriptor.name, key: input.key))
            default: continue
            }
        }
    }
    return result
}

/// A 48×40 test pattern with partial alpha, a second one for secondary images.
func pattern(_ seed: Int) -> Image {
    let buffer = PixelBuffer(rect: PixelRect(x: 0, y: 0, width: 48, height: 40))
    for y in 0..<40 {
        for x in 0..<48 {
            let a: Float = (x < 6 && y < 6) ? 0.5 : 1
            let b = Float((x * 7 + y * 3 + seed) % 17) / 17
            buffer.row(y)[x] = Pixel(Float(x) / 48 * a, Float(y) / 40 * a, b * a, a)
        }
    }
    return Image(buffer: buffer)
}

/// The value `v` in the shape of the input: every component of a vector, colour or transform set to it.
func value(_ v: Double, for input: InputDescriptor, current: FilterValue?) -> FilterValue {
    switch input.valueClass {
    case .number: return .number(v)
    case .color: return .color(Color([v, v, v, v]))
    case .transform: return .transform(AffineTransform([v, v, v, v, v, v]))
    default:
        let count: Int = if case .vector(let old)? = current, !old.isEmpty { old.count } else {
            switch input.type {
            case .position, .offset: 2
            case .position3: 3
            case .rectangle: 4
            default: 4
            }
        }
        return .vector([Double](repeating: v, count: count))
    }
}

func run(_ c: Case, _ v: Double, context: RenderContext) -> (String, String) {
    do {
        let filter = try Filter(named: c.filter)
        for (k, input) in filter.descriptor.inputs.enumerated() where input.isImage {
            try filter.setValue(.image(pattern(k)), forKey: input.key)
        }
        if filter.descriptor.input("inputText") != nil { try filter.setValue(.string("Sweep"), forKey: "inputText") }
        let input = filter.descriptor.input(c.key)!
        try filter.setValue(value(v, for: input, current: filter.value(forKey: c.key)), forKey: c.key)
        let out = try filter.makeOutputImage()
        // Small finite outputs whole (their extent rules are exercised); anything else a 64×64 window.
        let window = Rect(x: -8, y: -8, width: 64, height: 64)
        let rect = !out.extent.isInfinite && !out.extent.isEmpty && out.extent.width * out.extent.height <= 1_048_576
            ? out.extent : window
        let buffer = try context.render(out, rect: rect)
        var bad = 0
        for i in 0..<buffer.rect.area {
            let p = buffer.pixels[i]
            if !(p.x.isFinite && p.y.isFinite && p.z.isFinite && p.w.isFinite) { bad += 1 }
        }
        return bad == 0 ? ("ok", "\(buffer.rect)") : ("nonfinite", "\(bad) of \(buffer.rect.area) pixels")
    } catch {
        return ("clean-error", "\(error)")
    }
}

/// Compiles the kernel source in `path` and renders its first kernel over a 48×40 window, every image argument
/// the pattern, every number 0.5.
func runKernel(_ path: String, context: RenderContext) -> (String, String) {
    do {
        let source = String(decoding: try RegularFile.read(path), as: UTF8.self)
        guard let kernel = try KernelProgram(source: source).kernels.first else { return ("clean-error", "no kernel") }
        let arguments: [KernelArgument] = kernel.parameters.enumerated().map { k, parameter in
            if parameter.isImage { return .image(pattern(k)) }
            switch parameter.type {
            case "vec2": return .vector([0.5, 0.5])
            case "vec3": return .vector([0.5, 0.5, 0.5])
            case "vec4", "__color": return .vector([0.5, 0.5, 0.5, 0.5])
            case "bool": return .bool(true)
            default: return .float(0.5)
            }
        }
        let extent = Rect(x: 0, y: 0, width: 48, height: 40)
        let image = try kernel.apply(extent: extent, image: kernel.kind == .warp ? pattern(0) : nil, arguments: arguments)
        let buffer = try context.render(image, rect: extent)
        return ("ok", "\(buffer.rect)")
    } catch {
        return ("clean-error", "\(error)")
    }
}

/// A line straight to the driver (unbuffered: the line before a crash must arrive).
func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}

let arguments = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let i = arguments.firstIndex(of: name), i + 1 < arguments.count else { return nil }
    return arguments[i + 1]
}
if let first = arguments.firstIndex(of: "--kernels") {
    let context = RenderContext(options: .init(threads: 1, timeLimit: option("--time-limit").flatMap(Double.init)))
    let paths = arguments[(first + 1)...].filter { !$0.hasPrefix("--") && Double($0) == nil }
    for (index, path) in paths.enumerated() {
        say("start \(index) kernel \(path) -")
        let start = Date()
        let (kind, message) = runKernel(path, context: context)
        say("done \(index) \(kind) \(Int(Date().timeIntervalSince(start) * 1000)) \(message.replacingOccurrences(of: "\n", with: " "))")
    }
    exit(0)
}
let only = option("--filter")
let all = cases(only: only)
if arguments.contains("--list") {
    for c in all { print(c.filter, c.key) }
    exit(0)
}
let values = option("--values").map { $0.split(separator: ",").compactMap { Double(String($0)) } } ?? defaultValues
let skip = option("--skip").flatMap(Int.init) ?? 0
// One thread: the driver runs several processes side by side if it wants parallelism.
let context = RenderContext(options: .init(threads: 1, timeLimit: option("--time-limit").flatMap(Double.init)))
var index = 0
for c in all {
    for v in values {
        defer { index += 1 }
        if index < skip { continue }
        say("start \(index) \(c.filter) \(c.key) \(v)")
        let start = Date()
        let (kind, message) = run(c, v, context: context)
        let ms = Int(Date().timeIntervalSince(start) * 1000)
        say("done \(index) \(kind) \(ms) \(message.replacingOccurrences(of: "\n", with: " "))")
    }
}
