import FilterEngine
import FilterPipeline
import Foundation

/// Which image an image input shows. Persisted by `persisted` (a short string) in the state file.
public enum ImageChoice: Equatable, Sendable {
    /// The image the explorer was opened on.
    case source
    /// A second sample, for targets and backgrounds.
    case second
    /// A generated mask: white in the middle fading to black at the edges.
    case mask
    /// The same mask in alpha: white in the middle fading to transparent at the edges.
    case alphaMask
    /// A generated lit ball (bright top left, dark bottom right), for shading images.
    case shading
    /// The source downscaled by `SampleLibrary.smallScale`, for small images upsampled to the source's size.
    case smallSource
    /// The source's area histogram (256 bins), what CIHistogramDisplayFilter draws.
    case histogram
    /// Another bundled sample, by file name.
    case sample(String)
    /// Any file.
    case file(String)
    /// A generated gradient (`StockImages.gradient(named:)`), for CIColorMap.
    case gradient(String)
    /// A generated palette (`StockImages.palette(named:)`), for CIPalettize and CIPaletteCentroid.
    case palette(String)

    public var persisted: String {
        switch self {
        case .source: "source"
        case .second: "second"
        case .mask: "mask"
        case .alphaMask: "alpha-mask"
        case .shading: "shading"
        case .smallSource: "small-source"
        case .histogram: "histogram"
        case .sample(let name): "sample:" + name
        case .file(let path): "file:" + path
        case .gradient(let name): "gradient:" + name
        case .palette(let name): "palette:" + name
        }
    }

    public init?(persisted text: String) {
        switch text {
        case "source": self = .source
        case "second": self = .second
        case "mask": self = .mask
        case "alpha-mask": self = .alphaMask
        case "shading": self = .shading
        case "small-source": self = .smallSource
        case "histogram": self = .histogram
        default:
            if text.hasPrefix("sample:") { self = .sample(String(text.dropFirst(7))) }
            else if text.hasPrefix("file:") { self = .file(String(text.dropFirst(5))) }
            else if text.hasPrefix("gradient:") { self = .gradient(String(text.dropFirst(9))) }
            else if text.hasPrefix("palette:") { self = .palette(String(text.dropFirst(8))) }
            else { return nil }
        }
    }
}

/// The explorer's images: the source, a second sample, a generated mask and the other bundled samples.
public final class SampleLibrary {
    /// The directory of bundled samples, if one was found.
    public let directory: String?
    public let sourcePath: String
    /// The image the filters get as their source: the opened file's, or a video's current frame
    /// (`replaceSource`).
    public private(set) var source: Image
    public let secondPath: String
    public let second: Image
    /// The same size as the source, so masked filters line up. Made when first used (a 24 MP mask takes a while).
    public var mask: Image {
        if let madeMask, madeMask.extent == source.extent { return madeMask }
        let made = Self.makeMask(for: source.extent)
        madeMask = made
        return made
    }
    private var madeMask: Image?
    /// While a large JPEG is still being decoded at full size in the background: its reduced decode and how many
    /// times smaller it is (`source` is then that decode scaled up to the full size).
    private var reducedSource: (image: Image, reduction: Int)?
    private var fullDecode: FullDecode?
    private var cache: [String: Image] = [:]
    /// What the source's file says that is not applied (an ICC profile other than sRGB), for the status line.
    public let warnings: [String]

    public static let defaultSource = "astronaut.png"
    static let secondCandidates = ["coffee.png", "chelsea.png", "astronaut.png"]

