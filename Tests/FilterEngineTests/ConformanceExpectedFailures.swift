/// The Apple renders we do not match yet (`ConformanceTests.expectedFailures`), one entry a distinct case: the PSNR
/// it must keep at least (0 where the size differs), and what differs, measured (`swift test --filter
/// ConformanceTests` prints every figure).
enum ExpectedConformanceFailures {
    static let all: [String: (floor: Double, reason: String)] = [
        "CIColorThresholdOtsu/3A39331F-FBED-484C-9AF5-2FB078D806D6": (8, """
            9.1 dB: Apple's green channel is exactly green's own Otsu split on linear values (sRGB level \
            156/157; 628 of 562,000 pixels off), but red and blue are 0 everywhere although their own splits \
            (linear 0.198 and 0.309) would light the statue, and no single threshold explains all three; \
            keeping only green gives 35.5 dB but is no rule: a second render is needed
            """),
        "CITextImageGenerator/D70B80D6-88DF-4797-A924-D562176FB173": (0, """
            395×81 where Apple's is 403×94: font: the case asks for Helvetica Neue, wider than Helvetica and \
            with a taller line (about 1.165 em, 94 px here); Nimbus Sans (Helvetica's metrics, now preferred) \
            gives the width within 8 px (DejaVu was 447) but a lower line
            """),
    ]
}
