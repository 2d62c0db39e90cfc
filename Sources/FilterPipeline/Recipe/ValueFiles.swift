import FilterEngine
import Foundation

/// Reads the files that text values name (`ValueParser.file(named:for:)`): images, Adobe .cube tables and raw
/// float32 tables, each path once. A recipe is resolved through one `ValueFiles`, so a file named by several steps
/// is read once, and nothing is read again per frame.
public final class ValueFiles {
    public let decodeOptions: ImageFile.DecodeOptions
    private var images: [String: Image] = [:]
    private var cubes: [String: (dimension: Int, data: [UInt8])] = [:]
    private var bytes: [String: [UInt8]] = [:]

    public init(decodeOptions: ImageFile.DecodeOptions = .init()) {
        self.decodeOptions = decodeOptions
    }

    /// The value `text` gives `input`: a file's contents where it names one, else `ValueParser.parse`'s value.
    public func value(_ text: String, for input: InputDescriptor, filter: String) throws -> FilterValue {
        guard let file = ValueParser.file(named: text, for: input) else {
            return try ValueParser.parse(text, for: input, filter: filter)
        }
        do {
            switch file.kind {
            case .image:
                return .image(try image(file.path))
            case .cubeTable, .floatTable:
                // A message may end in ".cube": a message input naming no file is its own bytes; a table input
                // naming no file is a typo.
                guard FileManager.default.fileExists(atPath: file.path) else {
                    if input.key == "inputMessage" { return .data(Array(text.utf8)) }
                    throw FilterError("\(file.path): no such file")
                }
                return .data(file.kind == .cubeTable ? try cubeTable(file.path).data : try floatTable(file.path))
            }
        } catch let error as FilterError {
            throw FilterError("\(filter).\(input.key): \(error.message)")
        } catch {
            throw FilterError("\(filter).\(input.key): \(error)")
        }
    }

    /// The image at `path`, decoded once.
    public func image(_ path: String) throws -> Image {
        if let image = images[path] { return image }
        let image = try ImageFile.read(path, options: decodeOptions)
        images[path] = image
        return image
    }

    /// An Adobe .cube file's 3-D table as CIColorCube's RGBA float32 bytes, with its size, read once.
    public func cubeTable(_ path: String) throws -> (dimension: Int, data: [UInt8]) {
        if let cube = cubes[path] { return cube }
        let text = String(decoding: try RegularFile.read(path), as: UTF8.self)
        let cube: (dimension: Int, data: [UInt8])
        do { cube = try ColorCubeData.parseCubeFile(text) } catch { throw FilterError("\(path): \(error)") }
        cubes[path] = cube
        return cube
    }

    /// A `.f32` file's bytes (little-endian float32 values, as Core Image's data inputs hold them), read once.
    public func floatTable(_ path: String) throws -> [UInt8] {
        if let data = bytes[path] { return data }
        let data = Array(try RegularFile.read(path))
        bytes[path] = data
        return data
    }
}
