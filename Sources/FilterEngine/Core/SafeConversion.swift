import Foundation

// The engine builds with -Ounchecked, where `Int(x)` of a NaN, infinite or out-of-range float is undefined
// behaviour (in practice a garbage integer that has indexed memory out of bounds). Every conversion of a value
// a user or a formula can make huge goes through these instead.

/// The largest magnitude the saturating conversions return: 2^52, exactly representable in a Double, far
/// beyond any pixel coordinate or count, and small enough that sums and products of two such values
/// (coordinates plus a size, a count times 8) cannot overflow an Int.
let saturationLimit = 1 << 52

extension Int {
    /// `value` truncated toward zero and clamped to ±2^52; NaN gives 0.
    @inline(__always) init(saturating value: Double) {
        guard value == value else { self = 0; return }
        let limit = Double(saturationLimit)
        self = Int(Swift.min(Swift.max(value, -limit), limit))
    }

    /// `value` truncated toward zero and clamped to ±2^52; NaN gives 0.
    @inline(__always) init(saturating value: Float) {
        self.init(saturating: Double(value))
    }
}

extension Int32 {
    /// `value` truncated toward zero and clamped to the Int32 range; NaN gives 0.
    @inline(__always) init(saturating value: Float) {
        guard value == value else { self = 0; return }
        // 2147483520 is the largest float below 2^31.
        self = Int32(Swift.min(Swift.max(value, -2_147_483_648), 2_147_483_520))
    }
}
