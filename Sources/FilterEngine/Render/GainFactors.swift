import Foundation

/// The factors a colour chain is scaled by on its way to the output (`ColorTables.gain`: the image above the
/// chain with the chain made white), rendered once by the float path and kept by the render context for later
/// /// renders of equal images: a video's frames under a vignette and film grain, a benchmark's repeats. Worked out
/// again on every render they would cost what the float path saves (measured: the vintage chain 3.0–3.4 → 3.4–4.0
/// ms a frame, one thread), so a gain path is taken only where its factors can be kept.
final class GainFactors: @unchecked Sendable {
    /// Planes over the area, row by row from its lowest y: one where every factor is grey, else red's, green's
    /// and blue's. Every factor's alpha is 1 and its colour finite and at least 0.
    let planes: [Float]
    let grey: Bool
    let area: PixelRect
    /// The largest factor: the matrix's rounding grows with it, in levels (`ColorTables.largestGain`).
    let largest: Float
    private let lock = NSLock()
    /// The pixels a chain's tables cannot take, by the chain's key (nil: too many).
    private var exceptions: [ColorTables.Made.Key: Exceptions?] = [:]

    /// Pixels whose factors are over what a chain's matrix stays within a level of the float path for: the render
    /// does them by the float path's steps. Row r of the area (from its lowest y) has `xs[rows[r] ..< rows[r + 1]]`
    /// (offsets from the area's x).
    struct Exceptions {
        let rows: [Int]
        let xs: [Int32]
    }

    private init(planes: [Float], grey: Bool, area: PixelRect, largest: Float) {
        self.planes = planes
        self.grey = grey
        self.area = area
        self.largest = largest
    }

    /// The pixels `tables` cannot take times these factors (the film grain's few over 2: a pixel of CIRandomGenerator
    /// whose alpha is far under its colour), found once a chain; nil where they are over a tenth of the area (the
    /// float path then renders it all).
    func exceptions(for tables: ColorTables) -> Exceptions? {
        guard let gain = tables.gain else { return nil }
        let key = ColorTables.Made.Key(gain.kernels, gained: true)
        lock.lock()
        if let known = exceptions[key] {
            lock.unlock()
            return known
        }
        lock.unlock()
        let limit = tables.largestGain(upTo: largest)
        var rows = [0], xs: [Int32] = []
        let n = area.area
        planes.withUnsafeBufferPointer { p in
            for r in 0..<area.height {
                for i in 0..<area.width {
                    let at = r * area.width + i
                    if p[at] > limit || (!grey && (p[n + at] > limit || p[2 * n + at] > limit)) { xs.append(Int32(i)) }
                }
                rows.append(xs.count)
            }
        }
        let result = xs.count * 10 <= n ? Exceptions(rows: rows, xs: xs) : nil
        lock.lock()
        exceptions[key] = result
        lock.unlock()
        return result
    }

    /// The factors of `image` over `area`: kept ones, or rendered by `render` and kept; nil where some factor is
    /// not opaque, negative or not finite, or they would take over `limit` bytes.
    static func of(_ image: Image, area: PixelRect, kept: Kept,
                   render: (Image, PixelRect) throws -> PixelBuffer) -> GainFactors? {
        guard let key = Key(image) else { return nil }
        return kept.factors(for: key, area: area) {
            guard area.area * 3 * MemoryLayout<Float>.size <= limit, let pixels = try? render(image, area) else { return nil }
            return GainFactors(pixels, area: area)
        }
    }

    /// 1080p's three planes (25 MB) fit; a 24-megapixel photo's grey plane (96 MB) does not.
    static let limit = 32 << 20

    private convenience init?(_ pixels: PixelBuffer, area: PixelRect) {
        let n = area.area
        var grey = true, largest: Float = 0
        for y in area.y..<area.maxY {
            let row = pixels.row(y)
            for i in 0..<area.width {
                let p = row[i]
                guard p.w == 1, p.x >= 0, p.y >= 0, p.z >= 0, p.x.isFinite, p.y.isFinite, p.z.isFinite else { return nil }
                grey = grey && p.x == p.y && p.y == p.z
                largest = max(largest, p.x, p.y, p.z)
            }
        }
        var planes = [Float](repeating: 0, count: grey ? n : 3 * n)
        for y in area.y..<area.maxY {
            let row = pixels.row(y), start = (y - area.y) * area.width
            for i in 0..<area.width {
                let p = row[i]
                planes[start + i] = p.x
                if !grey { planes[n + start + i] = p.y; planes[2 * n + start + i] = p.z }
            }
        }
        self.init(planes: planes, grey: grey, area: area, largest: largest)
    }

