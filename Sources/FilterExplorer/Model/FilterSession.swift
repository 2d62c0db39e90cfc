import FilterEngine
import FilterPipeline
import Foundation

/// An input with the control that edits it.
public struct InputControl: Sendable {
    public let input: InputDescriptor
    /// How it is drawn and edited (`Widgets/`).
    let widget: any InputWidget
    public var kind: ControlKind { widget.kind }
}

/// One filter being explored: its inputs' values (catalogue defaults, then CIFilterTest's stock inputs, then
/// the person's edits), the controls made for them, and what the preview and export render.
public final class FilterSession {
    public let descriptor: FilterDescriptor
    public let controls: [InputControl]
    /// Keys the person changed (saved in the state file; `r`/`R` clear them).
    public private(set) var edited: Set<String> = []
    /// The image each image input shows.
    public private(set) var imageChoices: [String: ImageChoice] = [:]
    /// The table each colour-table input (cube, curves) holds; its bytes are made by `rebuildTables`.
    public private(set) var tableChoices: [String: TableChoice] = [:]
    /// .cube files read so far, by path (read again whenever one is chosen).
    private var cubeFiles: [String: (dimension: Int, data: [UInt8])] = [:]
    private let filter: Filter
    private let samples: SampleLibrary

    /// The dimension looks are built at when the filter starts: fine enough to follow smooth looks closely.
    public static let stockCubeDimension = 32
    /// The inputs colour tables are built from: changing one rebuilds the tables.
    static let tableParameters: Set<String> = ["inputCubeDimension", "inputColorSpace", "inputCurvesDomain"]

    public init(descriptor: FilterDescriptor, samples: SampleLibrary) throws {
        self.descriptor = descriptor
        self.samples = samples
        filter = try Filter(named: descriptor.name)
        controls = descriptor.inputs.map { InputControl(input: $0, widget: ControlFactory.widget(for: $0, filter: descriptor.name)) }
        resetAll()
    }

    public var name: String { descriptor.name }
    public var isImplemented: Bool { filter.isImplemented }

    public func value(forKey key: String) -> FilterValue? { filter.value(forKey: key) }

    public func kind(forKey key: String) -> ControlKind? { controls.first { $0.input.key == key }?.kind }

    /// Sets an input (validated by the engine: a wrong type or a non-finite number throws, nothing changes).
    /// A colour space name is stored in its canonical spelling; a dimension, colour space or domain rebuilds the
    /// colour tables made from it (refused, with nothing changed, when a .cube file fixes the dimension).
    public func set(_ value: FilterValue, forKey key: String) throws {
        var value = value
        if kind(forKey: key) == .colorSpace, case .string(let text) = value { value = .string(try ColorSpaceChoice.canonical(text)) }
        let previous = filter.value(forKey: key)
        try filter.setValue(value, forKey: key)
        if Self.tableParameters.contains(key) {
            do { try rebuildTables(changing: key) } catch {
                try? filter.setValue(previous, forKey: key)
                try? rebuildTables(changing: nil)
                throw error
            }
        }
        edited.insert(key)
    }

    public func setImage(_ choice: ImageChoice, forKey key: String) throws {
        _ = try samples.image(choice)  // fails early for a bad path
        imageChoices[key] = choice
        edited.insert(key)
    }

    /// Chooses a colour table. A .cube file is read (again) now: a malformed one is an error naming the line,
    /// and the previous table stays. Choosing a file sets inputCubeDimension to its size.
    public func setTable(_ choice: TableChoice, forKey key: String) throws {
        if case .cubeFile(let path) = choice { cubeFiles[path] = try Self.readCubeFile(path) }
        let previous = tableChoices[key]
        tableChoices[key] = choice
        do { try rebuildTables(changing: nil) } catch {
            tableChoices[key] = previous
            try? rebuildTables(changing: nil)
            throw error
        }
        edited.insert(key)
    }

    /// Reads a .cube file afresh (a file edited meanwhile is read as it is now).
    static func readCubeFile(_ path: String) throws -> (dimension: Int, data: [UInt8]) {
        do { return try ValueFiles().cubeTable(path) } catch { throw FilterExplorerError("\(error)") }
    }

