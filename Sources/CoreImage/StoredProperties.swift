@_spi(Reflection) import Swift
import Foundation

/// Key-value coding for CIFilter subclasses, as far as Swift on Linux allows: there is no Objective-C runtime,
/// so `setValue(_:forKey:)` finds a stored property by name through the Swift runtime's field metadata and
/// writes the converted value in place; `value(forKey:)` reads it through `Mirror`. Observers (`didSet`) do not
/// run and computed properties are out of reach; see the CIFilter documentation.
enum StoredProperties {
    /// The names of the stored properties of `filter`'s class and its superclasses below CIFilter.
    static func names(of filter: CIFilter) -> [String] {
        var names: [String] = []
        var mirror: Mirror? = Mirror(reflecting: filter)
        while let m = mirror, m.subjectType != CIFilter.self {
            names = m.children.compactMap(\.label) + names
            mirror = m.superclassMirror
        }
        return names
    }

    static func value(forKey key: String, of filter: CIFilter) -> Any? {
        var mirror: Mirror? = Mirror(reflecting: filter)
        while let m = mirror, m.subjectType != CIFilter.self {
            if let child = m.children.first(where: { $0.label == key }) {
                // An optional that holds nil reads as nil, not as Optional<Any>.none wrapped in Any.
                let inner = Mirror(reflecting: child.value)
                if inner.displayStyle == .optional { return inner.children.first?.value }
                return child.value
            }
            mirror = m.superclassMirror
        }
        return nil
    }

    /// Writes `value` into the stored property `key` of `filter`; false when there is none of a supported type
    /// or the value cannot be converted to its type.
    static func set(_ value: Any?, forKey key: String, of filter: CIFilter) -> Bool {
        // CIFilter's own fields (its value store, its name) are not inputs.
        guard !ownFieldNames.contains(key) else { return false }
        var field: (offset: Int, type: Any.Type)?
        _forEachField(of: type(of: filter), options: classType) { name, offset, type, _ in
            if String(cString: name) == key { field = (offset, type) }
            return field == nil
        }
        guard let field else { return false }
        let base = UnsafeMutableRawPointer(Unmanaged.passUnretained(filter).toOpaque()) + field.offset
        for writer in writers where writer.type == field.type {
            return writer.write(base, value)
        }
        return false
    }

    /// `.classType` (bit 0): the standard library declares it as a static var, which Swift 6 flags; its value
    /// is stable.
    private static let classType = _EachFieldOptions(rawValue: 1)

    private static let ownFieldNames: Set<String> = {
        var names: Set<String> = []
        _forEachField(of: CIFilter.self, options: classType) { name, _, _, _ in
            names.insert(String(cString: name))
            return true
        }
        return names
    }()

    private struct Writer {
        let type: Any.Type
        let write: (UnsafeMutableRawPointer, Any?) -> Bool
    }

    /// A writer for a property of type `T` and one for `T?`, from a conversion of the given value.
    private static func writers<T>(_ type: T.Type, _ convert: @escaping (Any) -> T?) -> [Writer] {
        [
            Writer(type: T.self) { pointer, value in
                guard let value, let converted = convert(value) else { return false }
                pointer.assumingMemoryBound(to: T.self).pointee = converted
                return true
            },
            Writer(type: T?.self) { pointer, value in
                guard let value else {
                    pointer.assumingMemoryBound(to: T?.self).pointee = nil
                    return true
                }
                guard let converted = convert(value) else { return false }
                pointer.assumingMemoryBound(to: T?.self).pointee = converted
                return true
            },
        ]
    }

    private static func number(_ v: Any) -> Double? { FilterValues.number(v) }

    nonisolated(unsafe) private static let writers: [Writer] =
        writers(CIImage.self) { $0 as? CIImage }
        + writers(CIVector.self) { v in v as? CIVector ?? FilterValues.numbers(v).map { CIVector(values: $0.map { CGFloat($0) }) } }
        + writers(CIColor.self) { $0 as? CIColor }
        + writers(NSNumber.self) { v in v as? NSNumber ?? number(v).map { NSNumber(value: $0) } }
        + writers(Float.self) { number($0).map { Float($0) } }
        + writers(Double.self) { number($0) }
        + writers(CGFloat.self) { number($0).map { CGFloat($0) } }
        + writers(Int.self) { number($0).flatMap { $0.isFinite && abs($0) < 1e15 ? Int($0) : nil } }
        + writers(Bool.self) { number($0).map { $0 != 0 } }
        + writers(String.self) { $0 as? String }
        + writers(Data.self) { $0 as? Data }
        + writers(NSAttributedString.self) { v in v as? NSAttributedString ?? (v as? String).map { NSAttributedString(string: $0) } }
        + writers(CGColorSpace.self) { $0 as? CGColorSpace }
        + writers(CGPoint.self) { v in v as? CGPoint ?? (v as? CIVector)?.cgPointValue }
        + writers(CGRect.self) { v in v as? CGRect ?? (v as? CIVector)?.cgRectValue }
        + writers(CGAffineTransform.self) { v in v as? CGAffineTransform ?? (v as? CIVector)?.cgAffineTransformValue }
}
