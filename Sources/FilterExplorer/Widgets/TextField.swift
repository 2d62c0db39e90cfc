/// A one-line text editor: the value typed in the status line (numbers, colours, paths, search text).
public struct TextField: Equatable, Sendable {
    public private(set) var characters: [Character]
    /// Insertion point, 0…count.
    public private(set) var cursor: Int

    public init(_ text: String = "") {
        characters = Array(text)
        cursor = characters.count
    }

    public var text: String { String(characters) }

    public enum Outcome: Equatable { case editing, submit, cancel, unhandled }

    /// Applies a key; returns whether the field was submitted, cancelled or still editing.
    @discardableResult
    public mutating func handle(_ key: Key) -> Outcome {
        switch key {
        case .enter: return .submit
        case .escape: return .cancel
        case .char(let c): insert(c)
        case .left, .ctrl("b"): cursor = max(0, cursor - 1)
        case .right, .ctrl("f"): cursor = min(characters.count, cursor + 1)
        case .home, .ctrl("a"): cursor = 0
        case .end, .ctrl("e"): cursor = characters.count
        case .backspace, .ctrl("h"):
            if cursor > 0 {
                characters.remove(at: cursor - 1)
                cursor -= 1
            }
        case .delete, .ctrl("d"):
            if cursor < characters.count { characters.remove(at: cursor) }
        case .ctrl("u"):
            characters.removeFirst(cursor)
            cursor = 0
        case .ctrl("k"):
            characters.removeLast(characters.count - cursor)
        case .ctrl("w"):
            // Delete the word before the cursor, as shells do.
            var start = cursor
            while start > 0 && characters[start - 1] == " " { start -= 1 }
            while start > 0 && characters[start - 1] != " " { start -= 1 }
            characters.removeSubrange(start..<cursor)
            cursor = start
        default: return .unhandled
        }
        return .editing
    }

    public mutating func insert(_ c: Character) {
        characters.insert(c, at: cursor)
        cursor += 1
    }

    /// The part of the text to show in `width` columns so the cursor stays visible, and the cursor's column.
    public func visible(width: Int) -> (text: String, cursorColumn: Int) {
        guard width > 1 else { return ("", 0) }
        let start = max(0, cursor - (width - 1))
        let shown = characters[start..<min(characters.count, start + width)]
        return (String(shown), cursor - start)
    }
}