    /// Parses text typed for an input (the same parser as the command line) and sets it. Choosers also take
    /// the name of one of their options; a cube takes a .cube file's path.
    public func setText(_ text: String, forKey key: String) throws {
        guard let input = descriptor.input(key) else { return }
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        switch kind(forKey: key) {
        case .image?:
            try setImage(.file(trimmed), forKey: key)
        case .colorCube?:
            try setTable(TableChoice.named(trimmed, in: TableChoice.cubeOptions) ?? .cubeFile(trimmed), forKey: key)
        case .colorCurves?:
            guard let choice = TableChoice.named(trimmed, in: TableChoice.curvesOptions) else {
                throw FilterExplorerError("\(name).\(key): no curves named \"\(trimmed)\"; choose one of "
                    + TableChoice.curvesOptions.map(\.label).joined(separator: ", "))
            }
            try setTable(choice, forKey: key)
        default:
            try set(ValueFiles().value(text, for: input, filter: name), forKey: key)
        }
    }

    /// Every input back to the explorer's starting point.
    public func resetAll() {
        filter.setDefaults()
        imageChoices = [:]
        tableChoices = [:]
        edited = []
        for input in descriptor.inputs { applyStock(input) }
        try? rebuildTables(changing: nil)
    }

    /// The starting point of a recipe's step (`explore --recipe`): the catalogue's defaults, as `render` reads
    /// a recipe, for every value the step does not name; image inputs and colour tables keep the explorer's
    /// stock choices (a recipe names those it uses).
    public func resetForRecipe() {
        resetAll()
        for input in descriptor.inputs where !input.isImage && tableChoices[input.key] == nil && !Self.tableParameters.contains(input.key) {
            try? filter.setValue(Filter(name: name)?.value(forKey: input.key), forKey: input.key)
        }
    }

    public func reset(_ key: String) {
        guard let input = descriptor.input(key) else { return }
        try? filter.setValue(Filter(name: name)?.value(forKey: key), forKey: key)
        imageChoices[key] = nil
        tableChoices[key] = nil
        edited.remove(key)
        applyStock(input)
        try? rebuildTables(changing: nil)
    }

    // MARK: Snapshots (undo, A/B)

    /// Every value the person can change, for undo and A/B: the inputs' values (not images, nor colour
    /// tables' bytes, which are made from their choices), the image and table choices, and what was edited.
    public struct Snapshot {
        var values: [String: FilterValue] = [:]
        var imageChoices: [String: ImageChoice] = [:]
        var tableChoices: [String: TableChoice] = [:]
        var edited: Set<String> = []

        /// Exactly the same values (numbers compared bit for bit, not as printed).
        func isSame(as other: Snapshot) -> Bool {
            guard imageChoices == other.imageChoices, tableChoices == other.tableChoices, edited == other.edited,
                  values.count == other.values.count else { return false }
            return values.allSatisfy { key, value in other.values[key].map { Self.same(value, $0) } ?? false }
        }

        /// The keys whose value or choice differs in `other`, sorted.
        func changedKeys(to other: Snapshot) -> [String] {
            let keys = Set(values.keys).union(other.values.keys).union(imageChoices.keys).union(other.imageChoices.keys)
                .union(tableChoices.keys).union(other.tableChoices.keys)
            return keys.filter { key in
                let sameValue = switch (values[key], other.values[key]) {
                case (nil, nil): true
                case (let a?, let b?): Self.same(a, b)
                default: false
                }
                return !sameValue || imageChoices[key] != other.imageChoices[key] || tableChoices[key] != other.tableChoices[key]
            }.sorted()
        }

        /// A value as the status line shows it in an undo message.
        func text(_ key: String) -> String {
            if let choice = imageChoices[key] { return choice.persisted }
            if let choice = tableChoices[key] { return choice.persisted }
            return values[key].map(ValueParser.format) ?? "unset"
        }

        static func same(_ a: FilterValue, _ b: FilterValue) -> Bool {
            switch (a, b) {
            case (.number(let x), .number(let y)): x == y
            case (.vector(let x), .vector(let y)): x == y
            case (.color(let x), .color(let y)): x.components == y.components
            case (.transform(let x), .transform(let y)): x.values == y.values
            case (.string(let x), .string(let y)): x == y
            case (.data(let x), .data(let y)): x == y
            case (.image(let x), .image(let y)): x === y
            case (.barcode(let x), .barcode(let y)): x.description == y.description
            default: false
            }
        }
    }

