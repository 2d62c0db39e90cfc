import CFreeType
import Foundation

/// The face that stands in for an Apple font name: Apple's fonts are not on Linux. URW's Nimbus faces (Debian
/// `fonts-urw-base35`, Helvetica/Times/Courier metrics) when installed, else DejaVu (Debian `fonts-dejavu-core`),
/// in sans, serif and mono families with bold and slanted styles.
enum FontChoice {
    static let directory = "/usr/share/fonts/truetype/dejavu"
    static let package = "fonts-dejavu-core"

    /// The file name for a PostScript or family name ("HelveticaNeue-Bold", "Times-Italic", "Menlo"); names
    /// we do not know fall back to DejaVu Sans.
    static func fileName(forFontName name: String) -> String {
        let key = name.lowercased().filter { $0.isLetter || $0.isNumber }
        let bold = ["bold", "black", "heavy"].contains { key.contains($0) }
        let slanted = key.contains("italic") || key.contains("oblique")
        let family: String
        if ["courier", "menlo", "monaco", "mono", "consolas"].contains(where: { key.contains($0) }) {
            family = "DejaVuSansMono"
        } else if ["times", "georgia", "palatino", "baskerville", "newyork", "serif"].contains(where: { key.contains($0) }),
                  !key.contains("sans") {
            family = "DejaVuSerif"
        } else {
            family = "DejaVuSans"
        }
        let slant = family == "DejaVuSerif" ? "Italic" : "Oblique"
        let style = bold && slanted ? "-Bold\(slant)" : bold ? "-Bold" : slanted ? "-\(slant)" : ""
        return family + style + ".ttf"
    }

    /// URW's metric clones of Apple's PostScript faces (Debian `fonts-urw-base35`): Nimbus Sans has Helvetica's
    /// widths (Apple's default face), Nimbus Roman Times's, Nimbus Mono PS Courier's. Preferred when installed.
    static let urwDirectory = "/usr/share/fonts/opentype/urw-base35"
    static let urwPackage = "fonts-urw-base35"

    /// The URW file for a font name: the same family and style choice as `fileName`, in URW's faces.
    static func urwFileName(forFontName name: String) -> String {
        let dejavu = fileName(forFontName: name)
        let family = dejavu.hasPrefix("DejaVuSansMono") ? "NimbusMonoPS" : dejavu.hasPrefix("DejaVuSerif") ? "NimbusRoman" : "NimbusSans"
        let bold = dejavu.contains("-Bold"), slanted = dejavu.contains("Italic") || dejavu.contains("Oblique")
        let style = bold && slanted ? "BoldItalic" : bold ? "Bold" : slanted ? "Italic" : "Regular"
        return family + "-" + style + ".otf"
    }

    /// The URW face when it is installed, else the DejaVu one.
    static func path(forFontName name: String) -> String {
        let urw = urwDirectory + "/" + urwFileName(forFontName: name)
        if FileManager.default.fileExists(atPath: urw) { return urw }
        return directory + "/" + fileName(forFontName: name)
    }
}

/// Antialiased glyph coverage of laid-out text, rows top to bottom, values 0...1 (linear alpha).
struct TextCoverage {
    var width = 0, height = 0
    var values: [Float] = []
}

/// Lays text out and rasterises it with FreeType. FreeType faces are not thread-safe, so every use of the
/// library and the cached faces happens under one lock; callers rasterise once, when a filter builds its image.
final class FontRenderer: @unchecked Sendable {
    static let shared = FontRenderer()

    /// Larger text is refused rather than allocated: a square this size is already a 4 GB float image.
    static let maximumSide = 16_384

    private let lock = NSLock()
    private var library: FT_Library?
    private var faces: [String: FT_Face] = [:]

