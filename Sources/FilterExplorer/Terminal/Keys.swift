/// A key press, decoded from ncurses' `get_wch` into names the explorer reasons about.
/// Decoding is pure (see `Key.decode`) so it can be tested without a terminal.
public enum Key: Equatable, Sendable {
    case char(Character)
    /// Ctrl plus a letter, lower case: Ctrl-L is `.ctrl("l")`.
    case ctrl(Character)
    case up, down, left, right
    case shiftUp, shiftDown, shiftLeft, shiftRight
    case pageUp, pageDown, home, end
    case enter, escape, tab, backTab, backspace, delete
    case function(Int)
    case unknown(Int32)

    /// Raw key codes as ncurses reports them (function keys), gathered once so decoding needs no terminal.
    public struct Codes: Sendable {
        public var up, down, left, right, shiftLeft, shiftRight, shiftUp, shiftDown: Int32
        public var pageUp, pageDown, home, end, enter, backspace, delete, backTab, f1: Int32

        public init(up: Int32, down: Int32, left: Int32, right: Int32, shiftLeft: Int32, shiftRight: Int32,
                    shiftUp: Int32, shiftDown: Int32, pageUp: Int32, pageDown: Int32, home: Int32, end: Int32,
                    enter: Int32, backspace: Int32, delete: Int32, backTab: Int32, f1: Int32) {
            (self.up, self.down, self.left, self.right) = (up, down, left, right)
            (self.shiftLeft, self.shiftRight, self.shiftUp, self.shiftDown) = (shiftLeft, shiftRight, shiftUp, shiftDown)
            (self.pageUp, self.pageDown, self.home, self.end) = (pageUp, pageDown, home, end)
            (self.enter, self.backspace, self.delete, self.backTab, self.f1) = (enter, backspace, delete, backTab, f1)
        }
    }

    /// Decodes a function-key code (`isKeyCode`) or a character code from `get_wch`.
    public static func decode(_ value: Int32, isKeyCode: Bool, codes: Codes) -> Key {
        if isKeyCode {
            switch value {
            case codes.up: return .up
            case codes.down: return .down
            case codes.left: return .left
            case codes.right: return .right
            case codes.shiftLeft: return .shiftLeft
            case codes.shiftRight: return .shiftRight
            case codes.shiftUp: return .shiftUp
            case codes.shiftDown: return .shiftDown
            case codes.pageUp: return .pageUp
            case codes.pageDown: return .pageDown
            case codes.home: return .home
            case codes.end: return .end
            case codes.enter: return .enter
            case codes.backspace: return .backspace
            case codes.delete: return .delete
            case codes.backTab: return .backTab
            case codes.f1..<(codes.f1 + 12): return .function(Int(value - codes.f1) + 1)
            default: return .unknown(value)
            }
        }
        switch value {
        case 9: return .tab
        case 10, 13: return .enter
        case 27: return .escape
        case 8, 127: return .backspace
        case 1...26: return .ctrl(Character(Unicode.Scalar(UInt8(value) + 96)))
        default:
            guard let scalar = Unicode.Scalar(UInt32(bitPattern: value)) else { return .unknown(value) }
            return .char(Character(scalar))
        }
    }

    /// How the help overlay and status line name the key.
    public var label: String {
        switch self {
        case .char(" "): "Space"
        case .char(let c): String(c)
        case .ctrl(let c): "Ctrl-" + String(c).uppercased()
        case .up: "↑"
        case .down: "↓"
        case .left: "←"
        case .right: "→"
        case .shiftUp: "Shift-↑"
        case .shiftDown: "Shift-↓"
        case .shiftLeft: "Shift-←"
        case .shiftRight: "Shift-→"
        case .pageUp: "PgUp"
        case .pageDown: "PgDn"
        case .home: "Home"
        case .end: "End"
        case .enter: "Enter"
        case .escape: "Esc"
        case .tab: "Tab"
        case .backTab: "Shift-Tab"
        case .backspace: "Backspace"
        case .delete: "Delete"
        case .function(let n): "F\(n)"
        case .unknown(let code): "key \(code)"
        }
    }
}

/// What the mouse did, in screen cells (row 0 at the top).
public struct MouseEvent: Equatable, Sendable {
    public enum Action: Equatable, Sendable { case press, release, click, drag, wheelUp, wheelDown }
    public var action: Action
    public var x: Int
    public var y: Int

    public init(_ action: Action, x: Int, y: Int) {
        self.action = action
        self.x = x
        self.y = y
    }
}

public enum InputEvent: Equatable, Sendable {
    case key(Key)
    case mouse(MouseEvent)
    case resize
}