    public func snapshot() -> Snapshot {
        var result = Snapshot(imageChoices: imageChoices, tableChoices: tableChoices, edited: edited)
        for input in descriptor.inputs where !input.isImage && tableChoices[input.key] == nil {
            if let value = filter.value(forKey: input.key) { result.values[input.key] = value }
        }
        return result
    }

    /// Puts back a snapshot's values (the colour tables are made again from its choices).
    public func restore(_ snapshot: Snapshot) {
        for input in descriptor.inputs where !input.isImage && snapshot.tableChoices[input.key] == nil {
            try? filter.setValue(snapshot.values[input.key], forKey: input.key)
        }
        imageChoices = snapshot.imageChoices
        tableChoices = snapshot.tableChoices
        edited = snapshot.edited
        try? rebuildTables(changing: nil)
    }

    // MARK: Colour tables

    /// Makes every colour-table input's bytes from its choice, so that data, dimension, colour space and domain
    /// agree: a .cube file sets inputCubeDimension (all cubes of a filter share it); looks are built at that
    /// dimension for the filter's colour space; curves over inputCurvesDomain. `changing` is the table
    /// parameter the person just set: setting inputCubeDimension away from a .cube file's size is refused.
    private func rebuildTables(changing key: String?) throws {
        guard !tableChoices.isEmpty else { return }
        let files = tableChoices.sorted { $0.key < $1.key }.compactMap { entry -> (path: String, dimension: Int)? in
            guard case .cubeFile(let path) = entry.value, let file = cubeFiles[path] else { return nil }
            return (path, file.dimension)
        }
        if let first = files.first {
            if let other = files.first(where: { $0.dimension != first.dimension }) {
                throw FilterExplorerError("the cubes share inputCubeDimension, but \(first.path) is \(first.dimension)³ "
                    + "and \(other.path) \(other.dimension)³")
            }
            if key == "inputCubeDimension", integer("inputCubeDimension") != first.dimension {
                throw FilterExplorerError("inputCubeDimension is \(first.dimension), the size of the .cube file "
                    + "\(first.path); choose a look to use another dimension")
            }
            try filter.setValue(.number(Double(first.dimension)), forKey: "inputCubeDimension")
        }
        let space: NamedColorSpace? = if case .string(let text)? = filter.value(forKey: "inputColorSpace") {
            try NamedColorSpace(name: text)
        } else { nil }
        for (key, choice) in tableChoices {
            let data: [UInt8]
            switch choice {
            case .look(let look):
                let dimension = integer("inputCubeDimension") ?? Self.stockCubeDimension
                // The identity is exact in any space (a look is built through sRGB and back, off by float dust).
                data = look == .identity ? ColorCubeData.identity(dimension: dimension)
                    : ColorCubeData.look(look, dimension: dimension, space: space ?? .linear)
            case .cubeFile(let path):
                guard let file = cubeFiles[path] else { throw FilterExplorerError("\(path) has not been read") }
                data = file.data
            case .curves(let preset):
                guard case .vector(let domain)? = filter.value(forKey: "inputCurvesDomain"), domain.count == 2, domain[1] > domain[0] else {
                    throw FilterExplorerError("\(name).inputCurvesDomain must be [min max] with max > min")
                }
                data = preset.table(domain: (domain[0], domain[1]), space: space)
            }
            try filter.setValue(.data(data), forKey: key)
        }
    }

    /// CIToneCurve's five points ([x y] each; empty where unset).
    public var curvePoints: [[Double]] {
        (0..<ToneCurveEditor.pointCount).map { i in
            if case .vector(let v)? = value(forKey: ToneCurveEditor.key(i)) { v } else { [] }
        }
    }

    private func integer(_ key: String) -> Int? {
        if case .number(let n)? = filter.value(forKey: key) { Int(n.rounded()) } else { nil }
    }

