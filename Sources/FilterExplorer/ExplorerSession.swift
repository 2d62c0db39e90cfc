import FilterEngine
import Foundation

/// An input with the control that edits it.
public struct InputControl: Sendable {
    public let input: InputDescriptor
    public let kind: ControlKind
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
    private let filter: Filter
    private let samples: SampleLibrary

    public init(descriptor: FilterDescriptor, samples: SampleLibrary) throws {
        self.descriptor = descriptor
        self.samples = samples
        filter = try Filter(named: descriptor.name)
        controls = descriptor.inputs.map { InputControl(input: $0, kind: ControlFactory.kind(for: $0)) }
        resetAll()
    }

    public var name: String { descriptor.name }
    public var isImplemented: Bool { filter.isImplemented }

    public func value(forKey key: String) -> FilterValue? { filter.value(forKey: key) }

    /// Sets an input (validated by the engine: a wrong type or an out-of-range value throws, nothing changes).
    public func set(_ value: FilterValue, forKey key: String) throws {
        try filter.setValue(value, forKey: key)
        edited.insert(key)
    }

    public func setImage(_ choice: ImageChoice, forKey key: String) throws {
        _ = try samples.image(choice)  // fails early for a bad path
        imageChoices[key] = choice
        edited.insert(key)
    }

    /// Parses text typed for an input (the same parser as the command line) and sets it.
    public func setText(_ text: String, forKey key: String) throws {
        guard let input = descriptor.input(key) else { return }
        if input.isImage {
            try setImage(.file(text.trimmingCharacters(in: .whitespaces)), forKey: key)
        } else {
            try set(ValueParser.parse(text, for: input, filter: name), forKey: key)
        }
    }

    /// Every input back to the explorer's starting point.
    public func resetAll() {
        filter.setDefaults()
        imageChoices = [:]
        edited = []
        for input in descriptor.inputs { applyStock(input) }
    }

    public func reset(_ key: String) {
        guard let input = descriptor.input(key) else { return }
        try? filter.setValue(Filter(name: name)?.value(forKey: key), forKey: key)
        imageChoices[key] = nil
        edited.remove(key)
        applyStock(input)
    }

    // MARK: Stock inputs, as CIFilterTest sets them up

    public static let stockMessage = "CIFilterTest for the terminal"

    private func applyStock(_ input: InputDescriptor) {
        let rect = samples.sourceRect
        let key = input.key
        func put(_ value: FilterValue) { try? filter.setValue(value, forKey: key) }
        switch (input.valueClass, input.type) {
        case (.image, _):
            let choice: ImageChoice = switch key {
            case "inputImage": .source
            case _ where key.localizedCaseInsensitiveContains("mask"): .mask
            default: .second  // targets, backgrounds, textures, displacement maps
            }
            imageChoices[key] = choice
        case (.vector, .position?):
            put(.vector(Self.stockPosition(key: key, in: rect)))
        case (.vector, .rectangle?):
            // The extent is the whole image; a crop or focus rectangle is inset so its effect shows.
            let inset = key == "inputExtent" || key == "inputShadowExtent" ? 0 : (key == "inputFocusRect" ? 0.25 : 0.125)
            let r = rect.insetBy(dx: (rect.width * inset).rounded(), dy: (rect.height * inset).rounded())
            put(.vector([r.x, r.y, r.width, r.height]))
        case (.data, _) where key == "inputMessage":
            put(.data(Array(Self.stockMessage.utf8)))
        case (.vector, nil) where key == "inputWeights" && name.hasPrefix("CIConvolution"):
            // An emboss kernel: +1 at the first tap, -1 at the last, on a mid-grey bias.
            guard case .vector(let weights)? = filter.value(forKey: key), weights.count > 1 else { return }
            var emboss = [Double](repeating: 0, count: weights.count)
            emboss[0] = 1
            emboss[weights.count - 1] = -1
            put(.vector(emboss))
            if descriptor.input("inputBias") != nil { try? filter.setValue(.number(0.5), forKey: "inputBias") }
        default:
            break
        }
    }

    /// Centres at the image centre; numbered points spread along the diagonal; corners near the corners.
    static func stockPosition(key: String, in rect: Rect) -> [Double] {
        let inset = 0.1
        let left = rect.x + rect.width * inset, right = rect.maxX - rect.width * inset
        let bottom = rect.y + rect.height * inset, top = rect.maxY - rect.height * inset
        let corners: [(String, Double, Double)] = [
            ("TopLeft", left, top), ("TopRight", right, top), ("BottomLeft", left, bottom), ("BottomRight", right, bottom),
        ]
        if let corner = corners.first(where: { key.hasSuffix($0.0) }) { return [corner.1.rounded(), corner.2.rounded()] }
        if let last = key.last, let digit = last.wholeNumberValue, key.count > 1 {
            let f = digit == 0 ? 0.25 : 0.75
            return [(rect.x + rect.width * f).rounded(), (rect.y + rect.height * f).rounded()]
        }
        return [rect.midX.rounded(), rect.midY.rounded()]
    }

    // MARK: Output

    /// The filter's output for the preview or export, with the source clamped for filters that read beyond
    /// the edge, framed to what is shown (see `PreviewPlanner`).
    public func framedOutput() throws -> PreviewPlanner.Framing {
        for (key, choice) in imageChoices {
            var image = try samples.image(choice)
            if key == "inputImage" { image = PreviewPlanner.input(for: descriptor, source: image) }
            try filter.setValue(.image(image), forKey: key)
        }
        let output = try filter.makeOutputImage()
        return PreviewPlanner.frame(output: output, descriptor: descriptor, sourceRect: samples.sourceRect)
    }

    // MARK: Persistence and command lines

    /// The edited values as text: `ValueParser.format` for values, `ImageChoice.persisted` for images.
    public func persistedValues() -> [String: String] {
        var result: [String: String] = [:]
        for key in edited {
            if let choice = imageChoices[key] { result[key] = choice.persisted }
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
                } else {
                    try set(ValueParser.parse(text, for: input, filter: name), forKey: key)
                }
            } catch {
                warnings.append("\(error)")
            }
        }
        return warnings
    }

    /// The `cifiltertest render` command that makes the same output: every non-image value that differs from
    /// the catalogue default, other images by path (`maskPath` for the generated mask, written beside the output).
    public func renderCommand(output: String, maskPath: String?) -> String {
        var words = ["cifiltertest", "render", name]
        let defaults = Filter(name: name)
        for control in controls {
            let key = control.input.key
            if let choice = imageChoices[key] {
                if key == "inputImage" { continue }
                words.append(key + "=" + (samples.path(choice) ?? maskPath ?? "MASK.png"))
                continue
            }
            if case .readOnly = control.kind { continue }
            guard let value = filter.value(forKey: key) else { continue }
            let text = ValueParser.format(value)
            if let original = defaults?.value(forKey: key), ValueParser.format(original) == text { continue }
            words.append(key + "=" + text)
        }
        if let source = imageChoices["inputImage"], let path = samples.path(source) { words += ["-i", path] }
        words += ["-o", output]
        return words.map(Self.shellQuoted).joined(separator: " ")
    }

    /// Quotes a word for a POSIX shell when it needs it.
    public static func shellQuoted(_ word: String) -> String {
        let safe = Set("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._/=:+-,@%")
        if !word.isEmpty && word.allSatisfy({ safe.contains($0) }) { return word }
        return "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }

    /// Whether the filter uses the generated mask (export then writes it beside the output).
    public var usesMask: Bool { imageChoices.values.contains(.mask) }
}
