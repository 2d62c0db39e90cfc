import Foundation

/// Which Core Image to imitate, named by the iOS version that shipped it (12, 8.1). Core Image's behaviour
/// changed across OS versions (the Gaussian blur's extent and kernel, for one); the default is the current one,
/// and an older version keeps a reference rendered on that system testable. Each filter whose behaviour differs
/// by version says how next to its implementation and in its catalogue evidence (`fidelity`).
public struct CoreImageVersion: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let major: Int
    public let minor: Int

    public init(_ major: Int, _ minor: Int = 0) {
        self.major = major
        self.minor = minor
    }

    /// Today's Core Image (iOS 13 / macOS 10.15 and later where nothing newer is known to differ).
    public static let current = CoreImageVersion(Int.max)

    /// "12", "8.1", "13.3.1" (only major and minor count) or "current"; nil for anything else.
    public init?(parsing text: String) {
        let trimmed = text.trimmingCharacters(in: .whitespaces).lowercased()
        if trimmed == "current" || trimmed == "latest" { self = .current; return }
        let parts = trimmed.split(separator: ".", omittingEmptySubsequences: false)
        guard (1...3).contains(parts.count), let major = Int(parts[0]), (1...1000).contains(major) else { return nil }
        var minor = 0
        if parts.count > 1 {
            guard let value = Int(parts[1]), value >= 0 else { return nil }
            minor = value
        }
        if parts.count > 2 { guard Int(parts[2]) != nil else { return nil } }
        self.init(major, minor)
    }

    public var isCurrent: Bool { major == Int.max }

    public static func < (a: CoreImageVersion, b: CoreImageVersion) -> Bool {
        (a.major, a.minor) < (b.major, b.minor)
    }

    public var description: String {
        isCurrent ? "current" : minor == 0 ? "\(major)" : "\(major).\(minor)"
    }
}
