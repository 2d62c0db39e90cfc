import Foundation

/// A Core Image–shaped filter: made by name from the catalogue, its inputs set by key, its output a lazy image.
public final class Filter {
    public let descriptor: FilterDescriptor
    private var values: [String: FilterValue] = [:]
    /// Which Core Image's behaviour to reproduce: the current one unless a caller asks for an older system's
    /// (`render --core-image-version 12`), so references rendered there stay testable.
    public var coreImageVersion: CoreImageVersion = .current

    /// The filter of that name with its inputs at their defaults, as `CIFilter(name:)` gives it.
    public init(named name: String, catalog: Catalog = .builtIn) throws {
        guard let descriptor = catalog.filter(named: name) else {
            let suggestions = catalog.suggestions(for: name)
            let hint = suggestions.isEmpty ? "" : " (did you mean \(suggestions.joined(separator: ", "))?)"
            throw FilterError("unknown filter \(name)\(hint)")
        }
        self.descriptor = descriptor
        setDefaults()
    }

    public convenience init?(name: String) {
        try? self.init(named: name)
    }

    public var name: String { descriptor.name }
    public var attributes: FilterDescriptor { descriptor }
    public var inputKeys: [String] { descriptor.inputKeys }

    /// Whether this engine can render the filter (some catalogue entries are not written yet or cannot be).
    public var isImplemented: Bool { FilterRegistry.implementation(for: name) != nil }

    public static func filterNames(inCategory category: String, catalog: Catalog = .builtIn) -> [String] {
        catalog.filterNames(inCategory: category)
    }

    /// Every input back to its catalogue default; inputs without one (images) are left unset.
    public func setDefaults() {
        for input in descriptor.inputs {
            if let value = input.defaultValue.flatMap({ FilterValue($0, for: input) }) {
                values[input.key] = value
            } else if !input.isImage {
                values[input.key] = nil
            }
        }
    }

    /// Sets (or with nil, clears) an input. As in Core Image, any finite number is taken (the catalogue's
    /// ranges are hints for a user interface); a wrong type, a NaN or infinite number, or a point or rectangle
    /// of the wrong length is an error naming filter, key, value and what it expects, and nothing changes then.
    public func setValue(_ value: FilterValue?, forKey key: String) throws {
        guard let input = descriptor.input(key) else {
            throw FilterError("\(name) has no input \(key); its inputs are \(inputKeys.joined(separator: ", "))")
        }
        if let value { try input.validate(value, filter: name) }
        values[key] = value
    }

    public func value(forKey key: String) -> FilterValue? { values[key] }

    /// The output image, or an error saying what is missing or wrong.
    public func makeOutputImage() throws -> Image {
        if let reason = descriptor.unavailableReason {
            throw FilterError("\(name) is not available here: it \(reason)")
        }
        guard let implementation = FilterRegistry.implementation(for: name) else {
            throw FilterError("\(name) is not implemented yet")
        }
        let inputs = FilterInputs(descriptor: descriptor, values: values, coreImageVersion: coreImageVersion)
        if FilterOrigin.current != nil { return try implementation(inputs) }
        return try FilterOrigin.$current.withValue(originDescription) { try implementation(inputs) }
    }

    /// The filter's name and the inputs changed from their defaults (images and tables left out), for render
    /// errors that say which value made a render too costly.
    var originDescription: String {
        var changed: [String] = []
        for input in descriptor.inputs where !input.isImage {
            guard let value = values[input.key] else { continue }
            switch value {
            case .number, .vector, .color, .transform: break
            default: continue
            }
            let standard = input.defaultValue.flatMap { FilterValue($0, for: input) }
            if standard.map({ "\($0)" }) != "\(value)" { changed.append("\(input.key) = \(value)") }
        }
        return changed.isEmpty ? name : "\(name) with " + changed.prefix(4).joined(separator: ", ")
    }

    /// The output image, or nil when it cannot be made (as Core Image's `outputImage`).
    public var outputImage: Image? { try? makeOutputImage() }
}

/// The inputs as a filter implementation reads them. Reading a key the catalogue entry does not declare is an
/// error, so implementation and catalogue cannot drift apart.
public struct FilterInputs {
    public let descriptor: FilterDescriptor
    let values: [String: FilterValue]
    /// The Core Image version whose behaviour the implementation reproduces (see `CoreImageVersion`).
    public var coreImageVersion: CoreImageVersion = .current

