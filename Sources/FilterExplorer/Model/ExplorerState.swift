import FilterEngine
import FilterPipeline
import Foundation

/// What the explorer remembers between runs: the last filter (as CIFilterTest did), each filter's edited
/// values as the text `ValueParser` reads, and the chain being edited (every step with its values, bypass
/// flags and image links, and the selected step).
public struct ExplorerState: Codable, Equatable, Sendable {
    /// 2: the chain is saved. A version-1 file has no chain and loads as it is.
    public var version = 2
    public var lastFilter: String?
    /// Filter name → input key → value text.
    public var values: [String: [String: String]] = [:]
    public var chain: SavedChain?
    /// The folder of the last export: the next `e` offers a name there.
    public var lastExportFolder: String?

    public init(lastFilter: String? = nil, values: [String: [String: String]] = [:], chain: SavedChain? = nil) {
        self.lastFilter = lastFilter
        self.values = values
        self.chain = chain
    }

    enum CodingKeys: String, CodingKey { case version, lastFilter, values, chain, lastExportFolder }

    /// Reads what it can: a part of the wrong shape (one filter's values, the chain, one of its steps) is left
    /// out and named in the decoder's `LoadNotes`, the rest is kept.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let notes = decoder.userInfo[LoadNotes.key] as? LoadNotes
        version = (try? container.decodeIfPresent(Int.self, forKey: .version)) ?? 1
        if container.contains(.lastFilter), (try? container.decodeIfPresent(String.self, forKey: .lastFilter)) == nil,
           (try? container.decodeNil(forKey: .lastFilter)) != true {
            notes?.add("the last filter")
        }
        lastFilter = try? container.decodeIfPresent(String.self, forKey: .lastFilter)
        // Only a convenience: a folder of the wrong shape is forgotten without a note.
        lastExportFolder = try? container.decodeIfPresent(String.self, forKey: .lastExportFolder)
        if container.contains(.values) {
            if let lenient = try? container.decode([String: Lenient<[String: String]>].self, forKey: .values) {
                for (name, entry) in lenient.sorted(by: { $0.key < $1.key }) {
                    if let saved = entry.value { values[name] = saved } else { notes?.add("the values of \(name)") }
                }
            } else {
                notes?.add("the filters' values")
            }
        }
        if container.contains(.chain), (try? container.decodeNil(forKey: .chain)) != true {
            chain = try? container.decode(SavedChain.self, forKey: .chain)
            if chain == nil { notes?.add("the chain") }
        }
    }

    public static func == (a: ExplorerState, b: ExplorerState) -> Bool {
        a.version == b.version && a.lastFilter == b.lastFilter && a.values == b.values && a.chain == b.chain
            && a.lastExportFolder == b.lastExportFolder
    }

    /// `$XDG_STATE_HOME/cifiltertest/state.json`, or `~/.local/state/cifiltertest/state.json`.
    public static func defaultURL(environment: [String: String] = ProcessInfo.processInfo.environment) -> URL {
        let base: URL
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = URL(fileURLWithPath: state)
        } else {
            let home = environment["HOME"] ?? NSHomeDirectory()
            base = URL(fileURLWithPath: home).appendingPathComponent(".local/state")
        }
        return base.appendingPathComponent("cifiltertest/state.json")
    }

    /// The saved state; a missing file is a fresh start, an unreadable or corrupt one a fresh start with a warning.
    public static func load(from url: URL) -> (state: ExplorerState, warning: String?) {
        guard FileManager.default.fileExists(atPath: url.path) else { return (ExplorerState(), nil) }
        do {
            return try decode(RegularFile.read(url.path), path: url.path)
        } catch {
            return (ExplorerState(), "ignored the saved state \(url.path): it is not valid (\(Self.reason(error)))")
        }
    }

    /// The state in `data`, and a warning naming the parts left out; throws when it is not a JSON object.
    public static func decode(_ data: Data, path: String) throws -> (state: ExplorerState, warning: String?) {
        let decoder = JSONDecoder()
        let notes = LoadNotes()
        decoder.userInfo[LoadNotes.key] = notes
        let state = try decoder.decode(ExplorerState.self, from: data)
        let parts = notes.parts
        guard !parts.isEmpty else { return (state, nil) }
        return (state, "the saved state \(path) is partly unreadable; left out: " + parts.joined(separator: ", "))
    }

    /// Writes the state atomically (a temporary file renamed over the old one), creating the directory.
    public func save(to url: URL) throws {
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try encoder.encode(self).write(to: url, options: .atomic)
    }

    /// Beside the state, while the explorer runs: the name of the filter on screen. It is removed when the state
    /// is saved at a normal exit (q or a quit signal), so finding it at start means the last session died there.
    static func sessionMarkerURL(for url: URL) -> URL { url.appendingPathExtension("open") }

    /// Records the filter on screen (nil: the session ended normally). Failures are ignored: the marker only
    /// protects against crash loops.
    static func markSession(at url: URL, filter: String?) {
        let marker = sessionMarkerURL(for: url)
        guard let filter else {
            try? FileManager.default.removeItem(at: marker)
            return
        }
        try? FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try? RegularFile.writeAtomically(Data(filter.utf8), to: marker.path)
    }

    /// The filter the last session was on when it died, if it did not end normally.
    static func unfinishedSession(at url: URL) -> String? {
        guard let data = try? RegularFile.read(sessionMarkerURL(for: url).path, maximumBytes: 4096) else { return nil }
        let name = String(decoding: data, as: UTF8.self)
        return name.isEmpty ? nil : name
    }

    private static func reason(_ error: Error) -> String {
        switch error {
        case DecodingError.dataCorrupted: "not JSON"
        case DecodingError.typeMismatch, DecodingError.keyNotFound, DecodingError.valueNotFound: "unexpected shape"
        case let error as ImageFileError: error.message
        default: "\(error.localizedDescription)"
        }
    }
}

