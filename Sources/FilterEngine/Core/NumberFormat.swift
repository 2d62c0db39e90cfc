import Foundation

/// Formats a number for people, in at most 7 significant digits: 1, 0.5, -3.141593 (not always the exact value).
public func formatNumber(_ value: Double) -> String {
    if value.isNaN { return "nan" }
    if value.isInfinite { return value > 0 ? "inf" : "-inf" }
    if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
    return String(format: "%.7g", value)
}
