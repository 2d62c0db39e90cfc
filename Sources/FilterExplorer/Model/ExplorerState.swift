import FilterEngine
import Foundation

/// What the explorer remembers between runs: the last filter (as CIFilterTest did) and each filter's edited
/// values, as the text `ValueParser` reads.
public struct ExplorerState: Codable, Equatable, Sendable {
    public var version = 1
    public var lastFilter: String?
    /// Filter name → input key → value text.
    public var values: [String: [String: String]] = [:]

    public init(lastFilter: String? = nil, values: [String: [String: String]] = [:]) {
        self.lastFilter = lastFilter
        self.values = values
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
            let data = try RegularFile.read(url.path)
            return (try JSONDecoder().decode(ExplorerState.self, from: data), nil)
        } catch {
            return (ExplorerState(), "ignored the saved state \(url.path): it is not valid (\(Self.reason(error)))")
        }
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
