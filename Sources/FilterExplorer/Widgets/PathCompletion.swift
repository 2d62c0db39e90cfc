import FilterEngine
import FilterPipeline
import Foundation

/// Tab in a path prompt (an image, a .cube file, an export), as a shell completes: the typed text grows to
/// the longest prefix the matching entries share; when it cannot grow, the matches are listed. Directories end
/// in `/`; hidden entries match only a prefix that starts with `.`. Pure apart from reading the directory, so
/// it is tested on a temporary folder.
public struct PathCompletion: Equatable, Sendable {
    /// The field's new text (the typed text when nothing could be added).
    public var text: String
    /// The matching entries' names (directories with their `/`), sorted; empty when nothing matches.
    public var candidates: [String]

    /// Whether the completion added nothing and several entries match: the time to list them.
    public func isAmbiguous(from typed: String) -> Bool { text == typed && candidates.count > 1 }

    /// Completes `typed`. Relative paths are read from `directory`; `~/` is the home folder (kept as typed).
    /// `keeps` chooses the files offered (by name); directories are always offered.
    public static func complete(_ typed: String, in directory: String = FileManager.default.currentDirectoryPath,
                                keeps: ((String) -> Bool)? = nil, home: String = NSHomeDirectory()) -> PathCompletion {
        let slash = typed.lastIndex(of: "/")
        let folderPart = slash.map { String(typed[...$0]) } ?? ""
        let prefix = slash.map { String(typed[typed.index(after: $0)...]) } ?? typed
        var folder = folderPart.isEmpty ? directory : folderPart
        if folder.hasPrefix("~/") { folder = home + folder.dropFirst() }
        else if !folder.hasPrefix("/") { folder = directory + "/" + folder }
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var matches: [String] = []
        for name in names where name.hasPrefix(prefix) {
            if name.hasPrefix("."), !prefix.hasPrefix(".") { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: folder + "/" + name, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue { matches.append(name + "/"); continue }
            if let keeps, !keeps(name) { continue }
            matches.append(name)
        }
        matches.sort()
        guard let first = matches.first else { return PathCompletion(text: typed, candidates: []) }
        let shared = matches.dropFirst().reduce(first) { commonPrefix($0, $1) }
        // Never shorter than typed (a prefix is matched exactly, so the shared part starts with it).
        return PathCompletion(text: folderPart + (shared.count > prefix.count ? shared : prefix), candidates: matches)
    }

    /// The longest common prefix of two names, by characters.
    static func commonPrefix(_ a: String, _ b: String) -> String {
        String(zip(a, b).prefix { pair in pair.0 == pair.1 }.map(\.0))
    }

    /// The files a prompt offers: images (by the extensions the explorer reads and writes), .cube files.
    public enum Kind: Sendable {
        case image, cube

        public func keeps(_ name: String) -> Bool {
            switch self {
            case .image: ImageFile.Format(path: name) != nil
            case .cube: (name as NSString).pathExtension.lowercased() == "cube"
            }
        }
    }

    /// "3 matches: a/  b.png  c.png", cut to `limit` names ("… and 12 more").
    public static func listing(_ candidates: [String], limit: Int = 30) -> String {
        let shown = candidates.prefix(limit).joined(separator: "  ")
        let more = candidates.count > limit ? "  … and \(candidates.count - limit) more (type more letters)" : ""
        return "\(candidates.count) matches: \(shown)\(more)"
    }
}
