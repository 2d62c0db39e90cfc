import Foundation
internal import FilterEngine

/// Conversions between the values Core Image code passes (`Any`: Swift and Foundation numbers, CGFloat,
/// CGPoint, CGRect, CIVector, CIColor, CIImage, Data, String, NSAttributedString, CGColorSpace,
/// CGAffineTransform, CIBarcodeDescriptor) and the engine's typed filter values.
enum FilterValues {
    /// A number from any numeric type Core Image code passes (Swift numbers, CGFloat, Bool, NSNumber).
    static func number(_ value: Any?) -> Double? {
        switch value {
        case let v as Double: v
        case let v as Float: Double(v)
        case let v as CGFloat: Double(v)
        case let v as Int: Double(v)
        case let v as Bool: v ? 1 : 0
        case let v as Int32: Double(v)
        case let v as Int64: Double(v)
        case let v as UInt: Double(v)
        case let v as UInt32: Double(v)
        case let v as UInt8: Double(v)
        case let v as Int16: Double(v)
        case let v as NSNumber: v.doubleValue
        default: nil
        }
    }

    /// The numbers of a vector-like value: CIVector, CGPoint, CGVector, CGRect, CGSize, CGAffineTransform, arrays.
    static func numbers(_ value: Any?) -> [Double]? {
        switch value {
        case let v as CIVector: v.doubles
        case let p as CGPoint: [Double(p.x), Double(p.y)]
        case let v as CGVector: [Double(v.dx), Double(v.dy)]
        case let r as CGRect: [Double(r.origin.x), Double(r.origin.y), Double(r.size.width), Double(r.size.height)]
        case let s as CGSize: [Double(s.width), Double(s.height)]
        case let t as CGAffineTransform: [t.a, t.b, t.c, t.d, t.tx, t.ty].map(Double.init)
        case let c as CIColor: c.sRGBComponents
        case let a as [Any]:
            // An array of numbers, or of vectors laid end to end (CIMeshGenerator's segments).
            a.reduce([Double]?([])) { partial, element in
                guard let partial else { return nil }
                if let n = number(element) { return partial + [n] }
                if let v = element as? CIVector { return partial + v.doubles }
                return nil
            }
        default: number(value).map { [$0] }
        }
    }

    /// The engine value for an input, converted by the input's class, or nil when the value cannot stand for it.
    static func engineValue(_ value: Any, for input: InputDescriptor) -> EngineValue? {
        switch input.valueClass {
        case .image:
            return (value as? CIImage).map { .image($0.engine) }
        case .number:
            return number(value).map { .number($0) }
        case .vector, .array:
            return numbers(value).map { .vector($0) }
        case .color:
            if let color = value as? CIColor { return .color(EngineColor(color.sRGBComponents)) }
            return numbers(value).flatMap { $0.count >= 3 ? .color(EngineColor($0)) : nil }
        case .transform:
            return numbers(value).flatMap { $0.count == 6 ? .transform(EngineTransform($0)) : nil }
        case .string, .object, .attributedString:
            switch value {
            case let s as String: return .string(s)
            case let s as NSString: return .string(s as String)
            case let a as NSAttributedString: return .string(a.string)
            case let space as CGColorSpace: return .string(space.engineName)
            default: return nil
            }
        case .data:
            switch value {
            case let d as Data: return .data([UInt8](d))
            case let d as NSData: return .data([UInt8](d as Data))
            case let s as String: return .string(s)
            case let a as [UInt8]: return .data(a)
            case let f as [Float]: return .data(f.withUnsafeBytes { [UInt8]($0) })
            default: return nil
            }
        case .barcodeDescriptor:
            return (value as? CIBarcodeDescriptor).map { .barcode($0.engineDescriptor) }
        default:
            return nil
        }
    }

    /// A catalogue default as Core Image hands it out: NSNumber, CIVector, CIColor, CGAffineTransform, String,
    /// CGColorSpace; nil for tables (colour cubes), which each filter builds itself.
    static func appleValue(_ value: AttributeValue, for input: InputDescriptor) -> Any? {
        switch (value, input.valueClass) {
        case (.number(let n), _): return NSNumber(value: n)
        case (.bool(let b), _): return NSNumber(value: b)
        case (.vector(let v), .color):
            return CIColor(red: CGFloat(v[0]), green: CGFloat(v[1]), blue: CGFloat(v[2]), alpha: v.count > 3 ? CGFloat(v[3]) : 1)
        case (.vector(let v), .transform):
            return v.count == 6 ? CGAffineTransform(EngineTransform(v)) : nil
        case (.vector(let v), _): return CIVector(values: v.map { CGFloat($0) })
        case (.string(let s), .object):
            return CGColorSpace(name: s == "sRGB" ? CGColorSpace.sRGB : s) ?? CGColorSpace(name: CGColorSpace.sRGB)
        case (.string(let s), _): return s
        case (.data, _): return nil
        }
    }
}
