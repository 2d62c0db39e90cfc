// swift-tools-version:6.2
// 6.2: SwiftPM then lets a client depend on this package by version even though the engine targets use unsafe
// flags (the check is skipped for packages whose manifest is 6.2 or later); 6.0/6.1 toolchains cannot read it.
import Foundation
import PackageDescription

// The engine's hot loops are written to vectorise: overflow checks stop that (measured 8–9× slower on the
// 2-core dev machine), so release builds are unchecked. Debug and test builds stay checked (bounds, overflow,
// preconditions, exclusivity) but optimised, or the test suite's thousands of renders would take hours.
//
// Without AVX2/FMA the loops run 3–4× slower, but a binary built for them dies of SIGILL on a CPU without them.
// So they are used when the building machine has both (as `-march=native` would), or when
// CIFILTERTEST_TARGET_CPU names a CPU (`haswell`, `znver4` …); CIFILTERTEST_TARGET_CPU=generic builds for any
// x86_64 (for binaries copied to other machines). A building machine with Zen 4's AVX-512 (AMD Zen 4 and later)
// gets `znver4`: 2–10% faster on Zen 5 from the compiler alone, and the AVX-512 byte-permute loops of
// `CPixelLoops`. A tuned binary checks the CPU at start-up (`CPUCheck`) and says what is missing instead of crashing.
let requestedCPU = Context.environment["CIFILTERTEST_TARGET_CPU"]
/// The AVX-512 extensions `znver4` lets the compiler use, as /proc/cpuinfo names them (CPUCheck checks the same).
let zen4Extensions = ["avx512f", "avx512dq", "avx512cd", "avx512bw", "avx512vl", "avx512ifma", "avx512vbmi",
                      "avx512_vbmi2", "avx512_vnni", "avx512_bitalg", "avx512_vpopcntdq", "avx512_bf16", "gfni",
                      "vaes", "vpclmulqdq"]
let targetCPU: String? = {
    #if arch(x86_64)
    if let requestedCPU { return requestedCPU == "generic" ? nil : requestedCPU }
    let cpuinfo = (try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8)) ?? ""
    let flags = Set(cpuinfo.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init))
    guard flags.contains("avx2") && flags.contains("fma") else { return nil }
    return cpuinfo.contains("AuthenticAMD") && flags.isSuperset(of: zen4Extensions) ? "znver4" : "haswell"
    #else
    return nil
    #endif
}()
let cpuFlags = targetCPU.map { ["-target-cpu", $0] } ?? []
let fastFlags: [SwiftSetting] = [
    .unsafeFlags(["-Ounchecked", "-enforce-exclusivity=unchecked"] + cpuFlags, .when(configuration: .release)),
    .unsafeFlags(["-O"] + cpuFlags, .when(configuration: .debug)),
]
let fastCFlags: [CSetting] = [.unsafeFlags(["-O3", "-fno-math-errno"] + (targetCPU.map { ["-march=\($0)"] } ?? []))]
let cpuCheckSettings: [CSetting] = switch targetCPU {
case nil: []
case "znver4": [.define("CIFILTERTEST_NEEDS_AVX2_FMA"), .define("CIFILTERTEST_NEEDS_AVX512")]
default: [.define("CIFILTERTEST_NEEDS_AVX2_FMA")]
}