/// The chain as saved: its steps in order and the one selected.
public struct SavedChain: Codable, Equatable, Sendable {
    public var steps: [SavedStep]
    /// From 0.
    public var selected: Int
    /// Whether the preview showed the selected step's output rather than the chain's (`s`).
    public var previewsSelectedStep: Bool

    public init(steps: [SavedStep], selected: Int = 0, previewsSelectedStep: Bool = false) {
        self.steps = steps
        self.selected = selected
        self.previewsSelectedStep = previewsSelectedStep
    }

    enum CodingKeys: String, CodingKey { case steps, selected, previewsSelectedStep }

    /// Steps of the wrong shape are left out (named in the decoder's `LoadNotes`); the rest are kept.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let notes = decoder.userInfo[LoadNotes.key] as? LoadNotes
        let lenient = try container.decode([Lenient<SavedStep>].self, forKey: .steps)
        steps = lenient.compactMap(\.value)
        for (index, entry) in lenient.enumerated() where entry.value == nil { notes?.add("chain step \(index + 1)") }
        selected = (try? container.decodeIfPresent(Int.self, forKey: .selected)) ?? max(0, steps.count - 1)
        previewsSelectedStep = (try? container.decodeIfPresent(Bool.self, forKey: .previewsSelectedStep)) ?? false
    }
}

/// One step of a saved chain: its filter, its edited values (as `FilterSession.persistedValues`), whether it is
/// bypassed, the id a recipe gave it, and its image inputs wired to the chain's input (`input`) or an earlier
/// step's output (`step N`, from 1).
public struct SavedStep: Codable, Equatable, Sendable {
    public var filter: String
    public var values: [String: String]
    public var bypass: Bool
    public var id: String?
    public var links: [String: String]

    public init(filter: String, values: [String: String] = [:], bypass: Bool = false, id: String? = nil,
                links: [String: String] = [:]) {
        (self.filter, self.values, self.bypass, self.id, self.links) = (filter, values, bypass, id, links)
    }

    enum CodingKeys: String, CodingKey { case filter, values, bypass, id, links }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        filter = try container.decode(String.self, forKey: .filter)
        values = try container.decodeIfPresent([String: String].self, forKey: .values) ?? [:]
        bypass = try container.decodeIfPresent(Bool.self, forKey: .bypass) ?? false
        id = try container.decodeIfPresent(String.self, forKey: .id)
        links = try container.decodeIfPresent([String: String].self, forKey: .links) ?? [:]
    }

    /// `input` or `step N` as a link to the chain's input or to step N's output (N from 1); nil otherwise.
    public static func parseLink(_ text: String) -> (isInput: Bool, step: Int?)? {
        if text == "input" { return (true, nil) }
        let words = text.split(separator: " ")
        guard words.count == 2, words[0] == "step", let number = Int(words[1]), number >= 1 else { return nil }
        return (false, number)
    }
}

/// A value decoded if it can be, else nil (its part of the file is left out, not the whole file).
struct Lenient<Value: Decodable>: Decodable {
    let value: Value?
    init(from decoder: Decoder) throws { value = try? Value(from: decoder) }
}

/// The parts of a state file left out while decoding it.
final class LoadNotes: @unchecked Sendable {
    static let key = CodingUserInfoKey(rawValue: "cifiltertest.loadNotes")!
    private(set) var parts: [String] = []
    func add(_ part: String) { parts.append(part) }
}
