@testable import FilterExplorer
import Testing

/// The status line's fitting by priority and the help's layout, at every width: nothing is cut mid-word.
struct HelpAndStatusTests {
    typealias Part = StatusLine.Part

    @Test func statusPartsGiveWayLeastImportantFirst() {
        let parts = [Part(text: "CITwirlDistortion", priority: 2), Part(text: "inputCenter = [256 256]", priority: 0),
                     Part(text: "12 ms", priority: 3), Part(text: "? help", priority: 4),
                     Part(text: "point: arrows move (Shift/HJKL ×10), click places, Enter done, Esc cancel",
                          short: "point: arrows, click, Enter/Esc", priority: 1)]
        let all = parts.map(\.text).joined(separator: " · ")
        #expect(StatusLine.fit(parts, width: 200) == all)
        #expect(StatusLine.fit(parts, width: all.count) == all)
        // One column less: "? help" goes first, then the time.
        #expect(StatusLine.fit(parts, width: all.count - 1) == parts.filter { $0.priority != 4 }.map(\.text).joined(separator: " · "))
        #expect(StatusLine.fit(parts, width: 59) == "inputCenter = [256 256] · point: arrows, click, Enter/Esc")
        #expect(StatusLine.fit(parts, width: 30) == "inputCenter = [256 256]")
        // Alone and still too long: cut at a word, with an ellipsis.
        #expect(StatusLine.fit(parts, width: 16) == "inputCenter =…")
        var words: Set<String> = ["·"]
        for part in parts {
            let text: String = part.text + " " + (part.short ?? "")
            for word in text.split(separator: " ") { words.insert(String(word)) }
        }
        for width in 1...220 {
            let line = StatusLine.fit(parts, width: width)
            #expect(line.count <= width)
            // Every word shown is whole (or ends with the ellipsis of a cut).
            for word in line.split(separator: " ") where !word.hasSuffix("…") {
                #expect(words.contains(String(word)), "\(width): \(line)")
            }
        }
    }

    @Test func aCuttablePartIsCutAtAWordWhenEnoughRemains() {
        let parts = [Part(text: "CISepiaTone", priority: 0),
                     Part(text: "verified: conformance CISepiaTone/1234 matches Apple's render within 1/255", priority: 5, cuttable: true)]
        #expect(StatusLine.fit(parts, width: 50) == "CISepiaTone · verified: conformance…")
        // Too little room for a useful piece: left out.
        #expect(StatusLine.fit(parts, width: 25) == "CISepiaTone")
    }

    @Test func helpWrapsEveryWordAndScrollsToItsEnd() {
        let entries = Explorer.keyHelp
        for (columns, rows) in [(40, 12), (60, 16), (80, 24), (120, 40), (200, 60)] {
            let help = HelpLayout(entries: entries, columns: columns, rows: rows)
            #expect(help.box.x >= 0 && help.box.maxX <= columns && help.box.y >= 0 && help.box.maxY <= rows)
            let inner = help.box.width - 4
            for row in help.rows {
                if help.keyWidth > 0 {
                    #expect(row.keys.count <= help.keyWidth && row.text.count <= inner - help.keyWidth - 1)
                } else {
                    #expect(row.keys.count <= inner && row.text.count <= inner)
                }
            }
            // The words of every entry, in order: nothing dropped or cut.
            let shown = help.rows.flatMap { ($0.keys + " " + $0.text).split(separator: " ") }.map(String.init)
            let original = entries.flatMap { ($0.0 + " " + $0.1).split(separator: " ") }.map(String.init)
            if help.keyWidth == 0 { #expect(shown == original, "\(columns)×\(rows)") }
            else { #expect(shown.sorted() == original.sorted(), "\(columns)×\(rows)") }
            // End shows the last row; Home the first; other keys close.
            let end = help.scrolled(0, by: .end)!
            #expect(end == help.maximumScroll && end + help.visibleCount == max(help.rows.count, help.visibleCount))
            #expect(help.scrolled(end, by: .home) == 0)
            #expect(help.scrolled(0, by: .char("x")) == nil)
            #expect(help.title(width: inner).count <= inner)
        }
        // 200×60: every entry on one row, nothing to scroll.
        let wide = HelpLayout(entries: entries, columns: 200, rows: 60)
        #expect(wide.rows.count == entries.count && wide.maximumScroll == 0 && wide.position(scroll: 0) == nil)
        let small = HelpLayout(entries: entries, columns: 40, rows: 12)
        #expect(small.visibleCount == 10 && small.maximumScroll > 0)
        #expect(small.position(scroll: small.maximumScroll)?.hasPrefix("\(small.rows.count - 9)–\(small.rows.count) of \(small.rows.count)") == true)
    }
}

/// The key bar's fitting: least important first, `? help` never.
struct KeyBarTests {
    typealias Item = KeyBar.Item

    @Test func itemsGiveWayByImportanceAndHelpStays() {
        let items = [Item("e", "export", 1), Item("c", "chain", 1), Item("f", "full screen", 6), Item("p", "pixel", 5),
                     KeyBar.help]
        #expect(KeyBar.text(items, width: 200) == "e export  c chain  f full screen  p pixel  ? help")
        #expect(KeyBar.text(items, width: 40) == "e export  c chain  p pixel  ? help")
        #expect(KeyBar.text(items, width: 25) == "e export  c chain  ? help")
        #expect(KeyBar.text(items, width: 24) == "e export  ? help")
        #expect(KeyBar.text(items, width: 15) == "? help")
        #expect(KeyBar.text(items, width: 3) == "? help")
        for width in 0...80 {
            let text = KeyBar.text(items, width: width)
            #expect(text.hasSuffix("? help"))
            #expect(text.count <= max(width, 6))
        }
    }
}