let package = Package(
    name: "cifiltertest",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "FilterEngine", targets: ["FilterEngine"]),
        // Apple's Core Image API over the engine: `import CoreImage` (and `import CoreImage.CIFilterBuiltins`).
        .library(name: "CoreImage", targets: ["CoreImage"]),
        .library(name: "CoreGraphics", targets: ["CoreGraphics"]),
        .library(name: "ImageIO", targets: ["ImageIO"]),
        .library(name: "FilterExplorer", targets: ["FilterExplorer"]),
        .executable(name: "cifiltertest", targets: ["cifiltertest"]),
        // The same commands without `explore`, for machines without a terminal UI: it links neither ncurses nor chafa.
        .executable(name: "cifiltertest-headless", targets: ["cifiltertest-headless"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CNcursesW", pkgConfig: "ncursesw", providers: [.apt(["libncurses-dev"])]),
        .systemLibrary(name: "CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev", "libglib2.0-dev"])]),
        // FreeType rasterises the text generators' glyphs.
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        // giflib writes `animate`'s GIFs (Debian ships no pkg-config file for it).
        .systemLibrary(name: "CGif", providers: [.apt(["libgif-dev"])]),
        // libpng and libjpeg-turbo behind a small C layer that turns their longjmp errors into messages.
        .target(
            name: "CImageIO",
            cSettings: fastCFlags,
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]
        ),
        // The engine's inner loops that Swift cannot express (AVX2 gathers, lane permutations) or keeps from
        // vectorising.
        .target(name: "CPixelLoops", cSettings: fastCFlags),

        // zxing-cpp's QR code reader (a C++ library) behind a C header, for CIDetector.
        .target(name: "CZXing", linkerSettings: [.linkedLibrary("ZXing")]),

        // The explorer's signal handlers: one C file, so the handler and the interface loop share one flag.
        .target(name: "CTerminalSignals"),

        // Turns filters.json into a Swift string at build time, so the binary carries its catalogue.
        .executableTarget(name: "embed-catalog", path: "Sources/embed-catalog"),
        .plugin(name: "EmbedCatalog", capability: .buildTool(), dependencies: ["embed-catalog"]),

        // Refuses, with a message, to run a binary tuned for AVX2/FMA or AVX-512 on a CPU without them (see targetCPU).
        .target(name: "CPUCheck", cSettings: cpuCheckSettings),
        .target(
            name: "FilterEngine",
            dependencies: ["CPixelLoops", "CFreeType", "CPUCheck"],
            swiftSettings: fastFlags,
            plugins: ["EmbedCatalog"]
        ),
        // The Core Image Kernel Language compiler: source text to programs the engine's kernels run.
        .target(name: "KernelLanguage", dependencies: ["FilterEngine"], swiftSettings: fastFlags),
        // Core Image's public API in Swift. It imports the engine without re-exporting it, so a file that imports
        // Foundation and CoreImage sees no engine type. The typed filters (`CIFilter.sepiaTone()`) are generated
        // from filters.json at build time.
        // Apple's module names that Core Image code imports: the Core Graphics value types (CGImage, CGColorSpace,
        // CGAffineTransform, CGVector …) and ImageIO's metadata names; `import CoreImage` re-exports both.
        .target(name: "CoreGraphics"),
        .target(name: "ImageIO", dependencies: ["CoreGraphics"]),
        .target(
            name: "CoreImage",
            dependencies: ["FilterEngine", "KernelLanguage", "FilterPipeline", "CoreImageModuleMap", "CoreGraphics", "ImageIO", "CZXing"],
            // Its few pixel loops (premultiplying 8-bit output, format conversions) run as the engine's do:
            // unoptimised they doubled a 512² RGBA8 render (1.23 ms against the engine's 0.61 ms, debug build).
            swiftSettings: fastFlags,
            plugins: ["GenerateFilterBuiltins"]
        ),
        // Only a module map: it declares the clang module `CoreImage` with the explicit submodule
        // `CIFilterBuiltins`, whose Swift overlay is the CoreImage target, so that
        // `import CoreImage.CIFilterBuiltins` works as on Apple's systems.
        .systemLibrary(name: "CoreImageModuleMap", path: "Sources/CoreImageModuleMap"),
        .executableTarget(name: "generate-filter-builtins", path: "Sources/generate-filter-builtins"),
        .plugin(name: "GenerateFilterBuiltins", capability: .buildTool(), dependencies: ["generate-filter-builtins"]),
        // Everything that turns files and recipes into renders and renders into files: recipes and their
        // resolution, image files, video (Y4M, GIF, PNG frames) and the stream pipeline.
        .target(
            name: "FilterPipeline",
            dependencies: ["FilterEngine", "CImageIO", "CPixelLoops", "CGif"],
            // The Y4M encoder and decoder loops run per frame.
            swiftSettings: fastFlags
        ),
        .target(
            name: "FilterExplorer",
            dependencies: ["FilterEngine", "FilterPipeline", "CNcursesW", "CChafa", "CTerminalSignals"]
        ),
        // The command line's commands but `explore`, and its listings: shared by both executables.
        .target(
            name: "CommandLineTool",
            dependencies: [
                "FilterEngine", "KernelLanguage", "FilterPipeline",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The benchmark's custom kernel lives here and must be compiled like the engine's.
            swiftSettings: fastFlags
        ),
        .executableTarget(
            name: "cifiltertest",
            dependencies: [
                "CommandLineTool", "FilterEngine", "FilterExplorer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ]
        ),
        .executableTarget(
            name: "cifiltertest-headless",
            dependencies: ["CommandLineTool", .product(name: "ArgumentParser", package: "swift-argument-parser")]
        ),
        // The parameter sweep's worker (scripts/fuzz-params drives it, also under AddressSanitizer).
        .executableTarget(name: "param-sweep", dependencies: ["FilterEngine", "KernelLanguage", "FilterPipeline"], path: "Sources/param-sweep"),
        .testTarget(name: "FilterEngineTests", dependencies: ["FilterEngine", "KernelLanguage", "FilterPipeline"], exclude: ["Fixtures"], swiftSettings: fastFlags),
        // Real Core Image snippets compiled unchanged against `import CoreImage`. Swift Testing declares a
        // cross-import overlay for Apple's CoreImage (`_Testing_CoreImage`), which does not exist here; without
        // this flag the test target fails with "no such module '_Testing_CoreImage'".
        .testTarget(
            name: "CoreImageTests",
            // FilterEngine only to compare the snippets' renders with the engine's own filters.
            dependencies: ["CoreImage", "FilterEngine", "FilterPipeline"],
            swiftSettings: [.unsafeFlags(["-Xfrontend", "-disable-cross-import-overlays"])]
        ),
        .testTarget(name: "FilterExplorerTests", dependencies: ["FilterExplorer", "FilterEngine", "FilterPipeline", "CommandLineTool"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6],
    cxxLanguageStandard: .cxx17
)
