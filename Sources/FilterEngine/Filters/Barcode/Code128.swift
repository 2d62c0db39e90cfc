import Foundation

/// Code 128 (ISO/IEC 15417): the message as symbol values with the fewest symbols over code sets A, B and C
/// (C packs two digits per symbol), then the mod-103 check symbol and the stop pattern.
enum Code128 {
    /// Bar and space widths (bar first, in modules, 11 in all) of symbol values 0...105.
    static let patterns: [String] = [
        "212222", "222122", "222221", "121223", "121322", "131222", "122213", "122312", "132212", "221213",
        "221312", "231212", "112232", "122132", "122231", "113222", "123122", "123221", "223211", "221132",
        "221231", "213212", "223112", "312131", "311222", "321122", "321221", "312212", "322112", "322211",
        "212123", "212321", "232121", "111323", "131123", "131321", "112313", "132113", "132311", "211313",
        "231113", "231311", "112133", "112331", "132131", "113123", "113321", "133121", "313121", "211331",
        "231131", "213113", "213311", "213131", "311123", "311321", "331121", "312113", "312311", "332111",
        "314111", "221411", "431111", "111224", "111422", "121124", "121421", "141122", "141221", "112214",
        "112412", "122114", "122411", "142112", "142211", "241211", "221114", "413111", "241112", "134111",
        "111242", "121142", "121241", "114212", "124112", "124211", "411212", "421112", "421211", "212141",
        "214121", "412121", "111143", "111341", "131141", "114113", "114311", "411113", "411311", "113141",
        "114131", "311141", "411131", "211412", "211214", "211232",
    ]
    /// The stop pattern with its final two-module bar (13 modules).
    static let stop = "2331112"

    enum CodeSet: Int, CaseIterable { case a = 0, b, c }

    static let startValue: [CodeSet: Int] = [.a: 103, .b: 104, .c: 105]
    /// The symbol that switches to a set (the same value in every other set).
    static let switchValue: [CodeSet: Int] = [.a: 101, .b: 100, .c: 99]

    static func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }

    /// The value of the character at `i` in set `set` and how many bytes it takes, or nil if the set cannot
    /// encode it there.
    static func value(_ bytes: [UInt8], _ i: Int, in set: CodeSet) -> (value: Int, length: Int)? {
        let byte = bytes[i]
        switch set {
        case .a:
            if byte < 32 { return (Int(byte) + 64, 1) }
            if byte < 96 { return (Int(byte) - 32, 1) }
            return nil
        case .b:
            if byte >= 32 && byte < 128 { return (Int(byte) - 32, 1) }
            return nil
        case .c:
            guard i + 1 < bytes.count, isDigit(byte), isDigit(bytes[i + 1]) else { return nil }
            return (Int(byte - 48) * 10 + Int(bytes[i + 1] - 48), 2)
        }
    }

    /// Symbol values from start to check (stop excluded), or nil when a byte is not ASCII.
    static func encode(_ bytes: [UInt8]) -> [Int]? {
        guard bytes.allSatisfy({ $0 < 128 }) else { return nil }
        let n = bytes.count
        let sets = CodeSet.allCases
        // cost[i][s]: fewest symbols for bytes[i...] when set s is current at i (switches included).
        let unreachable = Int.max / 4
        var cost = Array(repeating: [Int](repeating: unreachable, count: 3), count: n + 1)
        var direct = Array(repeating: [(value: Int, length: Int)?](repeating: nil, count: 3), count: n + 1)
        var switchTo = Array(repeating: [CodeSet?](repeating: nil, count: 3), count: n + 1)
        cost[n] = [0, 0, 0]
        for i in stride(from: n - 1, through: 0, by: -1) {
            // Encoding the next character in each set directly, then allowing one switch before it.
            var directCost = [Int](repeating: unreachable, count: 3)
            for s in sets {
                if let step = value(bytes, i, in: s) {
                    directCost[s.rawValue] = 1 + cost[i + step.length][s.rawValue]
                    direct[i][s.rawValue] = step
                }
            }
            for s in sets {
                var best = directCost[s.rawValue]
                // Preference on ties: stay, then B, C, A.
                for t in [CodeSet.b, .c, .a] where t != s && 1 + directCost[t.rawValue] < best {
                    best = 1 + directCost[t.rawValue]
                    switchTo[i][s.rawValue] = t
                }
                cost[i][s.rawValue] = best
            }
        }
        // The start set: C when the message opens with four or more digits (or is two digits) and that is no
        // worse, otherwise the cheapest with B preferred.
        var start = CodeSet.b
        for s in [CodeSet.c, .a] where cost[0][s.rawValue] < cost[0][start.rawValue] { start = s }
        let leadingDigits = bytes.prefix { isDigit($0) }.count
        if (leadingDigits >= 4 || (leadingDigits == 2 && n == 2)) && cost[0][2] <= cost[0][start.rawValue] { start = .c }

        var values = [startValue[start]!]
        var i = 0, set = start
        while i < n {
            if let t = switchTo[i][set.rawValue] {
                values.append(switchValue[t]!)
                set = t
            }
            guard let step = direct[i][set.rawValue] else { return nil }
            values.append(step.value)
            i += step.length
        }
        var check = values[0]
        for (k, v) in values.enumerated().dropFirst() { check += k * v }
        values.append(check % 103)
        return values
    }

    /// Dark (true) and light modules of the whole symbol, quiet zones excluded.
    static func modules(_ values: [Int]) -> [Bool] {
        var result: [Bool] = []
        func draw(_ widths: String) {
            for (k, w) in widths.enumerated() {
                result.append(contentsOf: repeatElement(k % 2 == 0, count: Int(String(w))!))
            }
        }
        for v in values { draw(patterns[v]) }
        draw(stop)
        return result
    }
}