    /// The text a control row and the status line show for an input's value.
    public func displayText(_ control: InputControl) -> String {
        let key = control.input.key
        if let choice = imageChoices[key] { return samples.label(choice) }
        if let choice = tableChoices[key] {
            guard case .colorCube = control.kind, let dimension = integer("inputCubeDimension") else { return choice.label }
            return "\(choice.label) (\(dimension)³)"
        }
        return ControlDisplay.text(value(forKey: key), kind: control.kind)
    }

    // MARK: Stock inputs, as CIFilterTest sets them up

    public static let stockMessage = "CIFilterTest for the terminal"
    /// CIBarcodeGenerator's descriptor has no default in Core Image: a QR code, so the generator opens on a picture.
    public static let stockBarcode = "qr:message=CIFilterTest"

    private func applyStock(_ input: InputDescriptor) { applyStock(input, to: filter, choosing: true) }

    /// The explorer's starting value of an input (what `r` resets it to), where it differs from the catalogue's
    /// default: the stock rectangle rather than Apple's [0 0 640 80], an image-sized crop rather than an infinite one.
    public func startingValue(forKey key: String) -> FilterValue? {
        guard let scratch = try? Filter(named: name) else { return nil }
        scratch.setDefaults()
        for input in descriptor.inputs { applyStock(input, to: scratch, choosing: false) }
        return scratch.value(forKey: key)
    }

    /// Puts an input's stock value into `target`; `choosing` also picks the stock image and colour tables.
    private func applyStock(_ input: InputDescriptor, to target: Filter, choosing: Bool) {
        let rect = samples.sourceRect
        let key = input.key
        func put(_ value: FilterValue) { try? target.setValue(value, forKey: key) }
        switch (input.valueClass, input.type) {
        case (.image, _) where choosing:
            imageChoices[key] = samples.stockChoice(for: ImageRole(input, filter: name), key: key, filter: name)
        case (.number, .time?):
            // Half-way, so a transition shows both images and its effect at once (at 0 it shows only the source).
            put(.number(0.5))
        case (.data, _) where choosing && kind(forKey: key) == .colorCube:
            // A visible look rather than the identity; with two cubes, black and white where the mask is black.
            tableChoices[key] = .look(key == "inputCube0Data" ? .blackAndWhite : .warm)
        case (.data, _) where choosing && kind(forKey: key) == .colorCurves:
            tableChoices[key] = .curves(.sCurve)
        case (.number, _) where key == "inputScale" && ExplorerHints.isAreaHistogram(name):
            // Bins of an opaque source sum to 1: scaled so an average bin shows at a quarter of full brightness.
            if case .number(let count)? = target.value(forKey: "inputCount"), count.isFinite {
                put(.number(Double(max(Int(count.rounded()), 4) / 4)))
            }
        case (.number, _) where key == "inputCubeDimension":
            put(.number(Double(Self.stockCubeDimension)))
        case (.vector, .position?):
            put(.vector(Self.stockPosition(key: key, in: rect)))
        case (.vector, .rectangle?):
            // The extent is the whole image; a crop or focus rectangle is inset so its effect shows.
            let inset = key == "inputExtent" || key == "inputShadowExtent" ? 0 : (key == "inputFocusRect" ? 0.25 : 0.125)
            let r = rect.insetBy(dx: (rect.width * inset).rounded(), dy: (rect.height * inset).rounded())
            put(.vector([r.x, r.y, r.width, r.height]))
        case (.array, _) where key == "inputMesh":
            // A triangle with its medians, so the mesh generator draws something at once.
            let (a, b, c) = ([rect.minX + rect.width * 0.2, rect.minY + rect.height * 0.2],
                             [rect.minX + rect.width * 0.8, rect.minY + rect.height * 0.2],
                             [rect.midX, rect.minY + rect.height * 0.8])
            func mid(_ p: [Double], _ q: [Double]) -> [Double] { [(p[0] + q[0]) / 2, (p[1] + q[1]) / 2] }
            let segments = [a + b, b + c, c + a, a + mid(b, c), b + mid(c, a), c + mid(a, b)]
            put(.vector(segments.flatMap { $0 }.map { $0.rounded() }))
        case (.data, _) where key == "inputMessage":
            put(.data(Array(Self.stockMessage.utf8)))
        case (.barcodeDescriptor, _):
            if let descriptor = try? BarcodeDescriptor.parse(Self.stockBarcode) { put(.barcode(descriptor)) }
        case (.string, _) where key == "inputText", (.attributedString, _) where key == "inputText":
            put(.string(Self.stockMessage))
        case (.vector, nil) where key == "inputWeights" && ExplorerHints.convolution(name).isConvolution:
            // An emboss kernel: +1 at the first tap, -1 at the last. The RGB variants keep alpha: the relief on a
            // mid-grey bias. The others convolve alpha too, which weights summing to 0 would set to the bias (a
            // half-transparent picture): with the centre tap at 1 they sum to 1, and the relief is on the image.
            guard case .vector(let weights)? = target.value(forKey: key), weights.count > 1 else { return }
            let keepsAlpha = ExplorerHints.convolution(name).keepsAlpha
            var emboss = [Double](repeating: 0, count: weights.count)
            emboss[0] = 1
            emboss[weights.count - 1] = -1
            if !keepsAlpha { emboss[weights.count / 2] = 1 }
            put(.vector(emboss))
            if keepsAlpha, descriptor.input("inputBias") != nil { try? target.setValue(.number(0.5), forKey: "inputBias") }
        default:
            break
        }
    }

