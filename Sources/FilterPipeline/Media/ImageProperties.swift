import CImageIO
import FilterEngine
import Foundation

/// What an image file says about itself: size, depth, orientation, resolution and colour profile. The names
/// follow ImageIO's property keys (`dictionary`), so `CIImage.properties` can be built from it.
public struct ImageProperties: Sendable, Equatable {
    public enum ColorModel: String, Sendable { case rgb = "RGB", gray = "Gray", cmyk = "CMYK" }

    /// How the file's values were turned into light.
    public enum ColorEncoding: Sendable, Equatable {
        case sRGB
        case linear
        /// A PNG gAMA chunk's file gamma: light = value^(1/gamma).
        case gamma(Double)

        public func linear(_ v: Float) -> Float {
            switch self {
            case .sRGB: ColorMath.linear(fromSRGB: v)
            case .linear: v
            case .gamma(let g): Float(pow(Double(v), 1 / g))
            }
        }
    }

    public var format: ImageFile.Format
    public var pixelWidth: Int
    public var pixelHeight: Int
    /// Bits per sample in the file.
    public var bitDepth: Int
    public var colorModel: ColorModel
    public var hasAlpha: Bool
    /// EXIF orientation 1–8 (1 when the file has none): how the stored pixels must be turned to stand upright.
    public var orientation: Int
    public var dpiWidth: Double?
    public var dpiHeight: Double?
    /// An embedded ICC profile, its name (the profile's description, or the PNG iCCP chunk's name).
    public var iccProfile: Data?
    public var profileName: String?
    /// The PNG gAMA chunk's file gamma, if any; `srgbChunk`: an sRGB chunk was present.
    public var gamma: Double?
    public var srgbChunk: Bool
    public var colorEncoding: ColorEncoding
    /// Things read but not applied (an ICC profile other than sRGB), for the person to know.
    public var warnings: [String]

    init(format: ImageFile.Format, decoded: cimageio_image) {
        self.format = format
        // The file's own size, also when it was decoded reduced.
        pixelWidth = Int(decoded.stored_width > 0 ? decoded.stored_width : decoded.width)
        pixelHeight = Int(decoded.stored_height > 0 ? decoded.stored_height : decoded.height)
        bitDepth = Int(decoded.bit_depth)
        colorModel = switch decoded.color_model {
        case Int32(CIMAGEIO_GRAY): .gray
        case Int32(CIMAGEIO_CMYK): .cmyk
        default: .rgb
        }
        hasAlpha = decoded.has_alpha != 0
        srgbChunk = decoded.srgb_chunk != 0
        gamma = decoded.gamma > 0 ? decoded.gamma : nil
        dpiWidth = decoded.dpi_x > 0 ? decoded.dpi_x : nil
        dpiHeight = decoded.dpi_y > 0 ? decoded.dpi_y : nil
        iccProfile = decoded.icc.map { Data(bytes: $0, count: decoded.icc_length) }
        let chunkName = ImageFile.cString(decoded.icc_name)
        profileName = iccProfile.flatMap(ICCProfile.description) ?? (chunkName.isEmpty ? nil : chunkName)
        let exif = decoded.exif.map { Data(bytes: $0, count: decoded.exif_length) }
        let tags = exif.map(EXIF.init) ?? EXIF(Data())
        orientation = tags.orientation.flatMap { (1...8).contains($0) ? $0 : nil } ?? 1
        if dpiWidth == nil, let (x, y) = tags.resolutionDPI { (dpiWidth, dpiHeight) = (x, y) }
        warnings = []
        // Colour: see ImageFile. An sRGB chunk or profile wins over gAMA; gAMA near 1/2.2 is what sRGB files carry.
        if srgbChunk {
            colorEncoding = .sRGB
            if profileName == nil { profileName = "sRGB IEC61966-2.1" }
        } else if iccProfile != nil {
            colorEncoding = .sRGB
            let name = profileName ?? "unnamed"
            if !name.localizedCaseInsensitiveContains("srgb") {
                warnings.append("its ICC colour profile \"\(name)\" is not applied: the pixels are read as sRGB")
            }
        } else if case let problem = ImageFile.cString(decoded.icc_problem), !problem.isEmpty {
            colorEncoding = .sRGB
            warnings.append("its ICC colour profile is invalid and was ignored (\(problem)): the pixels are read as sRGB")
        } else if let gamma, gamma > 0 {
            if abs(gamma - 1) < 0.01 {
                colorEncoding = .linear
            } else if abs(gamma * 2.2 - 1) < 0.02 {
                colorEncoding = .sRGB
            } else {
                colorEncoding = .gamma(gamma)
            }
        } else {
            colorEncoding = .sRGB
        }
    }