    /// Row `y`'s factors for `count` pixels from `x0` (inside the area): red's, green's and blue's planes.
    func withRow<R>(_ y: Int, x0: Int, _ body: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> R) -> R {
        let n = area.area, start = (y - area.y) * area.width + (x0 - area.x)
        return planes.withUnsafeBufferPointer { p in
            let r = p.baseAddress! + start
            return grey ? body(r, r, r) : body(r, r + n, r + 2 * n)
        }
    }

    /// What fixes an image's pixels, where every node of it can say: kernels of any dependence but `.general` by
    /// name and parameters (which then hold every value their bodies use), repeating textures and sources by
    /// identity (kept alive with the key, so that no other object takes their address), constants, crops and
    /// translations by value, and every node's extent. Nil for anything else (a general kernel's closure).
    struct Key: Hashable {
        let text: String
        let objects: [ObjectIdentifier]
        /// Holds the identified objects; not part of equality.
        let kept: [AnyObject]

        static func == (a: Key, b: Key) -> Bool { a.text == b.text && a.objects == b.objects }
        func hash(into hasher: inout Hasher) { hasher.combine(text); hasher.combine(objects) }

        init?(_ image: Image) {
            var text = "", objects: [ObjectIdentifier] = [], kept: [AnyObject] = []
            var stack = [image]
            while let node = stack.popLast() {
                // A shared node is spelt out again each time it is reached: bounded, for graphs that share much.
                guard text.utf8.count < 4096 else { return nil }
                text += "[\(node.extent)"
                switch node.kind {
                case .constant(let p):
                    text += " constant \([p.x, p.y, p.z, p.w].map(\.bitPattern))"
                case .source(let source):
                    text += " source"
                    objects.append(ObjectIdentifier(source))
                    kept.append(source)
                case .color(let kernel, let inputs):
                    if let texture = kernel.texture, inputs.isEmpty {
                        text += " texture \(kernel.name)"
                        objects.append(ObjectIdentifier(texture))
                        kept.append(texture)
                    } else {
                        guard kernel.dependence != .general else { return nil }
                        text += " \(kernel.name) \(kernel.parameters.map(\.bitPattern)) \(inputs.count)"
                    }
                case .crop(_, let rect):
                    text += " crop \(rect)"
                case .translate(_, let dx, let dy):
                    text += " translate \(dx) \(dy)"
                default:
                    return nil
                }
                text += "]"
                stack += node.inputs.reversed()
            }
            self.text = text
            self.objects = objects
            self.kept = kept
        }
    }

    /// The last few, by key and area. Factors are made the second time they are asked for: a render of a still or
    /// a slider's step (whose factors change with each value) keeps the float path, which costs less than making
    /// them (1080p: a few milliseconds); a video's second frame makes them for the rest.
    final class Kept: @unchecked Sendable {
        private enum State {
            case seen
            case made(GainFactors)
            /// Not opaque, not finite or too large: not tried again on every frame.
            case refused
        }

        private let lock = NSLock()
        private var entries: [(key: Key, area: PixelRect, state: State)] = []
        /// How many factors were made or refused (tests).
        private(set) var made = 0
        /// Two sets of factors (for a look and its variant) and the looks seen once since.
        static let capacity = 4

        func factors(for key: Key, area: PixelRect, make: () -> GainFactors?) -> GainFactors? {
            lock.lock()
            let index = entries.lastIndex { $0.key == key && $0.area == area }
            switch index.map({ entries[$0].state }) {
            case .made(let factors):
                lock.unlock()
                return factors
            case .refused:
                lock.unlock()
                return nil
            case nil:
                entries.append((key, area, .seen))
                trim()
                lock.unlock()
                return nil
            case .seen:
                lock.unlock()
            }
            let factors = make()
            lock.lock()
            defer { lock.unlock() }
            made += 1
            entries.removeAll { $0.key == key && $0.area == area }
            entries.append((key, area, factors.map { .made($0) } ?? .refused))
            trim()
            return factors
        }

        /// The oldest entries past the capacity go, and of those made, all but the last two.
        private func trim() {
            while entries.count > Self.capacity { entries.removeFirst() }
            while entries.filter({ if case .made = $0.state { true } else { false } }).count > 2,
                  let oldest = entries.firstIndex(where: { if case .made = $0.state { true } else { false } }) {
                entries.remove(at: oldest)
            }
        }
    }
}
