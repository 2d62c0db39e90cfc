import Foundation
internal import FilterEngine

// The engine's types under names of this module's own, so that no engine name reaches a client (the import is
// internal) and a renaming in the engine touches only these lines.
typealias EngineImage = FilterEngine.Image
typealias EngineRect = FilterEngine.Rect
typealias EngineTransform = FilterEngine.AffineTransform
typealias EngineColor = FilterEngine.Color
typealias EngineFilter = FilterEngine.Filter
typealias EngineValue = FilterEngine.FilterValue
typealias EngineContext = FilterEngine.RenderContext

extension CGRect {
    /// The engine's rectangle: Core Graphics' infinite rectangle is the engine's infinite one, null is empty.
    var engineRect: EngineRect {
        if isInfinite { return .infinite }
        if isNull { return .zero }
        let r = standardized
        return EngineRect(x: Double(r.origin.x), y: Double(r.origin.y), width: Double(r.size.width), height: Double(r.size.height))
    }

    init(_ rect: EngineRect) {
        if rect.isInfinite { self = .infinite; return }
        if rect.isEmpty && rect.width == 0 && rect.height == 0 && rect.x == 0 && rect.y == 0 { self = .zero; return }
        self.init(x: CGFloat(rect.x), y: CGFloat(rect.y), width: CGFloat(rect.width), height: CGFloat(rect.height))
    }
}

extension CGAffineTransform {
    var engineTransform: EngineTransform {
        EngineTransform(a: Double(a), b: Double(b), c: Double(c), d: Double(d), tx: Double(tx), ty: Double(ty))
    }

    init(_ t: EngineTransform) {
        self.init(a: CGFloat(t.a), b: CGFloat(t.b), c: CGFloat(t.c), d: CGFloat(t.d), tx: CGFloat(t.tx), ty: CGFloat(t.ty))
    }
}

/// Messages Core Image would only log: printed once each on standard error, so that a filter that silently
/// returns nil (an unknown key, a missing input) can be diagnosed.
enum LibraryWarnings {
    nonisolated(unsafe) private static var seen: Set<String> = []
    private static let lock = NSLock()

    static func report(_ message: String) {
        // Messages echo names and values from the caller: escaped and cut, so that neither a control sequence
        // nor a megabyte-long name reaches the terminal or the memory of the messages already seen.
        let message = DisplayText.escaped(message, limit: 400)
        lock.lock()
        let isNew = seen.count < 1000 && seen.insert(message).inserted
        lock.unlock()
        if isNew { FileHandle.standardError.write(Data("CoreImage: \(message)\n".utf8)) }
    }
}