    /// Corners, as fractions of the image (x from the left, y from the bottom): a quadrilateral a little inside
    /// the image, narrower at the top and taller on the right, like a facade photographed from below and to the
    /// left. A rectangle would leave the keystone corrections with nothing to correct; this is sane for all
    /// four-corner filters (perspective transform, correction, tile, keystone) and shows their effect.
    static let stockCorners: [(suffix: String, x: Double, y: Double)] = [
        ("TopLeft", 0.2, 0.85), ("TopRight", 0.85, 0.92), ("BottomLeft", 0.08, 0.1), ("BottomRight", 0.95, 0.05),
    ]

    /// Centres at the image centre; numbered points spread along the diagonal; corners near the corners.
    static func stockPosition(key: String, in rect: Rect) -> [Double] {
        if let corner = stockCorners.first(where: { key.hasSuffix($0.suffix) }) {
            return [(rect.x + rect.width * corner.x).rounded(), (rect.y + rect.height * corner.y).rounded()]
        }
        if let last = key.last, let digit = last.wholeNumberValue, key.count > 1 {
            let f = digit == 0 ? 0.25 : 0.75
            return [(rect.x + rect.width * f).rounded(), (rect.y + rect.height * f).rounded()]
        }
        return [rect.midX.rounded(), rect.midY.rounded()]
    }

    // MARK: Output

    /// The filter's output for the preview or export, with the source clamped for filters that read beyond
    /// the edge, framed to what is shown (see `PreviewPlanner`): a chain of this one step. With a proxy factor
    /// above 1 it is computed on images that many times smaller (`SampleLibrary.proxy`), with every input measured
    /// in pixels scaled to match, so a blur of radius 40 looks as it will at full size; the framing is then in
    /// proxy coordinates. An export (`forExport`) is the filter's own output, not shown opaque, as `render`
    /// writes it.
    public func framedOutput(proxyFactor: Int = 1, context: RenderContext = RenderContext(),
                             forExport: Bool = false) throws -> PreviewPlanner.Framing {
        let factor = max(1, proxyFactor)
        let recipe = ResolvedRecipe(steps: try resolvedSteps(proxyFactor: factor, context: context))
        let output = try recipe.image(input: nil)
        let scale = AffineTransform.scale(x: 1 / Double(factor), y: 1 / Double(factor))
        return PreviewPlanner.frame(output: output, descriptor: descriptor, sourceRect: scale.apply(to: samples.sourceRect),
                                    opaque: !forExport, proxyFactor: factor)
    }

