import Foundation

extension Explorer {
    /// The `?` help's keys as a Markdown table: docs/explorer.md's key section is this text (written there by
    /// scripts/generate-docs through `cifiltertest explore --print-keys`), so the page lists what the help lists.
    public static var keyReference: String {
        var lines = ["| Keys | What they do |", "|---|---|"]
        for (keys, text) in keyHelp {
            lines.append("| `\(tableCell(keys))` | \(tableCell(text)) |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// A table cell's text: a bar would end the cell, even inside a code span.
    private static func tableCell(_ text: String) -> String {
        text.replacingOccurrences(of: "|", with: "\\|")
    }
}
