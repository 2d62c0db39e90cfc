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
        "CIHighlightShadowAdjust/monotouch-ios7-highlight075-shadow15-flower": (14, """
            15.8 dB: rule not found. In iOS 7 the filter is pointwise (one input colour always gives one \
            output colour; no radius then), and the change is not a function of luminance alone (grouped by \
            the largest linear component it is roughly k·c + a); ours is a luminance curve
            """),
        "CILenticularHaloGenerator/8ECE7CD8-D4CF-424C-BEC3-DD6F284C74CA": (16, """
            17.2 dB: the ring's position, width, profile, colour and extent match, but its striations come \
            from Apple's own noise texture, which is not published
            """),
        "CILightTunnel/xamarin-docs-lighttunnel-flower": (10, """
            11.3 dB: rule not found. Inside radius 100 about (150, 150) Apple's output is exactly the input; \
            outside, the colour depends mainly on the distance (rings) with fine texture along each ring and \
            seams every 90°; models that sample the rim at an angle growing with the distance stay at 11.5 dB \
            or below; the case left inputRotation unset, and iOS 7's default may not be 0
            """),
        "CIMotionBlur/8F900408-0EA0-4CD1-AABB-85968941395A": (0, """
            700×489 where Apple's is 900×515: rule measured, not built yet: Apple weighs the line by a \
            Gaussian of σ ≈ radius (45 dB inside the image against 28.8 for our mean along the segment), grows \
            the extent 120 px in x and 16 in y (no rule from r·|cos|, r·|sin| gives both), and leaves a haze \
            of alpha 8–40/255 outside the picture
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
        "CIRandomGenerator/247A0C37-05ED-4AB9-9BD4-90D9A55979E6": (7, """
            8.9 dB: both Apple renders are one fixed 256×256 texture of independent uniform linear r, g, b, a \
            (not ours to ship); ours has the same period and statistics, other values, so noise is compared \
            with noise
            """),
        "CIRandomGenerator/xamarin-docs-random": (7, """
            8.9 dB: both Apple renders are one fixed 256×256 texture of independent uniform linear r, g, b, a \
            (not ours to ship); ours has the same period and statistics, other values, so noise is compared \
            with noise
            """),
        "CIRippleTransition/D13AF947-60AB-4857-904B-D83FF2A37513": (9, """
            10.2 dB: not attempted yet: Apple draws a large refracting ring lit by the shading image, \
            transparent outside the wave; ours is the source with a white quarter disc
            """),
        "CISunbeamsGenerator/FA92378A-EEBF-41E5-9FD0-1C5CC95447A7": (20, """
            21.4 dB: size and structure right (glow (R/d)²·(1 − d/Rmax), white rays, white core, 500×500 \
            square of radius sunRadius·maxStriationRadius); the rays come from Apple's unpublished noise: the \
            same model with the noise read off Apple's render gives 40 dB
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
        "CIZoomBlur/610AA2D1-ECFB-45E8-BB3F-EAB5B69CFE3E": (0, """
            660×483 where Apple's is 1211×886: rule measured, not yet built safely: Apple samples p ↦ c + (p − \
            c)·σ for σ from 1 − amount/66 to 1 (the end at 0.542–0.546 for amount 30) and its extent is every \
            point whose streak reaches the input (the input scaled by 1/(1 − k) about the centre: exactly \
            1211×886, 37.0 dB with a uniform mean); built on a branch, but amounts past 66 (inside the \
            slider's range) then make the extent and the passes' intermediates unbounded, so it waits for a \
            bounded form; ours keeps the input's extent and amount/100
            """),
    ]
}
