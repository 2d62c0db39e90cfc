import Foundation
import Testing
@testable import FilterEngine

/// CITextImageGenerator and CIAttributedTextImageGenerator: extents from the fonts' own metrics, ink and
/// padding, font name fallback. URW's Nimbus faces are used when installed (`fonts-urw-base35`), DejaVu else;
/// the exact metric checks are DejaVu's (read from its head and hhea tables: 2048 units per em, ascender 1901,
/// descender −483, no line gap; DejaVu Sans Mono advances 1233 units per character) or Nimbus Mono PS's
/// (600 units per character of 1000), the others hold for either.
@Suite struct TextGeneratorTests {
    /// Whether the text generators draw with URW's faces here.
    static let urw = FontChoice.path(forFontName: "Helvetica").hasPrefix(FontChoice.urwDirectory)

    static func text(_ string: String, font: String = "HelveticaNeue", size: Double = 32, scale: Double = 1,
                     padding: Double = 0) throws -> Image {
        try TestImages.filter("CITextImageGenerator", [
            "inputText": .string(string), "inputFontName": .string(font), "inputFontSize": .number(size),
            "inputScaleFactor": .number(scale), "inputPadding": .number(padding),
        ])
    }

    /// FreeType's hinted line box: ascender rounded up plus descender rounded up, in pixels.
    static func lineBox(_ pixels: Double) -> Double { (1901 * pixels / 2048).rounded(.up) + (483 * pixels / 2048).rounded(.up) }

    @Test func singleLineHeightIsTheFontsAscentPlusDescent() throws {
        let image = try Self.text("Hello", size: 32)
        #expect(image.extent.x == 0 && image.extent.y == 0)
        if Self.urw {
            // Nimbus Sans's line box is about 1.0–1.1 em.
            #expect(image.extent.height >= 30 && image.extent.height <= 36)
        } else {
            #expect(image.extent.height == Self.lineBox(32))  // 30 + 8
        }
    }

    @Test func monospacedWidthIsTheAdvanceTimesTheLength() throws {
        // 1233/2048 em at 20 px is 12.04 px per character; hinting may round each advance to whole pixels.
        let image = try Self.text("abcdefghij", font: "Menlo", size: 20)
        let advance = Self.urw ? 600.0 / 1000 : 1233.0 / 2048
        #expect(abs(image.extent.width - 10 * advance * 20) <= 5)
    }

    @Test func extentGrowsWithTextLengthAndFontSize() throws {
        let short = try Self.text("Hi").extent, long = try Self.text("Hi there").extent
        #expect(long.width > short.width)
        #expect(long.height == short.height)
        let big = try Self.text("Hi", size: 64).extent
        #expect(big.width > 1.8 * short.width && big.height > 1.8 * short.height)
    }

    @Test func paddingAddsTransparentMarginsOnEverySide() throws {
        let plain = try Self.text("Hello").extent
        let padded = try Self.text("Hello", padding: 10)
        #expect(padded.extent == Rect(x: 0, y: 0, width: plain.width + 20, height: plain.height + 20))
        let buffer = try TestImages.render(padded)
        var marginAlpha: Float = 0, ink: Float = 0
        for y in 0..<buffer.rect.height {
            for x in 0..<buffer.rect.width {
                let inMargin = x < 10 || y < 10 || x >= buffer.rect.width - 10 || y >= buffer.rect.height - 10
                if inMargin { marginAlpha = max(marginAlpha, buffer.pixel(x: x, y: y).w) } else { ink += buffer.pixel(x: x, y: y).w }
            }
        }
        #expect(marginAlpha == 0)
        #expect(ink > 50)
    }

    @Test func inkIsBlackCoverageWhereTheGlyphIs() throws {
        // U+2588 FULL BLOCK fills its whole cell in DejaVu Sans Mono: opaque in the middle. Next to it, a space
        // leaves the rest of the line transparent.
        // (Nimbus Mono PS has no full block: checked with DejaVu only.)
        if !Self.urw {
            let buffer = try TestImages.render(try Self.text("\u{2588} ", font: "Courier", size: 40))
            let advance = Int(1233.0 * 40 / 2048)
            #expect(buffer.pixel(x: advance / 2, y: buffer.rect.height / 2) == Pixel(0, 0, 0, 1))
            #expect(buffer.pixel(x: advance + advance / 2 + 1, y: buffer.rect.height / 2) == Pixel(0, 0, 0, 0))
        }
        // Antialiased edges are partial coverage, premultiplied: colour stays 0, alpha between 0 and 1.
        let round = try TestImages.render(try Self.text("O", size: 40))
        var partial = 0
        for i in 0..<round.rect.area {
            let p = round.pixels[i]
            #expect(p.x == 0 && p.y == 0 && p.z == 0 && p.w >= 0 && p.w <= 1)
            if p.w > 0.1 && p.w < 0.9 { partial += 1 }
        }
        #expect(partial > 10)
    }