    /// This filter as the steps of a resolved recipe, for images `proxyFactor` times smaller: the clamp the
    /// preview and the export's recipe put before a filter that reads beyond the edge, then the filter with every
    /// value (pixel measures scaled) and its chosen images (the library's proxies). `links` wires image inputs to
    /// other images of the recipe instead (a chain's earlier outputs, by id). After another step
    /// (`followsAStep`) inputImage without a link is the previous step's output, not its own choice. `id` names
    /// the filter's output; a bypassed step has no clamp, nor any step when `clamped` is false (the filter's
    /// own output, whose extent the header gives).
    func resolvedSteps(proxyFactor: Int, context: RenderContext, links: [String: String] = [:], followsAStep: Bool = false,
                       id: String? = nil, bypass: Bool = false, clamped: Bool = true) throws -> [ResolvedRecipe.Step] {
        let factor = max(1, proxyFactor)
        let values = factor > 1 ? try proxyFilter(factor: factor) : filter
        var step = ResolvedRecipe.Step(filter: name, id: id, bypass: bypass)
        for input in descriptor.inputs where !input.isImage {
            if let value = values.value(forKey: input.key) { step.inputs.append((input.key, .value(value))) }
        }
        var imageInput: ResolvedRecipe.Source?
        for input in descriptor.inputs where input.isImage {
            let source: ResolvedRecipe.Source
            if let link = links[input.key] { source = .image(link) }
            else if followsAStep, input.key == "inputImage" { continue }
            else if let choice = imageChoices[input.key] { source = .value(.image(try samples.proxy(choice, factor: factor, context: context))) }
            else { continue }
            if input.key == "inputImage" { imageInput = source } else { step.inputs.append((input.key, source)) }
        }
        let hasInputImage = descriptor.input("inputImage") != nil
        guard clamped, !bypass, hasInputImage, PreviewPlanner.readsBeyondEdge(descriptor) else {
            if let imageInput { step.inputs.append(("inputImage", imageInput)) }
            return [step]
        }
        // The clamp reads what inputImage would (its own image, a link, or the previous output) and hands it on.
        let clamp = ResolvedRecipe.Step(filter: ExplorerHints.clampFilter, inputs: imageInput.map { [("inputImage", $0)] } ?? [])
        return [clamp, step]
    }

    /// A reduction's numbers (CIAreaAverage's pixel, a histogram's first bins, min/max ...): the first `limit`
    /// pixels of its output, left to right on the bottom row, as linear working-space values (premultiplied,
    /// as the engine holds them) and as the 8-bit sRGB a file would get. Nil for filters that are not reductions.
    public func reductionValues(limit: Int = 4, context: RenderContext = RenderContext()) throws -> [String]? {
        guard ExplorerHints.outputIsValues(descriptor).values else { return nil }
        let framing = try framedOutput(context: context, forExport: true)
        let extent = framing.image.extent
        guard !extent.isEmpty, !extent.isInfinite else { return [] }
        let row = Rect(x: extent.minX, y: extent.minY, width: min(extent.width, Double(limit)), height: 1).integral
        var lines = try PixelReading.read(framing.image, rect: row, context: context).map(\.description)
        if extent.width > row.width { lines.append("… \(Int(extent.width))×\(Int(extent.height)) pixels in all") }
        return lines
    }

    /// A copy of the filter for images `factor` times smaller: the inputs measured in pixels (distances,
    /// positions, offsets, rectangles, translations) divided by it, the others as they are.
    private func proxyFilter(factor: Int) throws -> Filter {
        let copy = try Filter(named: name)
        for input in descriptor.inputs where !input.isImage {
            let value = filter.value(forKey: input.key)
            let type = PreviewPlanner.isMeasuredInPixels(input, of: name) ? .distance : input.type
            let scaled = value.map { Self.scaled($0, type: type, by: 1 / Double(factor)) }
            // A scaled value the input refuses keeps its full-size value (the preview is then approximate).
            if (try? copy.setValue(scaled, forKey: input.key)) == nil { try copy.setValue(value, forKey: input.key) }
        }
        return copy
    }

    /// `value` with its pixel measures multiplied by `factor`, by the input's attribute type.
    static func scaled(_ value: FilterValue, type: AttributeType?, by factor: Double) -> FilterValue {
        switch (type, value) {
        case (.distance?, .number(let n)):
            return .number(n * factor)
        case (.position?, .vector(let v)), (.offset?, .vector(let v)), (.position3?, .vector(let v)),
             (.rectangle?, .vector(let v)):
            return .vector(v.map { $0 * factor })
        case (_, .transform(var t)):
            // Conjugated by the scale: the linear part is unchanged, the translation shrinks.
            t.tx *= factor
            t.ty *= factor
            return .transform(t)
        default:
            return value
        }
    }

    // MARK: Persistence and command lines

