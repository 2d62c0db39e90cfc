import FilterEngine
import Foundation
import Testing
@testable import FilterExplorer

/// Values compared exactly (numbers bit for bit), as undo compares them.
fileprivate func == (a: FilterValue, b: FilterValue) -> Bool { FilterSession.Snapshot.same(a, b) }

/// The explorer's live animation without a terminal: interpolation, the loop's clock, the `A` prompt's parser,
/// what `a` animates to, and the `animate` command an export prints.
@Suite struct LiveAnimationTests {
    func input(_ filter: String, _ key: String) throws -> InputDescriptor {
        try #require(Catalog.builtIn.filter(named: filter)?.input(key))
    }

    // MARK: Interpolation

    @Test func linearNumbersHitBothEndsExactly() throws {
        // 0.1 + (0.3 − 0.1) × 1 is 0.30000000000000004 in floating point: the ends must be the values typed.
        let a = try #require(LiveAnimation(key: "k", from: .number(0.1), to: .number(0.3)))
        #expect(a.value(atProgress: 0) == .number(0.1))
        #expect(a.value(atProgress: 1) == .number(0.3))
        let b = try #require(LiveAnimation(key: "k", from: .number(0), to: .number(20)))
        #expect(b.value(atProgress: 0.25) == .number(5))
        #expect(b.value(atProgress: 0.5) == .number(10))
        // Outside 0…1 (or not a number) the progress is clamped.
        #expect(b.value(atProgress: -1) == .number(0))
        #expect(b.value(atProgress: 2) == .number(20))
        #expect(b.value(atProgress: .nan) == .number(0))
    }

    @Test func easedIsSmoothstepWithExactEnds() throws {
        let a = try #require(LiveAnimation(key: "k", from: .number(0), to: .number(20), eased: true))
        #expect(LiveAnimation.smoothstep(0.25) == 0.15625)
        #expect(a.value(atProgress: 0.25) == .number(20 * 0.15625))
        #expect(a.value(atProgress: 0.5) == .number(10))
        #expect(a.value(atProgress: 0.75) == .number(20 * 0.84375))
        let b = try #require(LiveAnimation(key: "k", from: .number(0.7), to: .number(-0.1), eased: true))
        #expect(b.value(atProgress: 0) == .number(0.7))
        #expect(b.value(atProgress: 1) == .number(-0.1))
    }

    @Test func vectorsColoursAndTransformsMoveComponentByComponent() throws {
        let point = try #require(LiveAnimation(key: "inputCenter", from: .vector([0, 0]), to: .vector([100, 50])))
        #expect(point.value(atProgress: 0.5) == .vector([50, 25]))
        #expect(point.value(atProgress: 1) == .vector([100, 50]))

        let red = Color(red: 1, green: 0, blue: 0), blue = Color(red: 0, green: 0.2, blue: 1, alpha: 0.5)
        let colour = try #require(LiveAnimation(key: "inputColor", from: .color(red), to: .color(blue)))
        #expect(colour.value(atProgress: 0) == .color(red))
        #expect(colour.value(atProgress: 1) == .color(blue))
        #expect(colour.value(atProgress: 0.5) == .color(Color(red: 0.5, green: 0.1, blue: 0.5, alpha: 0.75)))

        let turn = AffineTransform.rotation(.pi / 2)
        let transform = try #require(LiveAnimation(key: "inputTransform", from: .transform(.identity), to: .transform(turn)))
        #expect(transform.value(atProgress: 1) == .transform(turn))
        guard case .transform(let half) = transform.value(atProgress: 0.5) else { Issue.record("not a transform"); return }
        #expect(abs(half.a - (1 + turn.a) / 2) < 1e-12 && abs(half.b - 0.5) < 1e-12)

        // Whole-number inputs move in whole numbers.
        let count = try #require(LiveAnimation(key: "inputCount", from: .number(2), to: .number(9), isInteger: true))
        #expect(count.value(atProgress: 0.5) == .number(6))  // 5.5 rounds away from zero
        #expect(count.value(atProgress: 0.3) == .number(4))
    }

    @Test func differentShapesOrSizesDoNotMake() {
        #expect(LiveAnimation(key: "k", from: .number(0), to: .vector([1, 2])) == nil)
        #expect(LiveAnimation(key: "k", from: .vector([0, 0]), to: .vector([1, 2, 3])) == nil)
        #expect(LiveAnimation(key: "k", from: .string("a"), to: .string("b")) == nil)
        #expect(LiveAnimation(key: "k", from: .number(0), to: .number(1), seconds: 0) == nil)
    }