    @Test func emptyTextGivesPaddingOnly() throws {
        #expect(try Self.text("").extent.isEmpty)
        let padded = try Self.text("", padding: 5)
        #expect(padded.extent == Rect(x: 0, y: 0, width: 10, height: 10))
        let buffer = try TestImages.render(padded)
        #expect((0..<buffer.rect.area).allSatisfy { buffer.pixels[$0] == Pixel(0, 0, 0, 0) })
        // Unset text, and a zero font size, draw nothing either.
        #expect(try Filter(named: "CITextImageGenerator").makeOutputImage().extent.isEmpty)
        #expect(try Self.text("Hello", size: 0).extent.isEmpty)
    }

    @Test func scaleFactorMultipliesTheSize() throws {
        let one = try Self.text("Scale", size: 20).extent
        let two = try Self.text("Scale", size: 20, scale: 2).extent
        #expect(two == (try Self.text("Scale", size: 40).extent))
        #expect(abs(two.width - 2 * one.width) <= 3 && abs(two.height - 2 * one.height) <= 2)
    }

    @Test func multipleLinesStackByTheLineHeight() throws {
        let one = try Self.text("Hello").extent, three = try Self.text("Hello\nWorld\r\nagain").extent
        // FreeType's hinted line height: with DejaVu (1901 + 483) units at 32 px, rounded.
        let lineHeight = Self.urw ? (three.height - one.height) / 2 : (2384.0 * 32 / 2048).rounded()
        #expect(lineHeight >= 28 && lineHeight <= 45)
        #expect(three.height == one.height + 2 * lineHeight)
        #expect(try Self.text("Hello\n\n").extent.height == one.height + 2 * lineHeight)
    }

    @Test func fontNamesMapToDejaVuFaces() throws {
        let cases = [
            ("HelveticaNeue", "DejaVuSans.ttf"), ("Helvetica-Bold", "DejaVuSans-Bold.ttf"),
            ("Arial-BoldItalicMT", "DejaVuSans-BoldOblique.ttf"), (".SFUI-Regular", "DejaVuSans.ttf"),
            ("Times-Roman", "DejaVuSerif.ttf"), ("TimesNewRomanPS-ItalicMT", "DejaVuSerif-Italic.ttf"),
            ("Courier", "DejaVuSansMono.ttf"), ("Menlo-Bold", "DejaVuSansMono-Bold.ttf"), ("Monaco", "DejaVuSansMono.ttf"),
            ("NoSuchFont", "DejaVuSans.ttf"), ("", "DejaVuSans.ttf"),
        ]
        for (name, file) in cases { #expect(FontChoice.fileName(forFontName: name) == file, "\(name)") }
        // The URW faces follow the same family and style choice.
        for (name, file) in [("HelveticaNeue", "NimbusSans-Regular.otf"), ("Arial-BoldItalicMT", "NimbusSans-BoldItalic.otf"),
                             ("TimesNewRomanPS-ItalicMT", "NimbusRoman-Italic.otf"), ("Menlo-Bold", "NimbusMonoPS-Bold.otf"),
                             ("NoSuchFont", "NimbusSans-Regular.otf")] {
            #expect(FontChoice.urwFileName(forFontName: name) == file, "\(name)")
        }
        // An unknown name draws exactly what Helvetica draws.
        let unknown = try TestImages.render(try Self.text("Fallback", font: "Zapfino-Imaginary"))
        let helvetica = try TestImages.render(try Self.text("Fallback", font: "Helvetica"))
        #expect(unknown.rect == helvetica.rect && TestImages.maxDifference(unknown, helvetica) == 0)
        // Bold ink is heavier than regular.
        let bold = try TestImages.render(try Self.text("Fallback", font: "Helvetica-Bold"))
        func inkSum(_ b: PixelBuffer) -> Float { (0..<b.rect.area).reduce(0) { $0 + b.pixels[$1].w } }
        #expect(inkSum(bold) > 1.2 * inkSum(helvetica))
    }

    @Test func missingFontFileNamesTheFileAndPackage() {
        #expect {
            _ = try FontRenderer.shared.rasterize("x", fontPath: "/nonexistent/DejaVuSans.ttf", pixelSize: 12)
        } throws: { error in
            "\(error)".contains("/nonexistent/DejaVuSans.ttf") && "\(error)".contains("fonts-dejavu-core")
        }
    }

    @Test func hugeTextIsAClearErrorNotAnAllocation() {
        #expect { _ = try Self.text("Big", size: 100_000) } throws: { "\($0)".contains("larger than the limit") }
        #expect { _ = try Self.text(String(repeating: "wide ", count: 400), size: 200) } throws: {
            "\($0)".contains("larger than 16384")
        }
    }

    @Test func attributedTextUsesHelveticaTwelve() throws {
        let attributed = try TestImages.filter("CIAttributedTextImageGenerator",
                                               ["inputText": .string("Styled"), "inputPadding": .number(3)])
        let plain = try Self.text("Styled", font: "Helvetica", size: 12, padding: 3)
        #expect(attributed.extent == plain.extent)
        #expect(TestImages.maxDifference(try TestImages.render(attributed), try TestImages.render(plain)) == 0)
    }
}