    /// Opens `imagePath` (or the bundled default sample) and the second sample. Errors name what is missing.
    public init(imagePath: String?,
                environment: [String: String] = ProcessInfo.processInfo.environment) throws {
        directory = Self.findSampleDirectory(environment: environment)
        if let imagePath {
            sourcePath = imagePath
        } else if let directory {
            sourcePath = (directory as NSString).appendingPathComponent(Self.defaultSource)
        } else {
            throw FilterExplorerError("""
                no image given and the bundled SampleImages directory was not found \
                (looked beside the executable, in the current directory and its parents, and in $CIFILTERTEST_SAMPLES); \
                pass an image: cifiltertest explore IMAGE
                """)
        }
        let loaded: ImageFile.Decoded
        if let quick = try Self.quickDecode(sourcePath) {
            // The explorer starts on the reduced decode; the full one replaces it when ready (`takeFullSource`).
            loaded = quick.decoded
            reducedSource = (quick.reduced, quick.reduction)
            fullDecode = quick.full
        } else {
            loaded = try ImageFile.load(sourcePath)
        }
        let name = (sourcePath as NSString).lastPathComponent
        warnings = loaded.properties.warnings.map { "\(name): \($0)" }
        guard !loaded.image.extent.isEmpty else { throw FilterExplorerError("\(sourcePath): the image is empty") }
        source = loaded.image
        // The second sample is a bundled one different from the source; without samples, the source again.
        let sourceName = (sourcePath as NSString).lastPathComponent
        if let directory,
           let name = Self.secondCandidates.first(where: {
               $0 != sourceName && FileManager.default.fileExists(atPath: (directory as NSString).appendingPathComponent($0))
           }) {
            secondPath = (directory as NSString).appendingPathComponent(name)
            second = try ImageFile.read(secondPath)
        } else {
            (secondPath, second) = (sourcePath, loaded.image)
        }
        cache[sourcePath] = loaded.image
        cache[secondPath] = second
    }

    // MARK: A large JPEG, reduced first

    /// JPEGs of at least this many pixels open from a reduced decode while the full one is made in the background.
    static let quickDecodePixels = 8_000_000
    /// The reduction of that first decode: a 24 MP photo's quarter is 1500×1000, more than a large terminal's
    /// preview needs (200×60 cells are 1600×960 pixels before the proxy factor).
    static let quickReduction = 4

    /// A full-size decode running on another thread.
    final class FullDecode: @unchecked Sendable {
        private let lock = NSLock()
        private var result: Result<ImageFile.Decoded, Error>?
        private let done = DispatchSemaphore(value: 0)

        init(data: Data) {
            let thread = Thread { [self] in
                let decoded = Result { try ImageFile.decode(data) }
                lock.lock()
                result = decoded
                lock.unlock()
                done.signal()
            }
            thread.name = "full decode"
            thread.start()
        }

        /// The result when it is there (without waiting).
        var finished: Result<ImageFile.Decoded, Error>? {
            lock.lock()
            defer { lock.unlock() }
            return result
        }

        func wait() -> Result<ImageFile.Decoded, Error> {
            done.wait()
            done.signal()
            return finished!
        }
    }

    /// A large JPEG decoded at `quickReduction` (its pixels scaled back to the full size, so every size and
    /// position is the photo's own), with its full decode started; nil for other files (read as usual).
    static func quickDecode(_ path: String) throws -> (decoded: ImageFile.Decoded, reduced: Image, reduction: Int, full: FullDecode)? {
        guard ImageFile.Format(path: path) == .jpeg else { return nil }
        let data = try RegularFile.read(path)
        guard ImageFile.Format(signature: data) == .jpeg else { return nil }
        var options = ImageFile.DecodeOptions()
        options.jpegReduction = quickReduction
        let quick: ImageFile.Decoded
        do { quick = try ImageFile.decode(data, options: options) } catch let error as ImageFileError {
            throw ImageFileError(path: path, message: error.message)
        }
        let (width, height) = (quick.properties.pixelWidth, quick.properties.pixelHeight)
        guard width * height >= quickDecodePixels else { return nil }
        let full = Rect(x: 0, y: 0, width: Double(width), height: Double(height))
        let factor = Double(quickReduction)
        // The reduced rows are whole blocks from the top of the file; the engine's y goes up: anchor the top.
        let reducedHeight = quick.image.extent.height * factor
        let upscaled = quick.image.transformed(by: AffineTransform.scale(x: factor, y: factor)
            .concatenating(.translation(x: 0, y: Double(height) - reducedHeight))).cropped(to: full)
        return (ImageFile.Decoded(image: upscaled, properties: quick.properties), quick.image, quickReduction, FullDecode(data: data))
    }

    /// Whether the source is still the reduced decode of a large JPEG.
    public var isSourceReduced: Bool { reducedSource != nil }

    /// Puts the full-size decode in place once it is ready; true when the source changed (render again).
    /// A failed full decode keeps the reduced one and says why in `fullDecodeError`.
    public func takeFullSource() -> Bool {
        guard let fullDecode, let result = fullDecode.finished else { return false }
        install(result)
        return true
    }

    /// Waits for the full-size decode (the benchmark, tests, exports of the source).
    public func waitForFullSource() {
        guard let fullDecode else { return }
        install(fullDecode.wait())
    }

