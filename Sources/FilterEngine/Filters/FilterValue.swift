import Foundation

/// A value given to a filter input, typed as Core Image types them.
public enum FilterValue: Sendable, CustomStringConvertible {
    case number(Double)
    case vector([Double])
    case color(Color)
    case transform(AffineTransform)
    case string(String)
    case data([UInt8])
    case image(Image)
    /// A CIBarcodeDescriptor (CIBarcodeGenerator's input).
    case barcode(BarcodeDescriptor)

    /// The value a catalogue default stands for, or nil where the catalogue gives none that a filter can use.
    init?(_ value: AttributeValue, for input: InputDescriptor) {
        switch (value, input.valueClass) {
        case (.number(let n), _): self = .number(n)
        case (.bool(let b), _): self = .number(b ? 1 : 0)
        case (.vector(let v), .color): self = .color(Color(v))
        case (.vector(let v), .transform): self = .transform(AffineTransform(v))
        case (.vector(let v), _): self = .vector(v)
        case (.string(let s), _): self = .string(s)
        case (.data, _): return nil  // tables (colour cubes) are built by their filters
        }
    }

    public var kindName: String {
        switch self {
        case .number: "a number"
        case .vector: "a vector"
        case .color: "a colour"
        case .transform: "an affine transform"
        case .string: "a string"
        case .data: "data"
        case .image: "an image"
        case .barcode: "a barcode descriptor"
        }
    }

    public var description: String {
        switch self {
        case .number(let n): formatNumber(n)
        case .vector(let v): "[" + v.map(formatNumber).joined(separator: " ") + "]"
        case .color(let c): "(\(c))"
        case .transform(let t): t.description
        case .string(let s): "\"\(s)\""
        case .data(let d): "<\(d.count) bytes>"
        case .image(let i): i.description
        case .barcode(let b): b.description
        }
    }
}

public struct FilterError: Error, CustomStringConvertible, Equatable {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

extension InputDescriptor {
    /// What this input accepts, for error messages: "a number (usually 0…1)", "a vector of 2 numbers (x y)".
    public var expectation: String {
        switch valueClass {
        case .number:
            if isBoolean { return "a boolean (0 or 1; any non-zero number is true)" }
            // The catalogue's range is only a hint (see `validate`), so it is named as the usual one.
            var text = isInteger ? "a whole number" : "a number"
            switch (minimum, maximum) {
            case let (lo?, hi?): text += " (usually \(formatNumber(lo))…\(formatNumber(hi)))"
            case let (lo?, nil): text += " (usually ≥ \(formatNumber(lo)))"
            case let (nil, hi?): text += " (usually ≤ \(formatNumber(hi)))"
            default: break
            }
            return text
        case .vector:
            switch type {
            case .position, .offset: return "a vector of 2 numbers (x y)"
            case .position3: return "a vector of 3 numbers (x y z)"
            case .rectangle: return "a rectangle of 4 numbers (x y width height)"
            default: return "a vector of numbers"
            }
        case .color: return "a colour (\(ColorText.forms))"
        case .transform: return "an affine transform of 6 numbers (a b c d tx ty)"
        case .image: return "an image"
        case .string, .object, .attributedString: return "a string"
        case .data: return "data (text or bytes)"
        case .barcodeDescriptor: return "a barcode descriptor (qr:…, aztec:…, pdf417:… or datamatrix:…)"
        default: return "a \(valueClass.rawValue), which cannot be made here"
        }
    }

    /// Checks a value against this input's class and shape, and that its numbers are finite. The catalogue's
    /// ranges are not enforced: Core Image treats them as hints for a user interface.
    func validate(_ value: FilterValue, filter: String) throws {
        func wrong() -> FilterError {
            FilterError("\(filter).\(key) expects \(expectation), not \(value.kindName) \(value)")
        }
        switch (valueClass, value) {
        case (.number, .number(let n)):
            // Core Image's minimum/maximum (and slider) attributes are hints for a user interface: setValue takes
            // every finite number and the kernel does what its formula does (a few filters clamp, at the clamp).
            // A boolean is true for any non-zero number, as NSNumber's boolValue reads it.
            guard n.isFinite else {
                throw FilterError("\(filter).\(key) = \(formatNumber(n)) is not finite: expected \(expectation)")
            }
        case (.vector, .vector(let v)):
            guard v.allSatisfy(\.isFinite) else {
                throw FilterError("\(filter).\(key) = \(value) is not finite: expected \(expectation) with finite components")
            }
            let needed: Int? = switch type {
            case .position, .offset: 2
            case .position3: 3
            case .rectangle: 4
            default: nil
            }
            if let needed, v.count != needed { throw wrong() }
            // A rectangle with a negative width or height is accepted: Core Graphics standardises such a CGRect
            // (the origin moves to the other corner), and `FilterInputs.rect` does the same.
        case (.array, .vector(let v)):
            // An array of vectors (CIMeshGenerator's segments) travels flat: four numbers per segment.
            guard v.allSatisfy(\.isFinite), v.count % 4 == 0 else {
                throw FilterError("\(filter).\(key) expects a list of segments, four numbers each (x0 y0 x1 y1), not \(value)")
            }
        case (.color, .color(let c)):
            guard c.components.allSatisfy(\.isFinite) else {
                throw FilterError("\(filter).\(key) = \(value) is not finite: expected \(expectation) with finite components")
            }
        case (.transform, .transform(let t)):
            guard t.values.allSatisfy(\.isFinite) else {
                throw FilterError("\(filter).\(key) = \(value) is not finite: expected \(expectation) with finite components")
            }
        case (.barcodeDescriptor, .barcode(let descriptor)):
            // The symbol must be drawable: a descriptor Core Image would refuse (nil) is an error here.
            do { _ = try descriptor.render() } catch let error as FilterError {
                throw FilterError("\(filter).\(key): \(error.message)")
            }
        case (.image, .image), (.string, .string), (.object, .string), (.attributedString, .string),
             (.data, .data), (.data, .string):
            break
        default:
            throw wrong()
        }
    }
}
