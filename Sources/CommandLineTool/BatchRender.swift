import ArgumentParser
import FilterEngine
import FilterPipeline
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// `render` over many files: the same chain applied to each input, written into one directory.
///
/// Files run in parallel, one per worker with a single-threaded render each: measured on the 2-core machine (100
/// photos of 1600×1200), two files at once ran 1.2–1.5× faster than one file at a time split into bands over both
/// cores, because decoding and encoding (libjpeg, libpng) are single-threaded (numbers in docs/performance.md).
struct BatchRender {
    struct Job {
        let input: String
        let output: String
        let format: ImageFile.Format
    }

    let command: RenderCommand
    let chain: RenderChain
    let jobs: [Job]
    /// Inputs that could not become jobs (a pattern matching nothing, two inputs with one output name).
    let refused: [String]
    let workers: Int
    let shard: Shard?

    /// nil when the command renders one file (one -i without a pattern, and an output that is not a directory).
    init?(command: RenderCommand, format: ImageFile.Format?) throws {
        let patterns = command.input
        // A directory: "out/", or an existing directory whose name is not an image file's ("folder.png" stays
        // a single render, refused as before).
        let namesImage = ImageFile.Format(path: command.output) != nil
        let isDirectory = command.output.hasSuffix("/") || (!namesImage && Self.isDirectory(command.output))
        let shard = try command.shard.map { try Shard(parsing: $0, environment: ProcessInfo.processInfo.environment) }
        guard patterns.count > 1 || patterns.contains(where: Self.isPattern) || (isDirectory && !patterns.isEmpty) else {
            if shard != nil { throw ValidationError("--shard splits a batch: give several inputs or a pattern, and -o a directory") }
            return nil
        }
        if !isDirectory, namesImage {
            throw ValidationError("-o \(command.output) names an image file; several inputs are written into a directory (-o out/)")
        }
        guard !command.sixteenBit || format != .jpeg else { throw ValidationError("--16bit writes PNG files") }
        var refused: [String] = []
        var inputs: [String] = []
        for pattern in patterns {
            if Self.isPattern(pattern) {
                let matches = Self.expand(pattern)
                if matches.isEmpty { refused.append("\(pattern): no file matches this pattern") }
                inputs += matches
            } else {
                inputs.append(pattern)
            }
        }
        // A shard takes its part of the whole sorted list, so that every shard agrees on it whatever the order of
        // the -i options; the name checks below still see every input.
        var seenInputs: Set<String> = [], seenOutputs: [String: String] = [:], jobs: [Job] = []
        let unique = inputs.filter { seenInputs.insert($0).inserted }
        let mine = Set(unique.sorted().enumerated().filter { shard?.contains($0.offset) ?? true }.map(\.element))
        for input in unique {
            let name = ((input as NSString).lastPathComponent as NSString).deletingPathExtension
            let fileExtension: String
            let outputFormat = format ?? ImageFile.Format(path: input) ?? .png
            switch outputFormat {
            case .jpeg: fileExtension = ((input as NSString).pathExtension.lowercased() == "jpeg" && format == nil) ? "jpeg" : "jpg"
            case .png: fileExtension = "png"
            }
            let output = (command.output as NSString).appendingPathComponent(name + "." + fileExtension)
            if let other = seenOutputs[output] {
                refused.append("\(input): its output \(output) is already the output of \(other)")
                continue
            }
            seenOutputs[output] = input
            if mine.contains(input) { jobs.append(Job(input: input, output: output, format: outputFormat)) }
        }
        if let jobs = command.jobs, jobs < 1 { throw ValidationError("--jobs needs a positive number") }
        self.command = command
        chain = try command.makeChain()
        self.jobs = jobs
        self.refused = refused
        self.shard = shard
        workers = max(1, min(command.jobs ?? ProcessInfo.processInfo.activeProcessorCount, jobs.count))
    }

    static func isPattern(_ text: String) -> Bool { text.contains { "*?[".contains($0) } }