    @Test func theLoopFollowsTheClock() throws {
        let a = try #require(LiveAnimation(key: "k", from: .number(0), to: .number(10), seconds: 2))
        #expect(a.progress(elapsed: 0) == 0)
        #expect(a.progress(elapsed: 1) == 0.5)
        #expect(a.progress(elapsed: 3) == 0.5)  // the second pass, from FROM again (a loop, not a ping-pong)
        #expect(a.progress(elapsed: 4) == 0)
        // Starting inside the range continues from there: the elapsed time that gives a value, both easings.
        #expect(abs(a.elapsed(atValue: 2.5) - 0.5) < 1e-12)
        let eased = try #require(LiveAnimation(key: "k", from: .number(0), to: .number(1), eased: true))
        for value in [0.1, 0.5, 0.9] {
            guard case .number(let back) = eased.value(atProgress: eased.progress(elapsed: eased.elapsed(atValue: value))) else { return }
            #expect(abs(back - value) < 1e-9)
        }
    }

    // MARK: The prompt

    @Test func promptForms() throws {
        #expect(try LiveAnimation.parseSpec("0 → 20 over 2 s linear") == .init(from: "0", to: "20", seconds: 2, eased: false))
        #expect(try LiveAnimation.parseSpec("0:20 3 ease-in-out") == .init(from: "0", to: "20", seconds: 3, eased: true))
        #expect(try LiveAnimation.parseSpec("-1 -> -5 over 1.5s") == .init(from: "-1", to: "-5", seconds: 1.5, eased: false))
        #expect(try LiveAnimation.parseSpec("0:20") == .init(from: "0", to: "20", seconds: 2, eased: false))
        #expect(try LiveAnimation.parseSpec("[0 0] → [512 512] over 3 seconds smoothstep")
            == .init(from: "[0 0]", to: "[512 512]", seconds: 3, eased: true))
        #expect(try LiveAnimation.parseSpec("[0 0]:[100 100] 2 s") == .init(from: "[0 0]", to: "[100 100]", seconds: 2, eased: false))
        #expect(try LiveAnimation.parseSpec("0 → 2*pi over 60/24 s").seconds == 2.5)

        let radius = try input("CIGaussianBlur", "inputRadius")
        let blur = try LiveAnimation.parse("default → 2*default over 1 s ease-in-out", input: radius, current: .number(3))
        #expect(blur.from == [10] && blur.to == [20] && blur.seconds == 1 && blur.eased)
        // The text written for the prompt reads back as the same animation.
        #expect(try LiveAnimation.parse(blur.promptText, input: radius, current: .number(3)) == blur)

        let angle = try input("CIHueAdjust", "inputAngle")
        let turn = try LiveAnimation.parse("0 → 90° over 1 s", input: angle, current: .number(0))
        #expect(turn.to == [Double.pi / 2])

        let center = try input("CITwirlDistortion", "inputCenter")
        let moved = try LiveAnimation.parse("[0 0] -> [512 256/2]", input: center, current: .vector([256, 256]))
        #expect(moved.fromValue == .vector([0, 0]) && moved.toValue == .vector([512, 128]))