    public private(set) var fullDecodeError: String?

    private func install(_ result: Result<ImageFile.Decoded, Error>) {
        fullDecode = nil
        reducedSource = nil
        switch result {
        case .success(let decoded):
            source = decoded.image
            cache[sourcePath] = decoded.image
            for key in cache.keys where key.hasPrefix(ImageChoice.source.persisted + "@") || key.hasPrefix(ImageChoice.smallSource.persisted)
                || key.hasPrefix(ImageChoice.histogram.persisted) {
                cache[key] = nil
            }
        case .failure(let error):
            fullDecodeError = "\(error)"
        }
    }

    public var sourceRect: Rect { source.extent }

    // MARK: A replaceable source (video)

    /// What the title and the image choosers call a source that is not the opened file (a video), if one is.
    public private(set) var sourceLabel: String?
    /// Whether proxies of the source are rendered once and kept (a photo) or left to each preview's render (a
    /// video's frames, each shown once, on the preview's thread rather than the interface's).
    public private(set) var rendersProxies = true

    /// Makes `image` the source (a video's frame; the same size each time), named `label`. What was made from
    /// the previous source (proxies, the small copy, its histogram) is made again from the new one.
    public func replaceSource(_ image: Image, label: String) {
        source = image
        sourceLabel = label
        rendersProxies = false
        for key in cache.keys where key.hasPrefix(ImageChoice.source.persisted + "@") || key.hasPrefix(ImageChoice.smallSource.persisted)
            || key.hasPrefix(ImageChoice.histogram.persisted) {
            cache[key] = nil
        }
        if madeMask?.extent != image.extent { madeMask = nil }
        if cache[ImageChoice.alphaMask.persisted]?.extent != image.extent { cache[ImageChoice.alphaMask.persisted] = nil }
    }
    public var sourceName: String {
        sourceLabel ?? (sourcePath as NSString).lastPathComponent
    }

    /// The bundled samples, by file name.
    public var sampleNames: [String] {
        guard let directory, let names = try? FileManager.default.contentsOfDirectory(atPath: directory) else { return [] }
        return names.filter { ImageFile.Format(path: $0) != nil }.sorted()
    }

    /// The pictures every image chooser offers.
    public var choices: [ImageChoice] {
        let used = Set([(sourcePath as NSString).lastPathComponent, (secondPath as NSString).lastPathComponent])
        return [.source, .second, .mask, .alphaMask, .shading] + sampleNames.filter { !used.contains($0) }.map(ImageChoice.sample)
    }

    /// What the image chooser of an input with this role cycles through: the images generated for the role
    /// first (the first is the stock image), then the pictures.
    public func choices(for role: ImageRole) -> [ImageChoice] {
        switch role {
        case .picture: choices
        case .gradient: StockImages.gradientNames.map(ImageChoice.gradient) + choices
        case .palette: StockImages.paletteNames.map(ImageChoice.palette) + choices
        case .small: [.smallSource] + choices
        case .histogram: [.histogram] + choices
        }
    }

    /// The image an input of this role starts with.
    public func stockChoice(for role: ImageRole, key: String, filter: String = "") -> ImageChoice {
        guard role == .picture else { return choices(for: role)[0] }
        return ExplorerHints.stockPicture(key: key, filter: filter)
    }

    public func label(_ choice: ImageChoice) -> String {
        switch choice {
        case .source: "source (\(sourceName))"
        case .second: "second (\((secondPath as NSString).lastPathComponent))"
        case .mask: "mask (radial)"
        case .alphaMask: "mask in alpha (radial)"
        case .shading: "shading (lit ball)"
        case .smallSource: "source ÷\(Self.smallScale) (\(sourceName))"
        case .histogram: "histogram of source"
        case .sample(let name): name
        case .file(let path): path
        case .gradient(let name): "gradient \(name)"
        case .palette(let name): "palette \(name)"
        }
    }

    /// The path a choice reads, for command lines (generated images have none: export writes them).
    public func path(_ choice: ImageChoice) -> String? {
        switch choice {
        // A labelled source (a video's frame) is no file: an export writes it.
        case .source: sourceLabel == nil ? sourcePath : nil
        case .second: secondPath
        case .mask, .alphaMask, .shading, .smallSource, .histogram, .gradient, .palette: nil
        case .sample(let name): directory.map { ($0 as NSString).appendingPathComponent(name) }
        case .file(let path): path
        }
    }