    private func declared(_ key: String) throws -> InputDescriptor {
        guard let input = descriptor.input(key) else {
            throw FilterError("\(descriptor.name) reads \(key), which its catalogue entry does not declare")
        }
        return input
    }

    private func value(_ key: String) throws -> FilterValue {
        let input = try declared(key)
        guard let value = values[key] else { throw FilterError("\(descriptor.name).\(key) is not set (\(input.expectation))") }
        return value
    }

    public func number(_ key: String) throws -> Double {
        guard case .number(let n) = try value(key) else { throw FilterError("\(descriptor.name).\(key) is not a number") }
        return n
    }

    public func float(_ key: String) throws -> Float { Float(try number(key)) }
    public func bool(_ key: String) throws -> Bool { try number(key) != 0 }
    /// The number rounded to a whole one, saturated to ±2^52 so that huge values stay safe to compute with.
    public func integer(_ key: String) throws -> Int { Int(saturating: try number(key).rounded()) }

    public func vector(_ key: String) throws -> [Double] {
        guard case .vector(let v) = try value(key) else { throw FilterError("\(descriptor.name).\(key) is not a vector") }
        return v
    }

    /// A 2-D point or offset.
    public func point(_ key: String) throws -> SIMD2<Double> {
        let v = try vector(key)
        return SIMD2(v.count > 0 ? v[0] : 0, v.count > 1 ? v[1] : 0)
    }

    public func rect(_ key: String) throws -> Rect {
        let v = try vector(key)
        guard v.count == 4 else { throw FilterError("\(descriptor.name).\(key) is not a rectangle") }
        // Standardised as CGRectStandardize does (Core Image's rectangle inputs go through it): a negative width
        // or height moves the origin to the opposite corner.
        return Rect(x: min(v[0], v[0] + v[2]), y: min(v[1], v[1] + v[3]), width: abs(v[2]), height: abs(v[3]))
    }

    public func color(_ key: String) throws -> Color {
        guard case .color(let c) = try value(key) else { throw FilterError("\(descriptor.name).\(key) is not a colour") }
        return c
    }

    public func transform(_ key: String) throws -> AffineTransform {
        guard case .transform(let t) = try value(key) else { throw FilterError("\(descriptor.name).\(key) is not a transform") }
        return t
    }

    public func string(_ key: String) throws -> String {
        guard case .string(let s) = try value(key) else { throw FilterError("\(descriptor.name).\(key) is not a string") }
        return s
    }

    /// Whether a declared input has a value: for inputs without a catalogue default (a colour space, a source
    /// headroom) that a filter treats as optional.
    public func has(_ key: String) throws -> Bool {
        _ = try declared(key)
        return values[key] != nil
    }

    /// The bytes of a data input (text given for it counts as its UTF-8 bytes), or nil when unset: the
    /// catalogue describes data defaults only by size, so each filter builds its own default table.
    public func data(_ key: String) throws -> [UInt8]? {
        _ = try declared(key)
        switch values[key] {
        case nil: return nil
        case .data(let bytes)?: return bytes
        case .string(let text)?: return Array(text.utf8)
        default: throw FilterError("\(descriptor.name).\(key) is not data")
        }
    }

    public func barcodeDescriptor(_ key: String) throws -> BarcodeDescriptor {
        guard case .barcode(let barcode) = try value(key) else {
            throw FilterError("\(descriptor.name).\(key) is not a barcode descriptor")
        }
        return barcode
    }

    public func image(_ key: String) throws -> Image {
        guard case .image(let image) = try value(key) else { throw FilterError("\(descriptor.name).\(key) is not an image") }
        return image
    }
}

public typealias FilterImplementation = @Sendable (FilterInputs) throws -> Image

// Here rather than in Core/Image.swift: the image recipe knows nothing of the catalogue or of filters.
extension Image {
    /// Applies a catalogue filter with `parameters` (the input image is this image).
    public func applyingFilter(_ name: String, parameters: [String: FilterValue] = [:],
                               coreImageVersion: CoreImageVersion = .current) throws -> Image {
        let filter = try Filter(named: name)
        filter.coreImageVersion = coreImageVersion
        try filter.setValue(.image(self), forKey: "inputImage")
        for (key, value) in parameters { try filter.setValue(value, forKey: key) }
        return try filter.makeOutputImage()
    }
}
