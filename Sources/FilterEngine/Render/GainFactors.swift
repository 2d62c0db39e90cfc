import Foundation

/// The factors a colour chain is scaled by on its way to the output (`ColorTables.gain`: the image above the
/// chain with the chain made white), rendered once by the float path and kept by the render context for later
/// renders of equal images: a video's frames under a vignette and film grain, a benchmark's repeats. Worked out
/// again on every render they would cost what the float path saves (measured: the vintage chain 3.0–3.4 → 3.4–4.0
/// ms a frame, one thread), so a gain path is taken only where its factors can be kept.
final class GainFactors: @unchecked Sendable {
    /// Red's, green's and blue's planes over the area, row by row from its lowest y (where every factor is grey,
    /// red's stands for all). Every factor's alpha is 1 and its colour finite and at least 0.
    private let planes: UnsafeMutablePointer<Float>
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

    private init(planes: UnsafeMutablePointer<Float>, grey: Bool, area: PixelRect, largest: Float) {
        self.planes = planes
        self.grey = grey
        self.area = area
        self.largest = largest
    }

    deinit { planes.deallocate() }

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
        let p = planes
        for r in 0..<area.height {
            for i in 0..<area.width {
                let at = r * area.width + i
                if p[at] > limit || (!grey && (p[n + at] > limit || p[2 * n + at] > limit)) { xs.append(Int32(i)) }
            }
            rows.append(xs.count)
        }
        let result = xs.count * 10 <= n ? Exceptions(rows: rows, xs: xs) : nil
        lock.lock()
        exceptions[key] = result
        lock.unlock()
        return result
    }

    /// The factors of `image` over `area`: kept ones, or rendered span by span by `spans` and kept; nil where some
    /// factor is not opaque, negative or not finite, or they would take over `limit` bytes.
    static func of(_ image: Image, key: Key, area: PixelRect, kept: Kept,
                   spans: (Image, PixelRect, @escaping Spans) throws -> Void) -> GainFactors? {
        kept.factors(for: key, area: area) {
            guard area.area * 3 * MemoryLayout<Float>.size <= limit else { return nil }
            return make(image, area: area, spans: spans)
        }
    }

    /// Where a render hands over its spans: `count` pixels of row `y` from `x`.
    typealias Spans = @Sendable (_ x: Int, _ y: Int, _ count: Int, _ span: PlanarRow) -> Void

    /// 1080p's three planes (25 MB) fit; a 24-megapixel photo's (288 MB) do not.
    static let limit = 32 << 20

    /// The factors copied from the render's spans into planes as they come (1080p: 19 ms through a whole buffer
    /// of pixels, read again a pixel at a time, against a few here), each row's largest bit pattern kept: for
    /// colours at least +0 it orders as the value, and it is under infinity's only where finite.
    private static func make(_ image: Image, area: PixelRect, spans: (Image, PixelRect, @escaping Spans) throws -> Void) -> GainFactors? {
        let n = area.area
        nonisolated(unsafe) let planes = UnsafeMutablePointer<Float>.allocate(capacity: 3 * n)
        nonisolated(unsafe) let tops = UnsafeMutablePointer<UInt32>.allocate(capacity: area.height)
        tops.initialize(repeating: 0, count: area.height)
        defer { tops.deallocate() }
        let invalid = UInt32.max, one = Float(1).bitPattern
        do {
            try spans(image, area) { x, y, count, span in
                let start = (y - area.y) * area.width + (x - area.x)
                (planes + start).update(from: span.r, count: count)
                (planes + n + start).update(from: span.g, count: count)
                (planes + 2 * n + start).update(from: span.b, count: count)
                var top: UInt32 = 0, notOne: UInt32 = 0
                for i in 0..<count {
                    top = max(top, span.r[i].bitPattern, span.g[i].bitPattern, span.b[i].bitPattern)
                    notOne |= span.a[i].bitPattern ^ one
                }
                let row = y - area.y
                tops[row] = max(tops[row], notOne == 0 ? top : invalid)
            }
        } catch {
            planes.deallocate()
            return nil
        }
        let top = UnsafeBufferPointer(start: tops, count: area.height).max() ?? 0
        guard top < Float.infinity.bitPattern else {
            planes.deallocate()
            return nil
        }
        let bytes = n * MemoryLayout<Float>.size
        let grey = memcmp(planes, planes + n, bytes) == 0 && memcmp(planes, planes + 2 * n, bytes) == 0
        return GainFactors(planes: planes, grey: grey, area: area, largest: Float(bitPattern: top))
    }

    /// Row `y`'s factors for `count` pixels from `x0` (inside the area): red's, green's and blue's planes.
    func withRow<R>(_ y: Int, x0: Int, _ body: (UnsafePointer<Float>, UnsafePointer<Float>, UnsafePointer<Float>) -> R) -> R {
        let n = area.area, r = UnsafePointer(planes + (y - area.y) * area.width + (x0 - area.x))
        return grey ? body(r, r, r) : body(r, r + n, r + 2 * n)
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

    /// The last two, by key and area.
    final class Kept: @unchecked Sendable {
        private let lock = NSLock()
        /// Factors that could not be kept (not opaque or finite, too large) are remembered as nil, so as not to be
        /// tried on every frame.
        private var entries: [(key: Key, area: PixelRect, factors: GainFactors?)] = []
        /// How many factors were made or refused (tests).
        private(set) var made = 0

        func factors(for key: Key, area: PixelRect, make: () -> GainFactors?) -> GainFactors? {
            lock.lock()
            if let entry = entries.last(where: { $0.key == key && $0.area == area }) {
                lock.unlock()
                return entry.factors
            }
            lock.unlock()
            let factors = make()
            lock.lock()
            defer { lock.unlock() }
            made += 1
            entries.append((key, area, factors))
            if entries.count > 2 { entries.removeFirst() }
            return factors
        }
    }
}
