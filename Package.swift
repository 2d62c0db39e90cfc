// swift-tools-version:6.0
import PackageDescription

// The engine's hot loops are written to vectorise: overflow checks stop that (measured 8–9× slower on the
// 2-core dev machine), and without AVX2/FMA they run 3–4× slower. The CPU flags apply on x86_64 only.
#if arch(x86_64)
let fastFlags: [SwiftSetting] = [.unsafeFlags(["-Ounchecked", "-enforce-exclusivity=unchecked", "-target-cpu", "haswell"])]
let fastCFlags: [CSetting] = [.unsafeFlags(["-O3", "-march=haswell"])]
#else
let fastFlags: [SwiftSetting] = [.unsafeFlags(["-Ounchecked", "-enforce-exclusivity=unchecked"])]
let fastCFlags: [CSetting] = [.unsafeFlags(["-O3"])]
#endif

let package = Package(
    name: "cifiltertest",
    platforms: [.macOS(.v13)],
    products: [
        .library(name: "FilterEngine", targets: ["FilterEngine"]),
        .library(name: "FilterExplorer", targets: ["FilterExplorer"]),
        .executable(name: "cifiltertest", targets: ["cifiltertest"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
    ],
    targets: [
        .systemLibrary(name: "CNcursesW", pkgConfig: "ncursesw", providers: [.apt(["libncurses-dev"])]),
        .systemLibrary(name: "CChafa", pkgConfig: "chafa", providers: [.apt(["libchafa-dev", "libglib2.0-dev"])]),
        // FreeType rasterises the text generators' glyphs.
        .systemLibrary(name: "CFreeType", pkgConfig: "freetype2", providers: [.apt(["libfreetype-dev"])]),
        // libpng and libjpeg-turbo behind a small C layer that turns their longjmp errors into messages.
        .target(
            name: "CImageIO",
            cSettings: fastCFlags,
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("jpeg")]
        ),

        // The explorer's signal handlers: one C file, so the handler and the interface loop share one flag.
        .target(name: "CTerminalSignals"),

        // Turns filters.json into a Swift string at build time, so the binary carries its catalogue.
        .executableTarget(name: "embed-catalog", path: "Sources/embed-catalog"),
        .plugin(name: "EmbedCatalog", capability: .buildTool(), dependencies: ["embed-catalog"]),

        .target(
            name: "FilterEngine",
            dependencies: ["CImageIO", "CFreeType"],
            swiftSettings: fastFlags,
            plugins: ["EmbedCatalog"]
        ),
        .target(
            name: "FilterExplorer",
            dependencies: ["FilterEngine", "CNcursesW", "CChafa", "CTerminalSignals"]
        ),
        .executableTarget(
            name: "cifiltertest",
            dependencies: [
                "FilterEngine", "FilterExplorer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            // The benchmark's custom kernel lives here and must be compiled like the engine's.
            swiftSettings: fastFlags
        ),
        .testTarget(name: "FilterEngineTests", dependencies: ["FilterEngine"], exclude: ["Fixtures"], swiftSettings: fastFlags),
        .testTarget(name: "FilterExplorerTests", dependencies: ["FilterExplorer", "FilterEngine"], exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)
