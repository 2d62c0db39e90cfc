/// Text from a person or a file made safe to show in a terminal: every message that echoes user text (the
/// command line's errors, the explorer's status line) goes through `escaped` where it is printed or drawn.
public enum DisplayText {
    /// The longest text shown, in characters, before an ellipsis.
    public static let defaultLimit = 200

    /// Control characters shown visibly (ESC as `\e`, other C0 and DEL as `^X`, C1 as `\u{9b}`; newline, tab and
    /// carriage return as `\n`, `\t`, `\r`), so no byte of the text reaches the terminal as a command (an OSC 52
    /// sequence would set the clipboard, `\e[2J` clear the screen); then cut to `limit` characters with "…".
    public static func escaped(_ text: String, limit: Int = defaultLimit) -> String {
        var result = ""
        var count = 0
        for scalar in text.unicodeScalars {
            if count >= limit {
                result += "…"
                break
            }
            let shown: String
            switch scalar.value {
            case 0x1B: shown = "\\e"
            case 0x0A: shown = "\\n"
            case 0x09: shown = "\\t"
            case 0x0D: shown = "\\r"
            case 0x00..<0x20: shown = "^" + String(UnicodeScalar(UInt8(scalar.value + 0x40)))
            case 0x7F: shown = "^?"
            case 0x80..<0xA0, 0x2028, 0x2029, 0x202A...0x202E, 0x2066...0x2069:
                // C1 controls (0x9B is a one-byte CSI), line separators and bidirectional overrides.
                shown = "\\u{" + String(scalar.value, radix: 16) + "}"
            default: shown = String(scalar)
            }
            result += shown
            count += 1
        }
        return result
    }

    /// Whether `text` has anything `escaped` would change (apart from its length).
    public static func hasControlCharacters(_ text: String) -> Bool {
        escaped(text, limit: .max) != text
    }
}