    public func image(_ choice: ImageChoice) throws -> Image {
        switch choice {
        case .source: return source
        case .second: return second
        case .mask: return mask
        case .alphaMask, .shading, .smallSource, .histogram:
            if let image = cache[choice.persisted] { return image }
            let image = switch choice {
            case .alphaMask: Self.makeMask(for: source.extent, inAlpha: true)
            case .shading: Self.makeShading()
            case .smallSource: source.transformed(by: .scale(x: 1 / Double(Self.smallScale), y: 1 / Double(Self.smallScale)))
            default: try Self.makeHistogram(of: source)
            }
            cache[choice.persisted] = image
            return image
        case .gradient(let name), .palette(let name):
            // Made once, so each render sees the same image (and the context's cache can reuse its work).
            if let image = cache[choice.persisted] { return image }
            let made = if case .gradient = choice { StockImages.gradient(named: name) } else { StockImages.palette(named: name) }
            guard let image = made else { throw FilterExplorerError("no generated \(choice.persisted.split(separator: ":")[0]) named \(name)") }
            cache[choice.persisted] = image
            return image
        case .sample, .file:
            guard let path = path(choice) else { throw FilterExplorerError("no sample directory for \(choice.persisted)") }
            if let image = cache[path] { return image }
            let image = try ImageFile.read(path)
            cache[path] = image
            return image
        }
    }

    /// `choice`'s image shrunk by a whole factor (the mean of each factor×factor block), made once and kept:
    /// what the previews of a large photo render from. A factor of 1 is the image itself.
    public func proxy(_ choice: ImageChoice, factor: Int, context: RenderContext) throws -> Image {
        let full = try image(choice)
        guard factor > 1, !full.extent.isInfinite, !full.extent.isEmpty else { return full }
        let key = "\(choice.persisted)@proxy\(factor)"
        if let cached = cache[key] { return cached }
        var small = full.downsampled(by: factor)
        if choice == .source, let (reduced, reduction) = reducedSource, factor >= reduction {
            // From the reduced decode, on the same grid as the full image's proxy.
            let scale = Double(reduction) / Double(factor)
            let top = small.extent.height - reduced.extent.height * scale
            small = reduced.transformed(by: AffineTransform.scale(x: scale, y: scale).concatenating(.translation(x: 0, y: top)))
                .cropped(to: small.extent)
        }
        // A video frame is shown once: its proxy is shrunk inside the preview's render, not here.
        if !rendersProxies, choice == .source { return small }
        let proxy = Image(buffer: try context.render(small, rect: small.extent))
        cache[key] = proxy
        return proxy
    }

    /// How small a proxy may be against the preview's pixels, on each axis. Rounding the factor down alone
    /// made a 6000×4000 photo's proxy 1500×1000 for 1224 columns of samples at 200×60 (÷4, 1.5 MP to render,
    /// against 0.96 MP at ÷5, whose 1200 columns lose nothing visible in the cells).
    public static let proxyCoverage = 0.9

    /// The whole factor by which previews shrink the images for a preview of `pixels` (width, height): the
    /// largest that keeps the source at least `proxyCoverage` of the preview's size, 1 when it is not larger.
    public func proxyFactor(forPreview pixels: (width: Int, height: Int)) -> Int {
        Self.proxyFactor(source: sourceRect, preview: pixels)
    }

    static func proxyFactor(source rect: Rect, preview pixels: (width: Int, height: Int)) -> Int {
        guard pixels.width > 0, pixels.height > 0, !rect.isInfinite else { return 1 }
        let ratio = min(rect.width / Double(pixels.width), rect.height / Double(pixels.height)) / proxyCoverage
        return ratio.isFinite ? max(1, min(64, Int(ratio))) : 1
    }

    /// A smooth radial mask: white (opaque) at the centre to black at the corners, in the working space. With
    /// `inAlpha`, the same weights in alpha instead (white fading to transparent), for alpha masks: the samples
    /// are all opaque.
    static func makeMask(for extent: Rect, inAlpha: Bool = false) -> Image {
        let rect = PixelRect(covering: extent)
        let buffer = PixelBuffer(rect: rect)
        let cx = Double(rect.x) + Double(rect.width) / 2, cy = Double(rect.y) + Double(rect.height) / 2
        let radius = Double(min(rect.width, rect.height)) / 2
        for y in rect.y..<rect.maxY {
            let row = buffer.row(y)
            for x in 0..<rect.width {
                let dx = (Double(rect.x + x) + 0.5 - cx) / radius, dy = (Double(y) + 0.5 - cy) / radius
                let d = min(1, max(0, (sqrt(dx * dx + dy * dy) - 0.3) / 0.7))
                let v = Float(1 - d * d * (3 - 2 * d))  // smoothstep falloff
                row[x] = Pixel(v, v, v, inAlpha ? v : 1)
            }
        }
        return Image(buffer: buffer)
    }

