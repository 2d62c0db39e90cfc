import FilterEngine
import FilterPipeline
import Foundation

/// A Y4M video as the explorer's source image (`explore --video PATH`): a reader thread reads frames into a
/// small queue, and the interface takes the newest one each time the preview is ready for another. The
/// queue never makes anyone wait: when the preview is slower than the video, the oldest waiting frame is
/// dropped (and counted), so what is shown stays current.
///
/// A file plays at its frame rate (the header's `F` tag) and starts again at its end; pausing stops its clock.
/// A file can be sought (`seek`): the frame asked for is read next, paused or not, and playing goes on from it.
/// Standard input (`-`) is read as fast as it arrives (a live source must not fall behind: paused, its frames
/// are still read and dropped) and, at its end, the last frame stays.
public final class VideoSource: @unchecked Sendable {
    public struct Status: Sendable {
        /// Frames read from the stream, and frames dropped unseen (queue full, or several waiting at once).
        public var framesRead = 0
        public var dropped = 0
        /// Times a file started again from its beginning.
        public var loops = 0
        /// Standard input ended, or the stream was refused (`error`).
        public var ended = false
        public var error: String?
        /// The newest seek (`seek`'s number) whose frame is in the queue.
        public var seeksDone = 0
        /// The file's frame count, once an end of it was reached.
        public var frameCount: Int?
    }

    /// The path given, "-" for standard input.
    public let path: String
    public let format: Y4MFormat
    public let decoder: Y4MDecoder
    private var reader: Y4MReader
    private let maximumPixels: Int
    private let queue = BoundedQueue<Y4MFrame>(capacity: 2)
    private let condition = NSCondition()
    // Guarded by `condition`.
    private var paused = false
    private var stopping = false
    private var current = Status()
    private var seekRequest: (frame: Int, number: Int)?
    private var seeksAsked = 0

    /// Opens the stream and reads its header (so a file that is not Y4M is refused before the terminal is
    /// touched); frames are read once `start` is called.
    public init(path: String, maximumPixels: Int = ImageFile.DecodeOptions().maximumPixels) throws {
        self.path = path
        self.maximumPixels = maximumPixels
        reader = try Y4MReader(path: path, matrix: nil, fullRange: nil, maximumPixels: maximumPixels)
        format = reader.format
        decoder = Y4MDecoder(format: format)
    }

    public var isLive: Bool { path == "-" }

    /// "clip.y4m" or "standard input".
    public var name: String { isLive ? "standard input" : (path as NSString).lastPathComponent }

    /// The header's frame rate in frames per second (25 when it cannot be read).
    public var framesPerSecond: Double {
        let parts = format.frameRate.split(separator: ":").compactMap { Double($0) }
        guard parts.count == 2, parts[0] > 0, parts[1] > 0 else { return 25 }
        return parts[0] / parts[1]
    }

    /// "Y4M C420jpeg 25 fps" for the title.
    public var formatLabel: String {
        "Y4M C\(format.chroma.rawValue) BT.\(format.matrix.rawValue) \(String(format: "%.4g", framesPerSecond)) fps"
    }

    public var status: Status {
        condition.lock()
        defer { condition.unlock() }
        return current
    }

    public func start() {
        let thread = Thread { [self] in run() }
        thread.name = "video"
        thread.start()
    }

    /// Ends the reader thread (it may be blocked reading a pipe: it then ends with its next frame, or the process).
    public func stop() {
        condition.lock()
        stopping = true
        condition.broadcast()
        condition.unlock()
        queue.close()
    }

    /// Pauses or resumes: a file's clock stops (it goes on from the same frame); standard input is still read.
    public func setPaused(_ value: Bool) {
        condition.lock()
        paused = value
        condition.broadcast()
        condition.unlock()
    }

    /// Whether frames can be stepped and sought: a file can, standard input cannot.
    public var canSeek: Bool { !isLive }

    /// Asks for frame `index` (0 is the first; past the end, the last) to be read next, also while paused;
    /// returns the seek's number, which `Status.seeksDone` reaches once that frame is in the queue. Frames
    /// waiting from before are dropped (not counted: they were passed over, not lost).
    @discardableResult
    public func seek(toFrame index: Int) -> Int {
        condition.lock()
        // Emptied before the request is seen: the reader may deliver the sought frame at once.
        while queue.take() != nil {}
        seeksAsked += 1
        let number = seeksAsked
        seekRequest = (max(0, index), number)
        condition.broadcast()
        condition.unlock()
        return number
    }