    /// The edited values as text: `ValueParser.format` for values, `ImageChoice.persisted` for images and
    /// `TableChoice.persisted` for colour tables (a look's name or a .cube path, not its bytes).
    public func persistedValues() -> [String: String] {
        var result: [String: String] = [:]
        for key in edited {
            if let choice = imageChoices[key] { result[key] = choice.persisted }
            else if let choice = tableChoices[key] { result[key] = choice.persisted }
            else if let value = filter.value(forKey: key) { result[key] = ValueParser.format(value) }
        }
        return result
    }

    /// Restores saved values; returns a warning per value that no longer applies.
    public func restore(_ values: [String: String]) -> [String] {
        var warnings: [String] = []
        for (key, text) in values.sorted(by: { $0.key < $1.key }) {
            guard let input = descriptor.input(key) else {
                warnings.append("\(name).\(key): no such input any more")
                continue
            }
            do {
                if input.isImage {
                    guard let choice = ImageChoice(persisted: text) else { throw FilterExplorerError("unknown image \(text)") }
                    try setImage(choice, forKey: key)
                } else if tableChoices[key] != nil {
                    guard let choice = TableChoice(persisted: text) else { throw FilterExplorerError("unknown table \(text)") }
                    try setTable(choice, forKey: key)
                } else {
                    try set(ValueFiles().value(text, for: input, filter: name), forKey: key)
                }
            } catch {
                warnings.append("\(error)")
            }
        }
        return warnings
    }

    /// Sets the inputs a recipe's step gives (`explore --recipe`): values as `render` reads them, image paths
    /// and .cube files as the explorer's choices. Returns a warning for each input it cannot show.
    public func apply(_ step: Recipe.Step) -> [String] {
        var warnings: [String] = []
        for entry in step.inputs {
            let key = entry.key
            guard let input = descriptor.input(key) else {
                warnings.append("\(name) has no input \(key)")
                continue
            }
            do {
                switch (kind(forKey: key), entry.value) {
                case (.image?, .text(let path)):
                    try setImage(.file(path), forKey: key)
                case (.image?, .image(Recipe.inputID)):
                    try setImage(.source, forKey: key)
                case (.image?, .image(let id)):
                    // Links to earlier steps are the chain's (`Chain.open`); a session alone cannot show them.
                    if key != "inputImage" { warnings.append("\(name).\(key) takes the output of step \"\(id)\", which the explorer cannot show") }
                case (.colorCube?, .text(let path)):
                    try setTable(.cubeFile(path), forKey: key)
                case (.colorCurves?, _):
                    warnings.append("\(name).\(key): the explorer shows its curves presets, not a table file")
                default:
                    try set(try entry.value.filterValue(for: input, filter: name), forKey: key)
                }
            } catch {
                warnings.append("\(error)")
            }
        }
        return warnings
    }

    /// A file export writes beside the output for an input the command line can only name by a path: a
    /// generated image (mask, gradient, palette) as a 16-bit PNG, a look as an Adobe .cube file, curves as raw
    /// float32 bytes (`.f32`). Named after the output and the input: `out-mask.png`, `out-cube0.cube`.
    public struct ExportFile: Sendable {
        public enum Contents: Sendable {
            case image(Image)
            case bytes([UInt8])
        }
        public let key: String
        public let path: String
        public let contents: Contents

        /// Writes the file (images as 16-bit PNG, so they read back as they were made).
        public func write(context: RenderContext) throws {
            switch contents {
            case .image(let image): try ImageFile.write(image, to: path, sixteenBit: true, context: context)
            case .bytes(let bytes): try RegularFile.writeAtomically(Data(bytes), to: path)
            }
        }
    }