    /// Lines split at newlines, left-aligned, stacked by the face's line height; the box is the typographic one
    /// (advance widths × ascent to descent), grown to any ink that overhangs it, with its top-left at (0, 0).
    func rasterize(_ text: String, fontPath: String, pixelSize: Double) throws -> TextCoverage {
        guard !text.isEmpty, pixelSize > 0 else { return TextCoverage() }
        // Checked before any glyph is rasterised: one glyph of a huge size would already be gigabytes.
        guard pixelSize <= Double(Self.maximumSide) / 2 else {
            throw FilterError("a font of \(pixelSize) pixels is larger than the limit of \(Self.maximumSide / 2)")
        }
        lock.lock()
        defer { lock.unlock() }
        let face = try loadFace(fontPath)
        guard FT_Set_Char_Size(face, 0, FT_F26Dot6((pixelSize * 64).rounded()), 72, 72) == 0 else {
            throw FilterError("FreeType cannot size \(fontPath) at \(pixelSize) pixels")
        }
        let metrics = face.pointee.size.pointee.metrics
        let ascender = Int(metrics.ascender), descender = Int(metrics.descender), lineHeight = Int(metrics.height)

        // Place every glyph (26.6 fixed point for pens, whole pixels for bitmaps), then size the box around them.
        struct Placed { var x, y, width, height: Int; var coverage: [UInt8] }
        var glyphs: [Placed] = []
        let lines = text.replacingOccurrences(of: "\t", with: "    ")
            .split(omittingEmptySubsequences: false, whereSeparator: \.isNewline)
        let kerns = face.pointee.face_flags & FT_Long(FT_FACE_FLAG_KERNING) != 0
        var right = 0, inkLeft = 0, inkTop = 0, inkRight = 0, inkBottom = 0
        for (index, line) in lines.enumerated() {
            let baseline = (ascender + index * lineHeight + 32) >> 6
            var pen = 0
            var previous: FT_UInt = 0
            for scalar in line.unicodeScalars {
                let glyphIndex = FT_Get_Char_Index(face, FT_ULong(scalar.value))
                // Pair kerning from the font's kern table, as Core Text kerns by default.
                if kerns, previous != 0 {
                    var delta = FT_Vector()
                    if FT_Get_Kerning(face, previous, glyphIndex, FT_KERNING_DEFAULT.rawValue, &delta) == 0 { pen += Int(delta.x) }
                }
                previous = glyphIndex
                guard FT_Load_Glyph(face, glyphIndex, cfreetype_load_render_normal()) == 0 else { continue }
                let slot = face.pointee.glyph.pointee
                let bitmap = slot.bitmap
                let width = Int(bitmap.width), height = Int(bitmap.rows)
                if width > 0, height > 0, let source = bitmap.buffer {
                    let x = ((pen + 32) >> 6) + Int(slot.bitmap_left), y = baseline - Int(slot.bitmap_top)
                    var coverage = [UInt8](repeating: 0, count: width * height)
                    for row in 0..<height {
                        let start = source + row * Int(bitmap.pitch)
                        for column in 0..<width { coverage[row * width + column] = start[column] }
                    }
                    glyphs.append(Placed(x: x, y: y, width: width, height: height, coverage: coverage))
                    inkLeft = min(inkLeft, x); inkTop = min(inkTop, y)
                    inkRight = max(inkRight, x + width); inkBottom = max(inkBottom, y + height)
                }
                pen += Int(slot.advance.x)
            }
            right = max(right, (pen + 63) >> 6)
        }
        let bottom = (ascender - descender + (lines.count - 1) * lineHeight + 63) >> 6
        let left = min(0, inkLeft), top = min(0, inkTop)
        var result = TextCoverage(width: max(right, inkRight) - left, height: max(bottom, inkBottom) - top)
        guard result.width <= Self.maximumSide, result.height <= Self.maximumSide else {
            throw FilterError("text of \(result.width)×\(result.height) pixels is larger than \(Self.maximumSide) on a side")
        }
        guard result.width > 0, result.height > 0 else { return TextCoverage() }

        // Overlapping glyphs combine as independent coverage (a + b − ab), so touching ink never exceeds 1.
        result.values = [Float](repeating: 0, count: result.width * result.height)
        for glyph in glyphs {
            for row in 0..<glyph.height {
                let target = (glyph.y - top + row) * result.width + (glyph.x - left)
                for column in 0..<glyph.width {
                    let a = result.values[target + column], b = Float(glyph.coverage[row * glyph.width + column]) / 255
                    result.values[target + column] = a + b - a * b
                }
            }
        }
        return result
    }

    /// The cached face for a font file, loaded on first use. Call with the lock held.
    private func loadFace(_ path: String) throws -> FT_Face {
        if let face = faces[path] { return face }
        guard FileManager.default.fileExists(atPath: path) else {
            throw FilterError("the font file \(path) is missing: install the Debian package \(FontChoice.package)")
        }
        if library == nil {
            var created: FT_Library?
            guard FT_Init_FreeType(&created) == 0, let created else { throw FilterError("FreeType failed to start") }
            library = created
        }
        var loaded: FT_Face?
        guard FT_New_Face(library, path, 0, &loaded) == 0, let loaded else {
            throw FilterError("FreeType cannot read the font file \(path)")
        }
        faces[path] = loaded
        return loaded
    }
}
