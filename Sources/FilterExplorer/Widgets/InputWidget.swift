import FilterEngine
import FilterPipeline
import Foundation

/// One kind of input control: how its row is drawn, what ← → Enter Space and the mouse do on it, its modal
/// editor (if it has one) and the hints it shows. Each kind lives in its own file in this folder and is chosen
/// by `ControlFactory.widget(for:filter:)`, so a new kind is one file and one factory line.
///
/// Widgets hold no state of their own: values live in the `FilterSession`, an open editor's state in
/// `WidgetEditor`. They act through the `Explorer` they are given (its `apply`, `session`, `message` ...).
protocol InputWidget: Sendable {
    /// The catalogue classification the widget was made for (tests and the session compare it).
    var kind: ControlKind { get }
    /// Its line in the `?` help (an editor's keys), if it has keys of its own.
    var help: (keys: String, meaning: String)? { get }

    /// The value as the row and the status line show it.
    func valueText(_ control: InputControl, explorer: Explorer) -> String
    /// Draws the value part of the row (from `row.x`, `row.width` columns).
    func drawRow(_ row: WidgetRow, explorer: Explorer)
    /// ← → (±1) and their coarse forms.
    func step(_ control: InputControl, by steps: Int, coarse: Bool, explorer: Explorer)
    /// Enter on the row: by default, type the value.
    func activate(_ control: InputControl, explorer: Explorer)
    /// Other keys on the row (Space flips a toggle); false when not handled.
    func rowKey(_ key: Key, control: InputControl, explorer: Explorer) -> Bool
    /// A press, click or drag on the row at `column` of the value area (`width` columns, the slider bar's).
    /// Returns true to keep receiving drags until the button is released.
    func rowMouse(_ action: MouseEvent.Action, column: Int, width: Int, control: InputControl, explorer: Explorer) -> Bool
    /// A press or drag on the preview: `drag.start` is the image point pressed (bottom-left origin) and the
    /// input's value then, `point` where the pointer is now.
    func previewDrag(_ drag: PreviewDrag, to point: (x: Double, y: Double), control: InputControl, explorer: Explorer)

    /// Text entry: the prompt, the text it starts with, and what the typed text does (throws a reason).
    func textPrompt(_ control: InputControl) -> String
    func initialText(_ control: InputControl, explorer: Explorer) -> String
    func setText(_ text: String, control: InputControl, explorer: Explorer) throws
    /// The files Tab completes when the typed text is a path (nil: it is not one).
    var pathKind: PathCompletion.Kind? { get }

    /// A modal editor, opened by `activate`: its keys (Enter and Esc are the explorer's), its status hint, and
    /// what it draws besides the row (a list, a box). `editorMouse` returns nil when the click is not on it.
    func editorKey(_ key: Key, editor: inout WidgetEditor, control: InputControl, explorer: Explorer) -> EditorOutcome
    func editorHint(_ editor: WidgetEditor) -> String?
    /// The hint for a narrow status line (nil: `editorHint` itself).
    func editorShortHint(_ editor: WidgetEditor) -> String?
    func drawEditor(_ editor: WidgetEditor, control: InputControl, rowY: Int, explorer: Explorer)
    func editorMouse(_ mouse: MouseEvent, editor: inout WidgetEditor, control: InputControl, explorer: Explorer) -> EditorOutcome?
    /// Whether the editor draws over the preview (a list), so a graphics-protocol image must give way to it.
    var editorCoversPreview: Bool { get }
    /// Marks on the preview (points, corners, the tone curve), drawn for every control; `selected` is the
    /// current one.
    func drawOverlay(_ control: InputControl, selected: Bool, geometry: PreviewGeometry, explorer: Explorer)
    /// A panel in the preview area while this is the current control (the tone curve's plot).
    func drawPanel(_ control: InputControl, area: CellRect, editing: Bool, explorer: Explorer)
}

/// The row a widget draws into.
struct WidgetRow {
    let control: InputControl
    /// Its index among the filter's controls (colour pairs are picked by it).
    let index: Int
    let y: Int
    /// Where the value part starts and how wide the slider bar is there (the mouse uses the same numbers).
    let x: Int
    let barWidth: Int
    /// Columns to the end of the controls area.
    let width: Int
    let selected: Bool
    /// The open editor, when it is this row's.
    let editor: WidgetEditor?
}

/// An open modal editor: the input it edits, what was selected in it (a colour component, a transform handle,
/// a list entry, move/resize), and the values from before it opened (Esc puts them back).
struct WidgetEditor {
    let key: String
    var selection: Int
    let originals: [String: FilterValue?]
}

enum EditorOutcome {
    /// Still open (the key was used, or ignored).
    case editing
    /// Closed, keeping the values.
    case done
    /// Closed, putting the original values back.
    case cancelled
    /// Leave the editor for text entry.
    case typeValue(initial: String?)
}

// The common behaviour; a widget overrides what it does differently.
extension InputWidget {
    var help: (keys: String, meaning: String)? { nil }

    func valueText(_ control: InputControl, explorer: Explorer) -> String {
        ControlDisplay.text(explorer.session?.value(forKey: control.input.key), kind: kind)
    }

