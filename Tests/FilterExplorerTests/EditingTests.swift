import FilterEngine
import Foundation
import Testing
@testable import FilterExplorer

@Suite struct NumberExpressionTests {
    func value(_ text: String, default d: Double? = nil) throws -> Double {
        try NumberExpression.evaluate(text, default: d).value
    }

    func reason(_ text: String, default d: Double? = nil) -> String? {
        do {
            _ = try NumberExpression.evaluate(text, default: d)
            return nil
        } catch let failure as NumberExpression.Failure {
            return failure.reason
        } catch {
            return "\(error)"
        }
    }

    /// Deep nesting is refused with a reason, not a stack overflow; nesting within the limit still works.
    @Test func deepNestingIsRefusedNotACrash() throws {
        let deep = String(repeating: "(", count: 200_000) + "1" + String(repeating: ")", count: 200_000)
        #expect(reason(deep)?.contains("nested") == true)
        #expect(reason(String(repeating: "-", count: 200_000) + "1")?.contains("nested") == true)
        #expect(try value(String(repeating: "(", count: 100) + "2" + String(repeating: ")", count: 100)) == 2)
        #expect(try value(String(repeating: "-", count: 100) + "3") == 3)
    }

    @Test func knownValues() throws {
        #expect(try value("0.25") == 0.25)
        #expect(try value("pi/4") == Double.pi / 4)
        #expect(try value("PI") == Double.pi)
        #expect(try value("π") == Double.pi)
        #expect(try value("e") == M_E)
        #expect(try value("1e-3") == 0.001)
        #expect(try value("2.5E2") == 250)
        #expect(try value(".5") == 0.5)
        #expect(try value("2*default", default: 0.75) == 1.5)
        #expect(try value("default", default: -3) == -3)
    }

    @Test func precedenceAndUnaryMinus() throws {
        #expect(try value("1+2*3") == 7)
        #expect(try value("(1+2)*3") == 9)
        #expect(try value("8/2/2") == 2)       // left to right
        #expect(try value("10-4-3") == 3)
        #expect(try value("-2*-3") == 6)
        #expect(try value("--2") == 2)
        #expect(try value("-(1+2)") == -3)
        #expect(try value(" 1 + 1 ") == 2)
        #expect(try value("2*pi/8") == Double.pi / 4)
    }

    @Test func degreesBecomeRadians() throws {
        let typed = try NumberExpression.evaluate("45°", default: nil)
        #expect(abs(typed.value - Double.pi / 4) < 1e-15)
        #expect(typed.usedDegrees)
        #expect(abs(try value("45deg") - Double.pi / 4) < 1e-15)
        #expect(abs(try value("90 deg") - Double.pi / 2) < 1e-15)
        #expect(abs(try value("(30+15)°") - Double.pi / 4) < 1e-15)
        #expect(abs(try value("-180°") + Double.pi) < 1e-15)
        #expect(try value("1rad") == 1)
        #expect(try NumberExpression.evaluate("pi/4", default: nil).usedDegrees == false)
    }

    @Test func errorsSayWhatAndWhere() {
        #expect(reason("1+foo") == "unknown name 'foo' at column 3")
        #expect(reason("2*") == "a number is missing at column 3")
        #expect(reason("(1+2") == "')' is missing (the '(' at column 1) at column 5")
        #expect(reason("1 2") == "unexpected '2' at column 3")
        #expect(reason("") == "no number given")
        #expect(reason("default") == "this input has no default at column 1")
        #expect(reason("3 $") == "unexpected '$' at column 3")
    }

    @Test func nanAndInfinityAreRefused() {
        #expect(reason("1/0") == "1/0 is not finite")
        #expect(reason("0/0") == "0/0 is not finite")
        #expect(reason("nan") == "'nan' is not finite at column 1")
        #expect(reason("inf") == "'inf' is not finite at column 1")
        #expect(reason("1e400") == "1e400 is not finite")
    }

    @Test func lists() throws {
        #expect(try NumberExpression.evaluateList("[1 2 3]", defaults: []) == [1, 2, 3])
        #expect(try NumberExpression.evaluateList("1, -2, pi", defaults: []) == [1, -2, .pi])
        #expect(try NumberExpression.evaluateList("2*default default", defaults: [3, 4]) == [6, 4])
        #expect(throws: NumberExpression.Failure.self) { try NumberExpression.evaluateList("1 x", defaults: []) }
        #expect(throws: NumberExpression.Failure.self) { try NumberExpression.evaluateList("[]", defaults: []) }
    }
}

