import FilterEngine
import Foundation

/// A look: a recipe listed in the filter tree's "Looks" category and opened like `explore --recipe`.
public struct LookFile: Equatable, Sendable {
    /// The file's name without `.json`.
    public let name: String
    public let path: String
    /// Saved by the person (`S`), not shipped with the program.
    public let isOwn: Bool
}

/// Where looks are: the shipped ones (`Looks/` beside `SampleImages/`, as scripts/install puts them) and the
/// person's own (`$XDG_CONFIG_HOME/cifiltertest/looks`, `~/.config` when unset).
public enum Looks {
    public static func ownDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
            base = URL(fileURLWithPath: config)
        } else {
            base = URL(fileURLWithPath: environment["HOME"] ?? NSHomeDirectory()).appendingPathComponent(".config")
        }
        return base.appendingPathComponent("cifiltertest/looks")
    }

    public static func shippedDirectory(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL? {
        guard let samples = SampleLibrary.findSampleDirectory(environment: environment) else { return nil }
        let looks = URL(fileURLWithPath: samples).deletingLastPathComponent().appendingPathComponent("Looks")
        return FileManager.default.fileExists(atPath: looks.path) ? looks : nil
    }

    /// Every look, the shipped ones first, each group by name.
    public static func list(environment: [String: String] = ProcessInfo.processInfo.environment) -> [LookFile] {
        func files(in directory: URL?, own: Bool) -> [LookFile] {
            guard let directory, let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return [] }
            return names.filter { $0.hasSuffix(".json") && !$0.hasPrefix(".") }.sorted().map {
                LookFile(name: String($0.dropLast(5)), path: directory.appendingPathComponent($0).path, isOwn: own)
            }
        }
        return files(in: shippedDirectory(environment: environment), own: false)
            + files(in: ownDirectory(environment: environment), own: true)
    }

    /// A typed name made safe as a file name in the looks directory: no path separators or control characters,
    /// no leading dots (hidden files), no `.json` typed twice. An empty result is refused.
    public static func sanitizedName(_ typed: String) throws -> String {
        var name = typed.trimmingCharacters(in: .whitespacesAndNewlines)
        if name.lowercased().hasSuffix(".json") { name = String(name.dropLast(5)) }
        name = String(name.map { $0 == "/" || $0 == "\\" || $0.isNewline || $0.asciiValue.map { $0 < 32 || $0 == 127 } == true ? "-" : $0 })
        while name.hasPrefix(".") { name.removeFirst() }
        name = name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { throw FilterExplorerError("a look needs a name (letters, digits, - or _)") }
        return String(name.prefix(80))
    }
}