    func drawRow(_ row: WidgetRow, explorer: Explorer) {
        explorer.terminal.put(row.y, row.x, valueText(row.control, explorer: explorer), width: row.width, .init(bold: row.selected))
    }

    func step(_ control: InputControl, by steps: Int, coarse: Bool, explorer: Explorer) {
        explorer.message = .init(text: "press Enter to edit \(control.input.displayName)", isError: false)
    }

    func activate(_ control: InputControl, explorer: Explorer) { explorer.beginTextEntry(control) }

    func rowKey(_ key: Key, control: InputControl, explorer: Explorer) -> Bool { false }

    func rowMouse(_ action: MouseEvent.Action, column: Int, width: Int, control: InputControl, explorer: Explorer) -> Bool { false }

    func previewDrag(_ drag: PreviewDrag, to point: (x: Double, y: Double), control: InputControl, explorer: Explorer) {
        explorer.message = .init(text: "choose a point or rectangle input to place it with the mouse (p inspects pixels)",
                                 isError: false)
    }

    func textPrompt(_ control: InputControl) -> String { "\(control.input.key) = " }

    func initialText(_ control: InputControl, explorer: Explorer) -> String {
        explorer.session?.value(forKey: control.input.key).map(ValueParser.format) ?? ""
    }

    func setText(_ text: String, control: InputControl, explorer: Explorer) throws {
        guard let session = explorer.session else { return }
        try session.set(ValueFiles().value(text, for: control.input, filter: session.name), forKey: control.input.key)
    }

    var pathKind: PathCompletion.Kind? { nil }

    func editorKey(_ key: Key, editor: inout WidgetEditor, control: InputControl, explorer: Explorer) -> EditorOutcome { .editing }
    func editorHint(_ editor: WidgetEditor) -> String? { nil }
    func editorShortHint(_ editor: WidgetEditor) -> String? { nil }
    var editorCoversPreview: Bool { false }
    func drawEditor(_ editor: WidgetEditor, control: InputControl, rowY: Int, explorer: Explorer) {}
    func editorMouse(_ mouse: MouseEvent, editor: inout WidgetEditor, control: InputControl, explorer: Explorer) -> EditorOutcome? { nil }
    func drawOverlay(_ control: InputControl, selected: Bool, geometry: PreviewGeometry, explorer: Explorer) {}
    func drawPanel(_ control: InputControl, area: CellRect, editing: Bool, explorer: Explorer) {}

    /// Opens this widget's editor on `control`, remembering `keys`' values for Esc (default: the input's own).
    func openEditor(_ control: InputControl, explorer: Explorer, selection: Int = 0, keys: [String]? = nil) {
        guard let session = explorer.session else { return }
        var originals: [String: FilterValue?] = [:]
        for key in keys ?? [control.input.key] { originals[key] = session.value(forKey: key) }
        explorer.openEditor(WidgetEditor(key: control.input.key, selection: selection, originals: originals))
    }
}

extension ControlFactory {
    /// The help lines of every widget the catalogue's inputs get, each once, in catalogue order: a new
    /// widget's keys reach the `?` help without a list to keep.
    static let editorHelp: [(String, String)] = {
        var seen: Set<String> = []
        var lines: [(String, String)] = []
        for filter in Catalog.builtIn.filters {
            for input in filter.inputs {
                guard let help = widget(for: input, filter: filter.name).help, seen.insert(help.keys).inserted else { continue }
                lines.append(help)
            }
        }
        return lines
    }()

    /// The one factory from an input's catalogue attributes (and `ExplorerHints`) to its widget. A new kind of
    /// control is a file in this folder and a line here.
    static func widget(for input: InputDescriptor, filter: String? = nil) -> any InputWidget {
        if let choices = ExplorerHints.choices(filter: filter, key: input.key) { return ChoiceWidget(choices: choices) }
        if let override = ExplorerHints.control(filter: filter, input: input) { return override }
        switch input.valueClass {
        case .number:
            return input.isBoolean ? BooleanWidget() : SliderWidget(spec: SliderSpec(input))
        case .color:
            return ColorWidget()
        case .vector:
            switch input.type {
            case .position: return PointWidget(offset: false)
            // Offsets named so move a marker from the image centre; other offsets (white-point pairs) are numbers.
            case .offset where input.key.hasSuffix("Offset"): return PointWidget(offset: true)
            case .rectangle: return RectangleWidget()
            default: return VectorWidget(expectedCount: VectorWidget.expectedCount(of: input))
            }
        case .transform:
            return TransformWidget()
        case .array:
            // CIMeshGenerator's segments, typed as a flat list: x0 y0 x1 y1 per segment.
            return VectorWidget(expectedCount: nil)
        case .image:
            return ImageWidget(role: ImageRole(input, filter: filter))
        case .string, .attributedString, .barcodeDescriptor:
            // A barcode descriptor is typed in its text form (qr:level=M,message=Hello …), read by ValueParser.
            return TextWidget()
        case .data:
            return ReadOnlyWidget(reason: "a binary table")
        case .object:
            // Objects the catalogue describes by a default string (font names) are text.
            if case .string? = input.defaultValue { return TextWidget() }
            return ReadOnlyWidget(reason: "an object that cannot be made here")
        default:
            return ReadOnlyWidget(reason: "a \(input.valueClass.rawValue), which cannot be made here")
        }
    }
}