    /// How much smaller `.smallSource` is than the source.
    static let smallScale = 4

    /// A 256×256 picture of a matte white ball with a highlight, lit from the top left (y is up), on the ball's
    /// own rim colour outside it so look-ups near the edge stay smooth. What shading-image inputs expect.
    static func makeShading(size: Int = 256) -> Image {
        let buffer = PixelBuffer(rect: PixelRect(x: 0, y: 0, width: size, height: size))
        func normalized(_ v: SIMD3<Double>) -> SIMD3<Double> { v / (v * v).sum().squareRoot() }
        let light = normalized(SIMD3(-0.5, 0.5, 0.7))
        let halfway = normalized(light + SIMD3(0, 0, 1))  // between the light and the viewer: the highlight
        for y in 0..<size {
            let row = buffer.row(y)
            for x in 0..<size {
                var nx = (Double(x) + 0.5) / Double(size) * 2 - 1, ny = (Double(y) + 0.5) / Double(size) * 2 - 1
                let r2 = nx * nx + ny * ny
                if r2 > 1 { (nx, ny) = (nx / r2.squareRoot(), ny / r2.squareRoot()) }
                let normal = SIMD3(nx, ny, max(0, 1 - nx * nx - ny * ny).squareRoot())
                let diffuse = max(0, (normal * light).sum()), specular = pow(max(0, (normal * halfway).sum()), 30)
                let v = min(1, 0.04 + 0.8 * diffuse + 0.6 * specular)  // sRGB-encoded brightness
                row[x] = Color(red: v, green: v, blue: v).workingPixel
            }
        }
        return Image(buffer: buffer)
    }

    /// The source's 256-bin area histogram over its whole extent, as Core Image's sample feeds the display
    /// filter. Binned on sRGB-encoded values, as photo editors show histograms: on linear values the darker half
    /// of the picture falls into the first few bins and their spike flattens every other bar.
    static func makeHistogram(of source: Image) throws -> Image {
        let encoded = try Filter(named: ExplorerHints.linearToSRGBFilter)
        try encoded.setValue(.image(source), forKey: "inputImage")
        let histogram = try Filter(named: ExplorerHints.areaHistogramFilter)
        let e = source.extent
        try histogram.setValue(.image(try encoded.makeOutputImage()), forKey: "inputImage")
        try histogram.setValue(.vector([e.x, e.y, e.width, e.height]), forKey: "inputExtent")
        try histogram.setValue(.number(256), forKey: "inputCount")
        return try histogram.makeOutputImage()
    }

    /// Where the bundled SampleImages directory is: `$CIFILTERTEST_SAMPLES`, then an installation's
    /// `../share/cifiltertest/SampleImages` beside the executable (scripts/install), then the executable's directory
    /// and its parents (a build directory inside the repository), then the current directory and its parents.
    static func findSampleDirectory(environment: [String: String]) -> String? {
        if let explicit = environment["CIFILTERTEST_SAMPLES"], !explicit.isEmpty {
            return FileManager.default.fileExists(atPath: explicit) ? explicit : nil
        }
        var starts: [String] = []
        let executable = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().path
        let installed = URL(fileURLWithPath: executable).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("share/cifiltertest/SampleImages")
        if FileManager.default.fileExists(atPath: installed.appendingPathComponent(defaultSource).path) { return installed.path }
        starts.append((executable as NSString).deletingLastPathComponent)
        starts.append(FileManager.default.currentDirectoryPath)
        for start in starts {
            var directory = URL(fileURLWithPath: start).standardizedFileURL
            while true {
                let candidate = directory.appendingPathComponent("SampleImages")
                if FileManager.default.fileExists(atPath: candidate.appendingPathComponent(defaultSource).path) {
                    return candidate.path
                }
                let parent = directory.deletingLastPathComponent()
                if parent.path == directory.path { break }
                directory = parent
            }
        }
        return nil
    }
}