    /// ImageIO's names: PixelWidth, PixelHeight, Depth, ColorModel, HasAlpha, Orientation, DPIWidth, DPIHeight,
    /// ProfileName, and the format's own dictionary ({PNG} or {JFIF}) and {TIFF} with the orientation.
    public var dictionary: [String: Any] {
        var result: [String: Any] = [
            "PixelWidth": pixelWidth, "PixelHeight": pixelHeight, "Depth": bitDepth,
            "ColorModel": colorModel.rawValue, "HasAlpha": hasAlpha, "Orientation": orientation,
            "{TIFF}": ["Orientation": orientation],
        ]
        if let dpiWidth, let dpiHeight {
            result["DPIWidth"] = dpiWidth
            result["DPIHeight"] = dpiHeight
        }
        if let profileName { result["ProfileName"] = profileName }
        switch format {
        case .png:
            var png: [String: Any] = [:]
            if let gamma { png["Gamma"] = gamma }
            if srgbChunk { png["sRGBIntent"] = 0 }
            result["{PNG}"] = png
        case .jpeg:
            result["{JFIF}"] = [String: Any]()
        }
        return result
    }
}

/// The few EXIF (TIFF IFD0) tags used here: orientation and resolution.
struct EXIF {
    var orientation: Int?
    var xResolution: Double?
    var yResolution: Double?
    var resolutionUnit: Int?

    init(_ data: Data) {
        let bytes = [UInt8](data)
        guard bytes.count >= 8 else { return }
        let little: Bool
        switch (bytes[0], bytes[1]) {
        case (0x49, 0x49): little = true
        case (0x4D, 0x4D): little = false
        default: return
        }
        func u16(_ o: Int) -> Int? {
            guard o >= 0, o + 2 <= bytes.count else { return nil }
            return little ? Int(bytes[o]) | Int(bytes[o + 1]) << 8 : Int(bytes[o]) << 8 | Int(bytes[o + 1])
        }
        func u32(_ o: Int) -> Int? {
            guard let a = u16(o), let b = u16(o + 2) else { return nil }
            return little ? a | b << 16 : a << 16 | b
        }
        guard u16(2) == 42, let ifd = u32(4), let count = u16(ifd) else { return }
        for i in 0..<min(count, 512) {
            let entry = ifd + 2 + i * 12
            guard let tag = u16(entry), let type = u16(entry + 2) else { return }
            func rational() -> Double? {
                guard type == 5, let offset = u32(entry + 8), let n = u32(offset), let d = u32(offset + 4), d != 0 else { return nil }
                return Double(n) / Double(d)
            }
            switch tag {
            case 0x0112: orientation = type == 3 ? u16(entry + 8) : nil
            case 0x011A: xResolution = rational()
            case 0x011B: yResolution = rational()
            case 0x0128: resolutionUnit = type == 3 ? u16(entry + 8) : nil
            default: break
            }
        }
    }

    /// The resolution in dots per inch, when the tags give one (unit 2 is inches, 3 centimetres).
    var resolutionDPI: (Double, Double)? {
        guard let x = xResolution, let y = yResolution, x > 0, y > 0 else { return nil }
        switch resolutionUnit ?? 2 {
        case 2: return (x, y)
        case 3: return (x * 2.54, y * 2.54)
        default: return nil
        }
    }
}

/// Reads an ICC profile's description (its `desc` tag: ICC v2 text or v4 multi-localised Unicode).
enum ICCProfile {
    static func description(_ data: Data) -> String? {
        let bytes = [UInt8](data)
        func u32(_ o: Int) -> Int? {
            guard o >= 0, o + 4 <= bytes.count else { return nil }
            return Int(bytes[o]) << 24 | Int(bytes[o + 1]) << 16 | Int(bytes[o + 2]) << 8 | Int(bytes[o + 3])
        }
        guard let count = u32(128) else { return nil }
        for i in 0..<min(count, 1024) {
            let entry = 132 + i * 12
            guard let signature = u32(entry), let offset = u32(entry + 4), let size = u32(entry + 8) else { return nil }
            guard signature == 0x6465_7363, offset + size <= bytes.count, size >= 12 else { continue }  // 'desc'
            let type = u32(offset)
            if type == 0x6465_7363, let length = u32(offset + 8), length > 0, offset + 12 + length <= bytes.count {
                let text = bytes[(offset + 12)..<(offset + 12 + length)].prefix { $0 != 0 }
                return String(decoding: text, as: UTF8.self)
            }
            if type == 0x6D6C_7563, let records = u32(offset + 8), records > 0,  // 'mluc'
               let length = u32(offset + 20), let start = u32(offset + 24), offset + start + length <= bytes.count {
                var units: [UInt16] = []
                var o = offset + start
                while o + 1 < offset + start + length {
                    units.append(UInt16(bytes[o]) << 8 | UInt16(bytes[o + 1]))
                    o += 2
                }
                return String(decoding: units, as: UTF16.self)
            }
        }
        return nil
    }
}