    /// The files `renderCommand(output:)` refers to that export must write.
    public func exportFiles(output: String) -> [ExportFile] {
        let base = (output as NSString).deletingPathExtension
        var files: [ExportFile] = []
        for control in controls {
            let key = control.input.key
            // inputMaskImage → "mask", inputCube0Data → "cube0", inputGradientImage → "gradient".
            var stem = key.hasPrefix("input") ? String(key.dropFirst(5)) : key
            for suffix in ["Image", "Data"] where stem.hasSuffix(suffix) && stem.count > suffix.count { stem = String(stem.dropLast(suffix.count)) }
            stem = stem.prefix(1).lowercased() + stem.dropFirst()
            if let choice = imageChoices[key], samples.path(choice) == nil, let image = try? samples.image(choice) {
                files.append(ExportFile(key: key, path: "\(base)-\(stem).png", contents: .image(image)))
            }
            guard let choice = tableChoices[key], case .data(let data)? = filter.value(forKey: key) else { continue }
            switch choice {
            case .cubeFile: break  // named by its own path
            case .look(let look):
                let dimension = integer("inputCubeDimension") ?? Self.stockCubeDimension
                let text = CubeFileText.make(dimension: dimension, data: data, title: "\(look.rawValue), made by cifiltertest")
                files.append(ExportFile(key: key, path: "\(base)-\(stem).cube", contents: .bytes(Array(text.utf8))))
            case .curves:
                files.append(ExportFile(key: key, path: "\(base)-\(stem).f32", contents: .bytes(data)))
            }
        }
        return files
    }

    /// The recipe that makes this output: the clamp the preview puts before filters that read beyond the edge,
    /// the filter with its values, images and tables by path (`exportFiles` writes the generated ones beside
    /// `output`), the input image, and `crop` (the rectangle the export writes). `allValues` writes every value
    /// (the recipe file, which must not depend on today's defaults); otherwise only those that differ from the
    /// catalogue's defaults (the printed command line, kept short).
    public func recipe(output: String, crop: Rect? = nil, allValues: Bool = false) -> Recipe {
        let written = Dictionary(exportFiles(output: output).map { ($0.key, $0.path) }, uniquingKeysWith: { a, _ in a })
        let defaults = Filter(name: name)
        var step = Recipe.Step(filter: name)
        for control in controls {
            let key = control.input.key
            if let choice = imageChoices[key] {
                if key != "inputImage", let path = samples.path(choice) ?? written[key] { step.inputs.append(.init(key, .text(Self.absolute(path)))) }
                continue
            }
            if let choice = tableChoices[key] {
                if case .cubeFile(let path) = choice { step.inputs.append(.init(key, .text(Self.absolute(path)))) }
                else if let path = written[key] { step.inputs.append(.init(key, .text(path))) }
                continue
            }
            // What the explorer cannot edit stays the filter's default, which render uses too.
            if case .readOnly = control.kind { continue }
            guard let value = filter.value(forKey: key).flatMap(Recipe.Value.init) else { continue }
            if !allValues, value == defaults?.value(forKey: key).flatMap(Recipe.Value.init) { continue }
            step.inputs.append(.init(key, value))
        }
        var steps = [step]
        if imageChoices["inputImage"] != nil, PreviewPlanner.readsBeyondEdge(descriptor) {
            steps.insert(Recipe.Step(filter: ExplorerHints.clampFilter), at: 0)
        }
        let input = imageChoices["inputImage"].flatMap { samples.path($0) ?? written["inputImage"] }
        return Recipe(input: input.map(Self.absolute), crop: crop, steps: steps)
    }

    /// A path from the root, so the command and the recipe work from any directory.
    static func absolute(_ path: String) -> String {
        path.hasPrefix("/") ? path : (FileManager.default.currentDirectoryPath as NSString).appendingPathComponent(path)
    }

    /// The words of the `cifiltertest render` command that makes the same output (`recipe`'s, shortened), or
    /// one that renders the recipe file when the command line cannot say it.
    public func renderArguments(output: String, crop: Rect? = nil) -> [String] {
        recipe(output: output, crop: crop).commandArguments(output: output)
            ?? ["cifiltertest", "render", "--recipe", Self.recipePath(output: output), "-o", output]
    }

    /// `renderArguments` as one shell command line.
    public func renderCommand(output: String, crop: Rect? = nil) -> String {
        renderArguments(output: output, crop: crop).map(Self.shellQuoted).joined(separator: " ")
    }

    /// Where the export writes its recipe: beside the image, `out.png` → `out.json`.
    public static func recipePath(output: String) -> String {
        (output as NSString).deletingPathExtension + ".json"
    }

    /// Quotes a word for a POSIX shell when it needs it.
    public static func shellQuoted(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/=:+-,@%")
        if !word.isEmpty && word.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
