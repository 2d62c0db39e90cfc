/// Where each part of the explorer goes for a terminal size. Pure, so every size can be tested.
///
/// ```
/// title bar ──────────────────────────────────────────
/// filters tree │ preview
///              │
///              ├────────────────────────────────────
///              │ controls (one row per input)
///              │ the selected input's description, default and range
/// key bar: the keys of the current context (from 20 rows on)
/// status line ────────────────────────────────────────
/// ```
public struct ExplorerLayout: Equatable, Sendable {
    public static let minimumColumns = 60
    public static let minimumRows = 16
    /// Below this height the key bar gives its row to the preview (the status line keeps `? help`).
    public static let keyBarMinimumRows = 20

    public let columns: Int
    public let rows: Int
    public let title: CellRect
    public private(set) var tree: CellRect
    public private(set) var preview: CellRect
    public private(set) var controlsHeader: CellRect
    public private(set) var controls: CellRect
    /// The chain strip above the inputs' header (no rows for a chain of one step).
    public private(set) var chain: CellRect
    /// One line under the inputs: the selected input's description, default and range.
    public private(set) var inputHelp: CellRect
    /// The keys of the current context, above the status line (no rows on short terminals).
    public let keyBar: CellRect
    public let status: CellRect

    public var isTooSmall: Bool { columns < Self.minimumColumns || rows < Self.minimumRows }

    /// `fullScreen`: the preview takes the whole body; the tree and the controls are hidden (empty).
    /// `chainRows`: rows for the chain strip, taken from the preview.
    public init(columns: Int, rows: Int, controlCount: Int, fullScreen: Bool = false, chainRows: Int = 0) {
        self.columns = columns
        self.rows = rows
        title = CellRect(x: 0, y: 0, width: columns, height: 1)
        status = CellRect(x: 0, y: max(0, rows - 1), width: columns, height: 1)
        let keyRows = rows >= Self.keyBarMinimumRows ? 1 : 0
        keyBar = CellRect(x: 0, y: max(0, rows - 1 - keyRows), width: columns, height: keyRows)
        let body = max(0, rows - 2 - keyRows)
        // The tree gets about 30% of the width, between 24 and 42 columns; a separator column follows it.
        let treeWidth = min(42, max(24, columns * 3 / 10))
        tree = CellRect(x: 0, y: 1, width: treeWidth, height: body)
        let rightX = treeWidth + 1
        let rightWidth = max(0, columns - rightX)
        // Controls take one row per input, at most 40% of the body, at least 3 rows (less if the body is tiny).
        let wanted = max(1, controlCount)
        let controlRows = min(wanted, max(3, body * 2 / 5))
        let strip = max(0, chainRows)
        let previewHeight = max(1, body - controlRows - 2 - strip)
        preview = CellRect(x: rightX, y: 1, width: rightWidth, height: previewHeight)
        chain = CellRect(x: rightX, y: 1 + previewHeight, width: rightWidth, height: strip)
        controlsHeader = CellRect(x: rightX, y: 1 + previewHeight + strip, width: rightWidth, height: 1)
        controls = CellRect(x: rightX, y: 2 + previewHeight + strip, width: rightWidth,
                            height: max(0, body - previewHeight - 2 - strip))
        inputHelp = CellRect(x: rightX, y: controls.maxY, width: rightWidth, height: 1)
        if fullScreen {
            tree = CellRect(x: 0, y: 1, width: 0, height: 0)
            preview = CellRect(x: 0, y: 1, width: columns, height: max(1, body))
            chain = CellRect(x: 0, y: keyBar.y, width: 0, height: 0)
            controlsHeader = CellRect(x: 0, y: keyBar.y, width: 0, height: 0)
            controls = CellRect(x: 0, y: keyBar.y, width: 0, height: 0)
            inputHelp = CellRect(x: 0, y: keyBar.y, width: 0, height: 0)
        }
    }
}