        let color = try input("CIColorMonochrome", "inputColor")
        let tint = try LiveAnimation.parse("#ff0000 → [0 0 1] over 1 s", input: color, current: .color(.white))
        #expect(tint.fromValue == .color(Color(red: 1, green: 0, blue: 0)) && tint.toValue == .color(Color(red: 0, green: 0, blue: 1)))
    }

    @Test(arguments: [
        ("", "nothing typed"),
        ("0 20", "no → between FROM and TO"),
        ("→ 20 over 2 s", "no FROM value"),
        ("0 →", "no TO value"),
        ("0 → over 2 s", "no TO value"),
        ("0 → 20 over", "no duration after \"over\""),
        ("0 → foo over 2 s", "TO \"foo\": unknown name 'foo' at column 1"),
        ("1/0 → 20", "FROM \"1/0\": 1/0 is not finite"),
        ("0 → 20 over 0 s", "the duration must be at least 0.05 s, not 0 s"),
        ("0 → 20 over -2 s", "the duration must be at least 0.05 s, not -2 s"),
        ("0 → 20 over 7200 s", "the duration must be at most 3600 s, not 7200 s"),
        ("0 → 20 over x s", "the duration \"x s\": unknown name 'x'"),
        ("0 → 45° over 2 s", "inputRadius is not an angle"),
    ])
    func badPromptTextIsRefusedWithAReason(text: String, reason: String) throws {
        let radius = try input("CIGaussianBlur", "inputRadius")
        #expect {
            try LiveAnimation.parse(text, input: radius, current: .number(10))
        } throws: { error in
            "\(error)".contains(reason)
        }
    }

    @Test func wrongSizesAreRefusedWithAReason() throws {
        let center = try input("CITwirlDistortion", "inputCenter")
        #expect {
            try LiveAnimation.parse("[0 0 0] → [1 1]", input: center, current: .vector([256, 256]))
        } throws: { "\($0)".contains("FROM \"[0 0 0]\": inputCenter takes 2 numbers, not 3") }
        let color = try input("CIColorMonochrome", "inputColor")
        #expect {
            try LiveAnimation.parse("#ff00 → #000000", input: color, current: .color(.white))
        } throws: { "\($0)".contains("a colour is #rrggbb or #rrggbbaa") }
        let image = try input("CIGaussianBlur", "inputImage")
        #expect {
            try LiveAnimation.parse("0 → 1", input: image, current: .string("x"))
        } throws: { "\($0)".contains("cannot be animated") }
    }

    // MARK: What `a` animates to

    @Test func sensibleOtherEnds() throws {
        let source = Rect(x: 0, y: 0, width: 512, height: 512)
        let radius = try input("CIGaussianBlur", "inputRadius")
        let spec = SliderSpec(radius)
        // From near the bottom of the slider to its top, from near the top to its bottom.
        let up = try #require(LiveAnimation.defaultAnimation(for: radius, kind: .slider(spec), current: .number(10), source: source))
        #expect(up.from == [10] && up.to == [spec.upper] && up.seconds == 2 && !up.eased)
        let down = try #require(LiveAnimation.defaultAnimation(for: radius, kind: .slider(spec), current: .number(90), source: source))
        #expect(down.to == [spec.lower])

        let center = try input("CITwirlDistortion", "inputCenter")
        let mirrored = try #require(LiveAnimation.defaultAnimation(for: center, kind: .point(offset: false),
                                                                   current: .vector([100, 400]), source: source))
        #expect(mirrored.to == [412, 112])
        let fromMiddle = try #require(LiveAnimation.defaultAnimation(for: center, kind: .point(offset: false),
                                                                     current: .vector([256, 256]), source: source))
        #expect(fromMiddle.to == [384, 256])

        let color = try input("CIColorMonochrome", "inputColor")
        let complement = try #require(LiveAnimation.defaultAnimation(for: color, kind: .color,
                                                                     current: .color(Color(red: 1, green: 0.8, blue: 0)), source: source))
        #expect(complement.toValue == .color(Color(red: 0, green: 1 - 0.8, blue: 1)))

        let image = try input("CIGaussianBlur", "inputImage")
        #expect(LiveAnimation.defaultAnimation(for: image, kind: .image(.picture), current: .number(0), source: source) == nil)
    }

    // MARK: The command an export prints

    /// The export's `render` command turned into `animate`, run for real: it must accept what the explorer prints.
    @Test func animateAcceptsTheCommandTheExportPrints() throws {
        let session = try ExplorerFixtures.session("CIGaussianBlur")
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("cifiltertest-live-\(UUID())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let output = directory.appendingPathComponent("blur.png").path
        let framing = try session.framedOutput(forExport: true)
        let animation = try #require(LiveAnimation(key: "inputRadius", from: .number(0), to: .number(12.5), seconds: 0.2, eased: true))
        let words = try #require(animation.animateArguments(render: session.renderArguments(output: output, crop: framing.rect),
                                                            step: session.name))
        #expect(Array(words.prefix(2)) == ["cifiltertest", "animate"])
        let command = words.joined(separator: " ")
        #expect(command.contains("--animate CIGaussianBlur.inputRadius=0:12.5 --frames 5 --fps 25 --ease ease-in-out -o "))
        #expect(words.last == directory.appendingPathComponent("blur.gif").path)
        let result = try CommandLineTests().run(Array(words.dropFirst()))
        #expect(result.status == 0, "\(command): \(result.stderr)")
        #expect(FileManager.default.fileExists(atPath: directory.appendingPathComponent("blur.gif").path))
    }
}
