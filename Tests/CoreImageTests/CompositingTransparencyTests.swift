import Foundation
import Testing
import CoreImage

/// The compositing filters where one input is transparent, against the Porter–Duff definitions on premultiplied
/// colours (S foreground, D background): a clear pixel of either image must give what the definition gives, not
/// a solid colour.
@Suite struct CompositingTransparencyTests {
    static let linear = CGColorSpace(name: CGColorSpace.linearSRGB)!
    /// Straight (0.8, 0.4, 0.2) at alpha 0.5: premultiplied (0.4, 0.2, 0.1, 0.5).
    let s = CIImage(color: CIColor(red: 0.8, green: 0.4, blue: 0.2, alpha: 0.5, colorSpace: linear)!)
        .cropped(to: CGRect(x: 0, y: 0, width: 2, height: 1))
    /// Opaque (0.2, 0.6, 1) on the right pixel only; the left pixel of the background is clear.
    let d = CIImage(color: CIColor(red: 0.2, green: 0.6, blue: 1, alpha: 1, colorSpace: linear)!)
        .cropped(to: CGRect(x: 1, y: 0, width: 1, height: 1))

    func composite(_ name: String) -> (clear: [Float], opaque: [Float]) {
        let out = s.applyingFilter(name, parameters: [kCIInputBackgroundImageKey: d])
        return (Pixels.linear(out, x: 0, y: 0), Pixels.linear(out, x: 1, y: 0))
    }

    func expectClose(_ got: [Float], _ want: [Float], _ what: String) {
        #expect(zip(got, want).allSatisfy { abs($0 - $1) < 1e-5 }, "\(what): \(got) instead of \(want)")
    }

    @Test func porterDuffOperatorsOverAClearBackground() {
        let S: [Float] = [0.4, 0.2, 0.1, 0.5]   // and D = (0.2, 0.6, 1, 1)
        let cases: [(String, clear: [Float], opaque: [Float])] = [
            // S + D(1 − Sa)
            ("CISourceOverCompositing", S, [0.4 + 0.2 * 0.5, 0.2 + 0.6 * 0.5, 0.1 + 1 * 0.5, 1]),
            // S·Da
            ("CISourceInCompositing", [0, 0, 0, 0], S),
            // S·(1 − Da)
            ("CISourceOutCompositing", S, [0, 0, 0, 0]),
            // S·Da + D·(1 − Sa)
            ("CISourceAtopCompositing", [0, 0, 0, 0], [0.4 + 0.1, 0.2 + 0.3, 0.1 + 0.5, 1]),
            // S·D, alpha included: clear where either is clear
            ("CIMultiplyCompositing", [0, 0, 0, 0], [0.08, 0.12, 0.1, 0.5]),
            ("CIAdditionCompositing", S, [0.6, 0.8, 1.1, 1]),   // alpha saturates at 1
            ("CIMinimumCompositing", [0, 0, 0, 0], [0.2, 0.2, 0.1, 0.5]),
            ("CIMaximumCompositing", S, [0.4, 0.6, 1, 1]),
        ]
        for (name, clear, opaque) in cases {
            let got = composite(name)
            expectClose(got.opaque, opaque, "\(name) over the opaque pixel")
            // The minimum and the product cover only where both images are; outside, nothing.
            expectClose(got.clear, clear, "\(name) over the clear pixel")
        }
    }

    @Test func productAndMinimumCoverTheIntersection() {
        for name in ["CIMultiplyCompositing", "CIMinimumCompositing"] {
            #expect(s.applyingFilter(name, parameters: [kCIInputBackgroundImageKey: d]).extent == CGRect(x: 1, y: 0, width: 1, height: 1), "\(name)")
            // An infinite colour times a finite mask covers the mask.
            let tint = CIImage(color: .red).applyingFilter(name, parameters: [kCIInputBackgroundImageKey: d])
            #expect(tint.extent == d.extent, "\(name)")
        }
        for name in ["CISourceOverCompositing", "CIAdditionCompositing", "CIMaximumCompositing"] {
            #expect(s.applyingFilter(name, parameters: [kCIInputBackgroundImageKey: d]).extent == CGRect(x: 0, y: 0, width: 2, height: 1), "\(name)")
        }
    }
}
