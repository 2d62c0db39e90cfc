import FilterEngine
import Foundation

/// Three threads joined by two bounded queues: the reader fills frames, the caller's thread renders each into
/// an RGBA buffer, the writer encodes and writes them. At most `capacity` frames wait in each queue, so memory
/// does not grow with the stream. With `dropWhenFull` the reader drops a frame the render queue has no room for.
public final class StreamPipeline: @unchecked Sendable {
    public struct Summary {
        public var framesIn = 0, framesOut = 0, dropped = 0
        public var seconds = 0.0
        public var error: Error?
    }

    let source: any Y4MFrameSource
    let writer: Y4MWriter
    let capacity: Int
    let dropWhenFull: Bool

    public init(source: any Y4MFrameSource, writer: Y4MWriter, capacity: Int, dropWhenFull: Bool) {
        self.source = source
        self.writer = writer
        self.capacity = capacity
        self.dropWhenFull = dropWhenFull
    }

    /// Runs the stream to its end (or its first error); `render` fills a width × height × 4 byte buffer.
    public func run(render: (Y4MFrame, UnsafeMutablePointer<UInt8>) throws -> Void) -> Summary {
        let frames = BoundedQueue<Y4MFrame>(capacity: capacity)
        let rendered = BoundedQueue<RenderedFrame>(capacity: capacity)
        let state = PipelineState()
        let start = DispatchTime.now().uptimeNanoseconds
        let outBytes = writer.format.width * writer.format.height * 4
        // Finished frames and output buffers go back to pools instead of being freed: fresh 8 MB buffers each
        // frame cost page faults (measured 12% of a 1080p stream).
        let spareFrames = BoundedQueue<Y4MFrame>(capacity: capacity + 2)
        let spareOutputs = BoundedQueue<RenderedFrame>(capacity: capacity + 2)
        let reader = Thread { [source, dropWhenFull] in
            do {
                while let frame = try source.next(reusing: spareFrames.take()) {
                    state.update { $0.framesIn += 1 }
                    if dropWhenFull {
                        if !frames.offer(frame) {
                            if frames.isClosed { break }
                            state.update { $0.dropped += 1 }
                            _ = spareFrames.offer(frame)
                        }
                    } else if !frames.push(frame) {
                        break
                    }
                }
            } catch {
                state.fail(error)
            }
            frames.close()
        }
        let finished = DispatchSemaphore(value: 0)
        let writerThread = Thread { [writer] in
            while let frame = rendered.pop() {
                do {
                    try writer.write(frame: frame.bytes)
                    state.update { $0.framesOut += 1 }
                    _ = spareOutputs.offer(frame)
                } catch {
                    state.fail(error)
                    rendered.close()
                    frames.close()
                }
            }
            finished.signal()
        }
        reader.start()
        writerThread.start()
        while let frame = frames.pop() {
            let output = spareOutputs.take() ?? RenderedFrame(count: outBytes)
            do {
                try render(frame, output.bytes)
                _ = spareFrames.offer(frame)
            } catch {
                state.fail(error)
                frames.close()
                break
            }
            if !rendered.push(output) { break }
        }
        rendered.close()
        finished.wait()
        // The reader may be blocked on a full queue after an error: closing the queue released it.
        frames.close()
        var summary = state.snapshot
        summary.seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return summary
    }
}

/// One rendered frame's RGBA bytes.
final class RenderedFrame: @unchecked Sendable {
    let bytes: UnsafeMutablePointer<UInt8>
    init(count: Int) { bytes = .allocate(capacity: max(1, count)) }
    deinit { bytes.deallocate() }
}

/// The counts and the first error, shared by the pipeline's threads.
final class PipelineState: @unchecked Sendable {
    private var summary = StreamPipeline.Summary()
    private let lock = NSLock()

    func update(_ change: (inout StreamPipeline.Summary) -> Void) {
        lock.lock(); defer { lock.unlock() }
        change(&summary)
    }

    func fail(_ error: Error) { update { if $0.error == nil { $0.error = error } } }

    var snapshot: StreamPipeline.Summary {
        lock.lock(); defer { lock.unlock() }
        return summary
    }
}