    static func isDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
    }

    /// The shell's expansion, done here for quoted patterns: sorted paths of the matches (directories left out).
    static func expand(_ pattern: String) -> [String] {
        var matches = glob_t()
        defer { globfree(&matches) }
        guard glob(pattern, 0, nil, &matches) == 0 else { return [] }
        return (0..<Int(matches.gl_pathc)).compactMap { matches.gl_pathv[$0].map { String(cString: $0) } }
            .filter { !isDirectory($0) }.sorted()
    }

    func run() throws {
        do {
            try FileManager.default.createDirectory(atPath: command.output, withIntermediateDirectories: true)
        } catch {
            throw CommandError(message: "\(command.output): cannot create the output directory (\(error.localizedDescription))")
        }
        let progress = BatchProgress(total: jobs.count + refused.count)
        for message in refused { progress.failed(message) }
        // One file per worker, each render on one thread; with a single worker the render takes every core.
        let options = command.renderOptions(threads: workers > 1 ? 1 : nil)
        let next = Counter()
        let start = Date()
        DispatchQueue.concurrentPerform(iterations: workers) { _ in
            let context = RenderContext(options: options)
            while let index = next.take(below: jobs.count) {
                let job = jobs[index]
                do {
                    if !command.overwrite, FileManager.default.fileExists(atPath: job.output) {
                        progress.skipped()
                        continue
                    }
                    let source = try ImageFile.load(job.input, options: command.budget.decodeOptions).image
                    let image = try chain.makeImage(input: source)
                    let rect = try chain.outputRect(image: image, input: source)
                    let data = try ImageFile.encode(image, format: job.format, rect: rect, sixteenBit: command.sixteenBit,
                                                    quality: command.quality, context: context)
                    // Without --overwrite the file is created exclusively: another run writing the same batch
                    // at the same moment cannot make this one replace its file (both would count it).
                    try RegularFile.writeAtomically(data, to: job.output, replacing: command.overwrite)
                    progress.done(job.output)
                } catch is RegularFile.Exists {
                    progress.skipped()
                } catch {
                    progress.failed(String(describing: error).hasPrefix(job.input) ? "\(error)" : "\(job.input): \(error)")
                }
            }
        }
        let seconds = Date().timeIntervalSince(start)
        let (done, failed, skipped) = progress.finish()
        let rate = seconds > 0 ? String(format: "%.1f", Double(done) / seconds) : "-"
        // One line a scheduler's log can be read by: what this run (or shard) did, failed and left alone.
        var summary = "rendered \(done) of \(done + failed + skipped) files into \(command.output)"
        if let shard { summary += " (shard \(shard))" }
        summary += String(format: " in %.1f s (%@ files/s, %d worker%@)", seconds, rate, workers, workers == 1 ? "" : "s")
        if skipped > 0 { summary += "; \(skipped) skipped: their outputs exist (--overwrite replaces them)" }
        // With failures the summary is the error that ends the command (exit status 1).
        guard failed == 0 else { throw CommandError(message: summary + "; \(failed) failed") }
        Diagnostics.printError(summary)
    }
}

/// The next job index, shared by the workers.
final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0

    func take(below limit: Int) -> Int? {
        lock.lock()
        defer { lock.unlock() }
        guard value < limit else { return nil }
        value += 1
        return value - 1
    }
}

/// Progress on stderr: on a terminal one line redrawn in place (a bar, the count, the last file); otherwise a
/// plain line per file. Errors always get their own line.
final class BatchProgress: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int
    private let isTerminal = isatty(STDERR_FILENO) != 0
    private var done = 0, failed = 0, skippedCount = 0
    private var lineShown = false

    init(total: Int) { self.total = total }

    func done(_ output: String) {
        lock.lock()
        defer { lock.unlock() }
        done += 1
        show(output)
    }

    func failed(_ message: String) {
        lock.lock()
        defer { lock.unlock() }
        failed += 1
        clearLine()
        Diagnostics.printError("cifiltertest: error: " + message)
        if isTerminal { show(nil) }
    }

    /// An output that exists already, left as it is (a batch run again resumes).
    func skipped() {
        lock.lock()
        defer { lock.unlock() }
        skippedCount += 1
        if isTerminal { show(nil) }
    }

    /// Ends the progress line; returns the files written, failed and skipped.
    func finish() -> (done: Int, failed: Int, skipped: Int) {
        lock.lock()
        defer { lock.unlock() }
        clearLine()
        return (done, failed, skippedCount)
    }

    private func show(_ output: String?) {
        let count = "\(done + failed + skippedCount)/\(total)"
        guard isTerminal else {
            if let output { Diagnostics.printError("\(count) \(output)") }
            return
        }
        let width = 30, filled = total > 0 ? (done + failed + skippedCount) * width / total : width
        var line = "[" + String(repeating: "#", count: filled) + String(repeating: ".", count: width - filled) + "] " + count
        if failed > 0 { line += " (\(failed) failed)" }
        if let output { line += " " + DisplayText.escaped(output, limit: 40) }
        FileHandle.standardError.write(Data(("\r\u{1B}[K" + line).utf8))
        lineShown = true
    }

    private func clearLine() {
        guard lineShown else { return }
        FileHandle.standardError.write(Data("\r\u{1B}[K".utf8))
        lineShown = false
    }
}
