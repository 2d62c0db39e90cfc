/// The Apple renders we do not match yet (`ConformanceTests.expectedFailures`), one entry a distinct case: the PSNR
/// it must keep at least (0 where the size differs), and what differs, measured (`swift test --filter
/// ConformanceTests` prints every figure).
enum ExpectedConformanceFailures {
    static let all: [String: (floor: Double, reason: String)] = [
        "CIAccordionFoldTransition/F17F1CC7-A4E8-4492-B4C4-34F80B14A2FF": (0, """
            1500×1500 where Apple's is 1501×1029: not attempted yet: Apple squeezes the source into vertical \
            folds while cross-fading, over an extent between the two images' (1501×1029); ours shows the \
            target with a strip of the source over the union
            """),
        "CIColorThresholdOtsu/3A39331F-FBED-484C-9AF5-2FB078D806D6": (8, """
            9.1 dB: Apple's green channel is exactly green's own Otsu split on linear values (sRGB level \
            156/157; 628 of 562,000 pixels off), but red and blue are 0 everywhere although their own splits \
            (linear 0.198 and 0.309) would light the statue, and no single threshold explains all three; \
            keeping only green gives 35.5 dB but is no rule: a second render is needed
            """),
        "CIHighlightShadowAdjust/monotouch-ios7-highlight075-shadow15-flower": (14, """
            15.8 dB: rule not found. In iOS 7 the filter is pointwise (one input colour always gives one \
            output colour; no radius then), and the change is not a function of luminance alone (grouped by \
            the largest linear component it is roughly k·c + a); ours is a luminance curve
            """),
        "CILightTunnel/xamarin-docs-lighttunnel-flower": (10, """
            11.3 dB: rule not found. Inside radius 100 about (150, 150) Apple's output is exactly the input; \
            outside, the colour depends mainly on the distance (rings) with fine texture along each ring and \
            seams every 90°; models that sample the rim at an angle growing with the distance stay at 11.5 dB \
            or below; the case left inputRotation unset, and iOS 7's default may not be 0
            """),
        "CIModTransition/1801711A-C2EB-4EF7-96F2-AF9B2940A3F0": (7, """
            8.7 dB: rule not found. At compression 1 and angle 3 Apple's bands depend on y alone and repeat \
            every 157–158 px (about π × radius 50), each period target 36, source 80, target 26, source 17 px; \
            ours is a rotated mesh
            """),
        "CIModTransition/xamarin-docs-mod-t05": (9, """
            10.4 dB: rule not found (iOS 7): Apple shows the target through a grid of elliptical holes; ours \
            is a rotated checker of rectangles
            """),
        "CIPageCurlTransition/F2E76407-1669-4724-A32B-6931D6287CDF": (0, """
            1500×1500 where Apple's is 2617×1814: not attempted yet: at t 0.994 Apple's page is almost turned \
            and the curled page sticks out beyond the image (extent 2617×1814); ours still shows the source \
            over 1500×1500
            """),
        "CIPageCurlWithShadowTransition/213A5CB5-4483-4497-AE65-0801B24D8307": (0, """
            1500×1500 where Apple's is 2608×2265: not attempted yet: at t 0.83 Apple shows mostly the target \
            and a curled page with its shadow over 2608×2265; ours the source and a grey gradient block over \
            1500×1500
            """),
        "CIRippleTransition/D13AF947-60AB-4857-904B-D83FF2A37513": (9, """
            10.2 dB: not attempted yet: Apple draws a large refracting ring lit by the shading image, \
            transparent outside the wave; ours is the source with a white quarter disc
            """),
        "CITextImageGenerator/D70B80D6-88DF-4797-A924-D562176FB173": (0, """
            395×81 where Apple's is 403×94: font: the case asks for Helvetica Neue, wider than Helvetica and \
            with a taller line (about 1.165 em, 94 px here); Nimbus Sans (Helvetica's metrics, now preferred) \
            gives the width within 8 px (DejaVu was 447) but a lower line
            """),
        "CIVibrance/monotouch-ios7-vibrance-minus1-flower": (20, """
            21.0 dB: rule not found. Apple's render mixes each pixel towards the mean of its linear R, G, B \
            (not luma), with a weight that follows the sRGB HSV saturation (about 0.85 fully saturated, 0.64 \
            at 0.47) and falls to about 0.15 for skin hues (20°–35°); the exact curve is unknown
            """),
    ]
}
