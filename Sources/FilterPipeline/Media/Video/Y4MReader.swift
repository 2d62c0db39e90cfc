import FilterEngine
import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Where frames come from: a Y4M stream, or synthetic frames for the benchmark.
public protocol Y4MFrameSource: AnyObject, Sendable {
    var format: Y4MFormat { get }
    /// The next frame, or nil at the end of the stream; `reusing` is a finished frame whose memory may be filled.
    func next(reusing: Y4MFrame?) throws -> Y4MFrame?
}

/// A first-in first-out queue of at most `capacity` items between threads. `push` waits for room, `offer`
/// does not; `pop` waits for an item and returns nil once the queue is closed and empty. Closing wakes everyone.
public final class BoundedQueue<Element>: @unchecked Sendable {
    private var items: [Element] = []
    private var head = 0
    private let capacity: Int
    private var closed = false
    private let condition = NSCondition()

    public init(capacity: Int) { self.capacity = capacity }

    private var count: Int { items.count - head }

    /// Waits for room; false if the queue was closed (the item is not added).
    public func push(_ item: Element) -> Bool {
        condition.lock(); defer { condition.unlock() }
        while count >= capacity && !closed { condition.wait() }
        guard !closed else { return false }
        append(item)
        return true
    }

    /// Adds the item only if there is room now.
    public func offer(_ item: Element) -> Bool {
        condition.lock(); defer { condition.unlock() }
        guard !closed, count < capacity else { return false }
        append(item)
        return true
    }

    private func append(_ item: Element) {
        items.append(item)
        condition.broadcast()
    }

    /// An item if there is one now.
    public func take() -> Element? {
        condition.lock(); defer { condition.unlock() }
        guard count > 0 else { return nil }
        return removeFirst()
    }

    private func removeFirst() -> Element {
        let item = items[head]
        head += 1
        if head > 64 { items.removeFirst(head); head = 0 }
        condition.broadcast()
        return item
    }

    public func pop() -> Element? {
        condition.lock(); defer { condition.unlock() }
        while count == 0 && !closed { condition.wait() }
        guard count > 0 else { return nil }
        return removeFirst()
    }

    public func close() {
        condition.lock(); defer { condition.unlock() }
        closed = true
        condition.broadcast()
    }

    public var isClosed: Bool {
        condition.lock(); defer { condition.unlock() }
        return closed
    }
}

/// Frames from a Y4M stream on a file descriptor, through a 1 MiB buffer.
public final class Y4MReader: Y4MFrameSource, @unchecked Sendable {
    public private(set) var format: Y4MFormat
    private let descriptor: Int32
    private let name: String
    private var buffer = [UInt8](repeating: 0, count: 1 << 20)
    private var start = 0, end = 0
    private var index = 0

    public init(path: String, matrix: Y4MFormat.Matrix?, fullRange: Bool?, maximumPixels: Int) throws {
        if path == "-" {
            descriptor = STDIN_FILENO
            name = "standard input"
        } else {
            let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
            guard fd >= 0 else { throw FilterError("\(path): cannot be opened (\(String(cString: strerror(errno))))") }
            var info = stat()
            guard fstat(fd, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
                close(fd)
                throw FilterError("\(path): not a regular file (give a pipe on standard input instead)")
            }
            _ = fcntl(fd, F_SETFL, 0)
            descriptor = fd
            name = path
        }
        format = Y4MFormat(width: 1, height: 1)
        guard let header = try readLine(limit: 4096) else { throw FilterError("\(name): empty input: no Y4M header") }
        do {
            format = try Y4MFormat(header: header, matrix: matrix, fullRange: fullRange, maximumPixels: maximumPixels)
        } catch let error as FilterError {
            throw FilterError("\(name): \(error.message)")
        }
    }

    deinit { if descriptor != STDIN_FILENO { close(descriptor) } }

    /// Refills the buffer; false at the end of the input.
    private func fill() throws -> Bool {
        if start > 0 {
            buffer.withUnsafeMutableBufferPointer { b in
                _ = memmove(b.baseAddress!, b.baseAddress! + start, end - start)
            }
            end -= start
            start = 0
        }
        let count = buffer.count
        while true {
            let n = buffer.withUnsafeMutableBufferPointer { Glibc.read(descriptor, $0.baseAddress! + end, count - end) }
            if n < 0 && errno == EINTR { continue }
            if n < 0 { throw FilterError("\(name): cannot be read (\(String(cString: strerror(errno))))") }
            end += n
            return n > 0
        }
    }

    /// A line without its newline; nil at the end of the input before any byte. Lines longer than `limit` are
    /// an error (a file that is not Y4M).
    private func readLine(limit: Int) throws -> String? {
        var scanned = 0
        while true {
            if let newline = buffer[(start + scanned)..<end].firstIndex(of: 10) {
                let line = String(decoding: buffer[start..<newline], as: UTF8.self)
                start = newline + 1
                return line
            }
            scanned = end - start
            guard scanned <= limit else {
                throw FilterError("\(name): not a usable Y4M stream: no end of line in the first \(limit) bytes of \(index == 0 ? "the header" : "frame \(index + 1)")")
            }
            if try !fill() {
                guard end == start else {
                    throw FilterError("\(name): frame \(index + 1) is truncated (its FRAME line has no end)")
                }
                return nil
            }
        }
    }

    public func next(reusing: Y4MFrame?) throws -> Y4MFrame? {
        guard let line = try readLine(limit: 1024) else { return nil }
        guard line == "FRAME" || line.hasPrefix("FRAME ") else {
            throw FilterError("\(name): frame \(index + 1) does not start with FRAME (found \"\(line.prefix(20))\")")
        }
        let frame = reusing ?? Y4MFrame(format: format)
        frame.index = index
        let total = format.frameBytes
        var done = 0
        while done < total {
            if start == end, try !fill() {
                throw FilterError("\(name): frame \(index + 1) is truncated: \(done) of its \(total) bytes")
            }
            let n = min(total - done, end - start)
            buffer.withUnsafeBufferPointer { b in (frame.bytes + done).update(from: b.baseAddress! + start, count: n) }
            start += n
            done += n
        }
        index += 1
        return frame
    }
}
