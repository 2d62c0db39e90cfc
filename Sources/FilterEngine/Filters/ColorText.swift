import Foundation

/// The colours a person may type, in the explorer, on the command line and in recipes: `r g b [a]` in 0…1,
/// `#rrggbb[aa]` (`ValueParser.color`), hex without `#`, CSS colour names, and `hsv(h,s,v)` / `hsl(h,s,l)` (hue
/// in degrees, the others in 0…1 or as percentages, an optional fourth alpha). All are sRGB, as Core Image's colours.
public enum ColorText {
    /// The forms, for hints and refusals.
    public static let forms = "#ff0000, ff0000, #ff000080, red, hsv(0,1,1), hsl(0,100%,50%), 1 0 0 [a]"

    /// CSS's 16 basic colour names and a few common extended ones, as #rrggbb.
    public static let names: [String: String] = [
        "black": "000000", "silver": "c0c0c0", "gray": "808080", "grey": "808080", "white": "ffffff",
        "maroon": "800000", "red": "ff0000", "purple": "800080", "fuchsia": "ff00ff", "magenta": "ff00ff",
        "green": "008000", "lime": "00ff00", "olive": "808000", "yellow": "ffff00", "navy": "000080",
        "blue": "0000ff", "teal": "008080", "aqua": "00ffff", "cyan": "00ffff",
        "orange": "ffa500", "pink": "ffc0cb", "brown": "a52a2a", "gold": "ffd700", "indigo": "4b0082",
        "violet": "ee82ee", "beige": "f5f5dc", "coral": "ff7f50", "salmon": "fa8072", "khaki": "f0e68c",
        "turquoise": "40e0d0", "skyblue": "87ceeb", "darkgray": "a9a9a9", "darkgrey": "a9a9a9",
        "lightgray": "d3d3d3", "lightgrey": "d3d3d3", "transparent": "00000000",
    ]

    /// The colour `text` names, or nil when it is none of the forms.
    public static func parse(_ text: String) -> Color? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        let lowered = trimmed.lowercased()
        if let hex = names[lowered] { return ValueParser.color("#" + hex) }
        if lowered.hasPrefix("hsv(") || lowered.hasPrefix("hsl("), lowered.hasSuffix(")") {
            return cylindrical(String(lowered.dropFirst(4).dropLast()), lightness: lowered.hasPrefix("hsl"))
        }
        // Bare hex: six or eight hex digits (three numbers would be read as r g b by ValueParser).
        if trimmed.count == 6 || trimmed.count == 8, trimmed.allSatisfy(\.isHexDigit) {
            return ValueParser.color("#" + trimmed)
        }
        return ValueParser.color(trimmed)
    }

    /// hsv or hsl's numbers: hue in degrees (a `°` or `deg` is allowed), then two fractions (or `%`), then an
    /// optional alpha.
    private static func cylindrical(_ body: String, lightness: Bool) -> Color? {
        let parts = body.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init)
        guard parts.count == 3 || parts.count == 4 else { return nil }
        var hueText = parts[0]
        for unit in ["°", "deg"] where hueText.hasSuffix(unit) { hueText = String(hueText.dropLast(unit.count)) }
        guard let hue = Double(hueText), hue.isFinite else { return nil }
        var fractions: [Double] = []
        for part in parts.dropFirst() {
            let percent = part.hasSuffix("%")
            guard let n = Double(percent ? String(part.dropLast()) : part), n.isFinite else { return nil }
            let fraction = percent ? n / 100 : n
            guard (0...1).contains(fraction) else { return nil }
            fractions.append(fraction)
        }
        let (s, third) = (fractions[0], fractions[1])
        let alpha = fractions.count == 3 ? fractions[2] : 1
        // Both are a chroma and a base added to all three channels, around the hue's position on the wheel.
        let chroma = lightness ? (1 - abs(2 * third - 1)) * s : third * s
        let base = lightness ? third - chroma / 2 : third - chroma
        let h = (hue.truncatingRemainder(dividingBy: 360) + 360).truncatingRemainder(dividingBy: 360) / 60
        let x = chroma * (1 - abs(h.truncatingRemainder(dividingBy: 2) - 1))
        let (r, g, b): (Double, Double, Double) = switch Int(h) {
        case 0: (chroma, x, 0)
        case 1: (x, chroma, 0)
        case 2: (0, chroma, x)
        case 3: (0, x, chroma)
        case 4: (x, 0, chroma)
        default: (chroma, 0, x)
        }
        func tidy(_ v: Double) -> Double { (v * 1e9).rounded() / 1e9 }
        return Color(red: tidy(r + base), green: tidy(g + base), blue: tidy(b + base), alpha: alpha)
    }
}