@Suite struct UndoHistoryTests {
    @Test func undoRedoAndANewEditDropsRedo() {
        var history = UndoHistory<Int>()
        var state = 0
        for next in [1, 2, 3] {
            history.record(state)
            state = next
        }
        #expect(history.undo(from: state) == 2)
        state = 2
        #expect(history.undo(from: state) == 1)
        state = 1
        #expect(history.redo(from: state) == 2)
        state = 2
        #expect(history.canRedo)
        history.record(state)  // a new edit
        state = 10
        #expect(!history.canRedo)
        #expect(history.redo(from: state) == nil)
        #expect(history.undo(from: state) == 2)
        #expect(history.undo(from: 2) == 1)
        #expect(history.undo(from: 1) == 0)
        #expect(history.undo(from: 0) == nil)
    }

    @Test func theOldestEditsGoBeyondTheLimit() {
        var history = UndoHistory<Int>(limit: 3)
        for i in 0..<10 { history.record(i) }
        #expect(history.past == [7, 8, 9])
    }

    @Test func sessionSnapshotsRestoreValuesExactly() throws {
        let samples = try ExplorerFixtures.samples()
        let session = try ExplorerFixtures.session("CISepiaTone", samples: samples)
        let before = session.snapshot()
        try session.set(.number(0.123456789), forKey: "inputIntensity")
        let after = session.snapshot()
        #expect(!before.isSame(as: after))
        session.restore(before)
        #expect(session.snapshot().isSame(as: before))
        guard case .number(let n)? = session.value(forKey: "inputIntensity") else { Issue.record("no intensity"); return }
        #expect(n == 1)
        session.restore(after)
        guard case .number(let m)? = session.value(forKey: "inputIntensity") else { Issue.record("no intensity"); return }
        #expect(m == 0.123456789)
    }
}

@Suite struct ChoiceAndHintTests {
    func kind(_ filter: String, _ key: String) throws -> ControlKind {
        ControlFactory.kind(for: try #require(Catalog.builtIn.filter(named: filter)?.input(key)), filter: filter)
    }

    @Test func fixedValuesArePickers() throws {
        guard case .choice(let levels) = try kind("CIQRCodeGenerator", "inputCorrectionLevel") else {
            Issue.record("the QR level should be a choice")
            return
        }
        #expect(levels.map(\.label) == ["L (7%)", "M (15%)", "Q (25%)", "H (30%)"])
        #expect(levels[1].matches(.string("M")) && !levels[1].matches(.string("X")))
        guard case .choice(let modes) = try kind("CIPDF417BarcodeGenerator", "inputCompactionMode") else {
            Issue.record("the compaction mode should be a choice")
            return
        }
        #expect(modes.count == 4 && modes[3].matches(.number(3)))
        #expect(try kind("CIPDF417BarcodeGenerator", "inputCompactStyle") == .toggle)
    }

    /// Every choice the table offers is a value its filter takes.
    @Test func everyChoiceIsAccepted() throws {
        for (name, choices) in ExplorerHints.choiceTable {
            let parts = name.split(separator: ".")
            let filter = try Filter(named: String(parts[0]))
            if filter.descriptor.input("inputMessage") != nil { try filter.setValue(.data(Array("12345".utf8)), forKey: "inputMessage") }  // digits: numeric compaction takes only those
            for choice in choices {
                #expect(throws: Never.self, "\(name) = \(choice.label)") {
                    try filter.setValue(choice.filterValue, forKey: String(parts[1]))
                    _ = try filter.makeOutputImage()
                }
            }
            // And a value outside the set is refused (the reason the picker exists).
            if case .string = choices[0].value {
                try filter.setValue(.string("X"), forKey: String(parts[1]))
                #expect(throws: (any Error).self) { _ = try filter.makeOutputImage() }
            }
        }
    }

    /// The table's filter names exist: a renamed filter would leave a dead entry.
    @Test func hintsNameRealFilters() {
        let names = Array(ExplorerHints.choiceTable.keys.map { String($0.split(separator: ".")[0]) })
            + ExplorerHints.pixelScalars.map { String($0.split(separator: ".")[0]) }
            + [ExplorerHints.firstFilter, ExplorerHints.toneCurveFilter, ExplorerHints.histogramDisplayFilter,
               ExplorerHints.clampFilter, ExplorerHints.linearToSRGBFilter, ExplorerHints.areaHistogramFilter]
        for name in names { #expect(Catalog.builtIn.filter(named: name) != nil, "\(name)") }
    }
}
