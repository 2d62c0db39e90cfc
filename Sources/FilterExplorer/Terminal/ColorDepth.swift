import Foundation

/// How many colours the terminal can show, as terminals announce it, and how to get them from ncurses.
public enum ColorDepth {
    /// What the person asked for with `--colors` (nil: detect).
    public static func parse(_ text: String) -> ColorMode? {
        switch text.lowercased() {
        case "truecolor", "24bit", "direct", "rgb": .truecolor
        case "256": .indexed256
        case "16": .indexed16
        case "8": .indexed8
        case "none", "mono", "monochrome", "0", "2": .monochrome
        default: nil
        }
    }

    /// The depth a terminal announces, strongest signal first: a forced mode; `NO_COLOR` (any non-empty value)
    /// for monochrome; `COLORTERM=truecolor` or `24bit`; terminfo's `RGB` or tmux's `Tc` flag; a `*-direct`
    /// TERM; then terminfo's colour count (2^24, 256, 16, 8; fewer is monochrome).
    public static func announced(environment: [String: String], terminfoColors: Int, terminfoRGB: Bool,
                                 term: String, forced: ColorMode? = nil) -> ColorMode {
        if let forced { return forced }
        if let noColor = environment["NO_COLOR"], !noColor.isEmpty { return .monochrome }
        let colorterm = (environment["COLORTERM"] ?? "").lowercased()
        if colorterm == "truecolor" || colorterm == "24bit" { return .truecolor }
        if terminfoRGB || term.hasSuffix("-direct") || terminfoColors >= 1 << 24 { return .truecolor }
        if terminfoColors >= 256 { return .indexed256 }
        if terminfoColors >= 16 { return .indexed16 }
        if terminfoColors >= 8 { return .indexed8 }
        return .monochrome
    }

    /// A terminal announcing truecolor whose terminfo entry has no direct-colour form (Debian's base terminfo
    /// has no `xterm-direct`/`tmux-direct`) gets a private variant of its own entry: 2^24 colours, colours below
    /// 8 kept as the eight ANSI colours, others sent as `38;2;r;g;b` (as ncurses' own `*-direct` entries do).
    /// Compiled with `tic` once into `$XDG_CACHE_HOME/cifiltertest/terminfo`. Returns the entry's name and the
    /// directory to add to `TERMINFO_DIRS`, or nil when it cannot be made.
    static func directVariant(of term: String, environment: [String: String]) -> (name: String, directory: String)? {
        let safe = String(term.unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) || "-_.+".unicodeScalars.contains($0) })
        guard !safe.isEmpty, safe == term else { return nil }
        let name = "cifiltertest-direct-\(safe)"
        let cache: String
        if let xdg = environment["XDG_CACHE_HOME"], xdg.hasPrefix("/") {
            cache = xdg
        } else {
            cache = (environment["HOME"] ?? NSHomeDirectory()) + "/.cache"
        }
        let directory = cache + "/cifiltertest/terminfo"
        let compiled = directory + "/\(name.prefix(1))/\(name)"
        if FileManager.default.fileExists(atPath: compiled) { return (name, directory) }
        guard let tic = ["/usr/bin/tic", "/bin/tic", "/usr/local/bin/tic"].first(where: { FileManager.default.isExecutableFile(atPath: $0) })
        else { return nil }
        let rgb = "%?%p1%{8}%<%t{ANSI}%p1%d%e{SGR};2;%p1%{65536}%/%d;%p1%{256}%/%{255}%&%d;%p1%{255}%&%d%;m"
        let source = """
            \(name)|\(safe) with direct colour (made by cifiltertest),
            \tcolors#0x1000000, pairs#0x10000, RGB,
            \tsetaf=\\E[\(rgb.replacingOccurrences(of: "{ANSI}", with: "3").replacingOccurrences(of: "{SGR}", with: "38")),
            \tsetab=\\E[\(rgb.replacingOccurrences(of: "{ANSI}", with: "4").replacingOccurrences(of: "{SGR}", with: "48")),
            \tuse=\(safe),

            """
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
            let sourcePath = directory + "/\(name).src"
            try source.write(toFile: sourcePath, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: tic)
            process.arguments = ["-x", "-o", directory, sourcePath]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            process.waitUntilExit()
            guard process.terminationStatus == 0, FileManager.default.fileExists(atPath: compiled) else { return nil }
            return (name, directory)
        } catch {
            return nil
        }
    }
}