    /// The newest frame waiting, if any; the older ones waiting with it are counted as dropped.
    public func takeNewest() -> Y4MFrame? {
        var newest: Y4MFrame?
        var skipped = 0
        while let frame = queue.take() {
            if newest != nil { skipped += 1 }
            newest = frame
        }
        if skipped > 0 { update { $0.dropped += skipped } }
        return newest
    }

    private func update(_ change: (inout Status) -> Void) {
        condition.lock()
        change(&current)
        condition.unlock()
    }

    /// The seek whose frame the reader thread reads next (the reader thread's own).
    private var pendingSeek: Int?

    /// Puts the reader before frame `target`: read on from where it is when that is ahead, else from the start;
    /// past the end, before the last frame. `readSoFar` is the number of frames read from the start.
    private func skip(to target: Int, readSoFar: inout Int) throws {
        if target < readSoFar {
            reader = try Y4MReader(path: path, matrix: nil, fullRange: nil, maximumPixels: maximumPixels)
            readSoFar = 0
        }
        let scratch = Y4MFrame(format: format)
        while readSoFar < target {
            guard try reader.next(reusing: scratch) != nil else {
                // The end: the last frame instead (the count is known now).
                let count = readSoFar
                update { $0.frameCount = count }
                reader = try Y4MReader(path: path, matrix: nil, fullRange: nil, maximumPixels: maximumPixels)
                readSoFar = 0
                try skip(to: max(0, count - 1), readSoFar: &readSoFar)
                return
            }
            readSoFar += 1
        }
    }

    private func run() {
        let interval = 1 / framesPerSecond
        var clock = DispatchTime.now().uptimeNanoseconds
        var sinceClock = 0
        var thisPass = 0
        while true {
            condition.lock()
            var waited = false
            while paused && !isLive && !stopping && seekRequest == nil {
                condition.wait()
                waited = true
            }
            let stop = stopping
            let seek = isLive ? nil : seekRequest
            seekRequest = nil
            condition.unlock()
            if stop { return }
            if let seek {
                do { try skip(to: seek.frame, readSoFar: &thisPass) } catch {
                    update {
                        $0.ended = true
                        $0.error = "\(error)"
                    }
                    return
                }
                // The frame asked for is next; the clock starts from it.
                pendingSeek = seek.number
                clock = DispatchTime.now().uptimeNanoseconds
                sinceClock = 0
            } else if waited {
                // Resumed: the clock starts again from the frame that was next.
                clock = DispatchTime.now().uptimeNanoseconds
                sinceClock = 0
            }
            do {
                guard let frame = try reader.next(reusing: nil) else {
                    if isLive || thisPass == 0 {
                        update {
                            $0.ended = true
                            if thisPass == 0 && !isLive { $0.error = "\(path): the stream has no frames" }
                        }
                        return
                    }
                    // A file loops: read again from its header.
                    let count = thisPass
                    update { $0.frameCount = count }
                    reader = try Y4MReader(path: path, matrix: nil, fullRange: nil, maximumPixels: maximumPixels)
                    thisPass = 0
                    update { $0.loops += 1 }
                    continue
                }
                thisPass += 1
                if !isLive {
                    // At the file's frame rate: each frame waits for its time on the clock.
                    let due = clock &+ UInt64(Double(sinceClock) * interval * 1e9)
                    sinceClock += 1
                    let now = DispatchTime.now().uptimeNanoseconds
                    if now < due {
                        condition.lock()
                        _ = condition.wait(until: Date(timeIntervalSinceNow: Double(due - now) / 1e9))
                        condition.unlock()
                    } else if now - due > 1_000_000_000 {
                        // A second behind (the machine was busy): keep the pace from here instead of rushing.
                        clock = now
                        sinceClock = 1
                    }
                }
                update { $0.framesRead += 1 }
                // The newest frame wins: the oldest waiting one makes room.
                while !queue.offer(frame) {
                    if queue.isClosed { return }
                    if queue.take() != nil { update { $0.dropped += 1 } }
                }
                if let number = pendingSeek {
                    pendingSeek = nil
                    update { $0.seeksDone = number }
                }
            } catch {
                update {
                    $0.ended = true
                    $0.error = "\(error)"
                }
                return
            }
        }
    }
}
