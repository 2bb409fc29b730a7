// swift-tools-version:6.2
import PackageDescription

/// The project's own targets and its tests, optimised in debug builds too: unoptimised, the suite
/// took half again as long. (The packages it depends on stay as SwiftPM builds them.)
let optimisedInDebug: [SwiftSetting] = [.unsafeFlags(["-O"], .when(configuration: .debug))]

let package = Package(
    name: "photopick",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "photopick", targets: ["photopick"]),
        .executable(name: "photopick-bench", targets: ["photopick-bench"]),
        .library(name: "PhotoPickKit", targets: ["PhotoPickKit"]),
        .library(name: "PhotoPickServer", targets: ["PhotoPickServer"]),
        .library(name: "PhotoBrowser", targets: ["PhotoBrowser"]),
        .library(name: "TerminalUI", targets: ["TerminalUI"]),
    ],
    dependencies: [
        // Hummingbird's traits named, one of them: with its two default ones, SwiftPM passed their defines in
        // a different order on each run (a set's order), so every other build compiled Hummingbird again.
        // Its swift-configuration support is not used.
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1", traits: ["FullFoundation"]),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", from: "3.12.3"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/LebJe/TOMLKit.git", from: "0.6.0"),
        .package(url: "https://github.com/swift-extras/swift-extras-base64.git", from: "1.2.0"),
        // Hummingbird brings these; the server imports them, so it declares them.
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
    ],
    targets: [
        // ncursesw for the terminal front end; SwiftPM drops the .pc file's -D flags, so the shim sets them.
        .systemLibrary(
            name: "CNcursesw",
            pkgConfig: "ncursesw",
            providers: [.apt(["libncurses-dev"]), .brew(["ncurses"])]
        ),
        // libchafa: symbols and sixel for previews. Its .pc requires glib-2.0 (Debian's libglib2.0-dev).
        .systemLibrary(
            name: "CChafa",
            pkgConfig: "chafa",
            providers: [.apt(["libchafa-dev", "libglib2.0-dev"]), .brew(["chafa"])]
        ),
        // The originals' other formats, each through its field's library (issue 39): LibRaw for camera
        // RAW, libheif for HEIC and AVIF, libtiff and libwebp. None of them jumps: their errors are codes.
        .systemLibrary(name: "CLibRaw", pkgConfig: "libraw_r", providers: [.apt(["libraw-dev"]), .brew(["libraw"])]),
        .systemLibrary(name: "CHeif", pkgConfig: "libheif", providers: [.apt(["libheif-dev"]), .brew(["libheif"])]),
        // libavif for AVIF: Debian's decodes with dav1d, three times libheif's speed with libaom.
        .systemLibrary(name: "CAVIF", pkgConfig: "libavif", providers: [.apt(["libavif-dev"]), .brew(["libavif"])]),
        .systemLibrary(name: "CTIFF", pkgConfig: "libtiff-4", providers: [.apt(["libtiff-dev"]), .brew(["libtiff"])]),
        .systemLibrary(name: "CWebP", pkgConfig: "libwebp", providers: [.apt(["libwebp-dev"]), .brew(["webp"])]),
        // libjpeg behind a C boundary, so its longjmp-based errors never cross into Swift: decoding,
        // regions, focus measuring and a plain encoder. The browser side's only C.
        .target(
            name: "CJPEG",
            // Decoding 24 MP originals and measuring focus walk every pixel; at -O0 tests take seconds more.
            cSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("jpeg")]
        ),
        // The demo server's own C: the scene renderer and files padded to an exact length, over CJPEG's encoder.
        .target(
            name: "CSceneRender",
            dependencies: ["CJPEG"],
            // Rendering 12 MP scenes at -O0 takes seconds; debug builds optimise this target too. No fused
            // multiply-add, so a scene is the same bytes on every machine.
            cSettings: [.unsafeFlags(["-O2", "-ffp-contract=off"])],
            linkerSettings: [.linkedLibrary("m")]
        ),
        // libpng for kitty's compressed transmission (f=100) and PNG originals, behind a C boundary for its
        // longjmp errors; libdeflate inflates an 8-bit RGB original's rows for the loupe.
        .target(
            name: "CPNG",
            cSettings: [.unsafeFlags(["-O2"])],
            linkerSettings: [.linkedLibrary("png16"), .linkedLibrary("z"), .linkedLibrary("deflate")]
        ),
        // Extended attributes, whose header Glibc's module map leaves out.
        .target(name: "CFileAttributes"),
        // malloc_trim, whose header Glibc's module map leaves out too.
        .target(name: "CMemory"),
        // Wire formats both sides of the API share (ISO 8601), with no dependencies: the server, which
        // never imports PhotoPickKit, and the client read and write dates through the same code.
        .target(name: "PhotoPickFormats"),
        // The network core: typed requests, retries, the pacer, streams and downloads. No UI.
        .target(
            name: "PhotoPickKit",
            dependencies: [
                "CFileAttributes",
                "PhotoPickFormats",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
            ],
            swiftSettings: optimisedInDebug
        ),
        // Imaging: decoding, resampling, orientation, focus measuring and loupe geometry over CJPEG. No
        // network, no view model.
        .target(name: "PhotoImaging", dependencies: ["CJPEG", "CPNG", "CLibRaw", "CHeif", "CAVIF", "CTIFF", "CWebP"], swiftSettings: optimisedInDebug),
        // Previews: the loaders, their stores and the disk cache; fetch through Kit, decode through imaging.
        .target(
            name: "PhotoPreviews",
            dependencies: [
                "PhotoImaging",
                "PhotoPickKit",
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: optimisedInDebug
        ),
        // The view model: state as a value, events, and a driver that runs effects. No terminal.
        .target(
            name: "PhotoBrowser",
            dependencies: [
                "PhotoPickKit",
                "PhotoPickFormats",
                "PhotoPreviews",
                "CMemory",
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            swiftSettings: optimisedInDebug
        ),
        // What a user can name in the config and on the command line: keys, actions and the key map,
        // graphics modes and themes. Values the terminal front end reads; no terminal here.
        .target(name: "PhotoPickSettings", dependencies: ["PhotoBrowser"]),
        // The ncurses front end: views draw into a canvas of cells; only the driver calls ncurses.
        .target(
            name: "TerminalUI",
            dependencies: [
                "CChafa",
                "CNcursesw",
                "PhotoBrowser",
                "PhotoPickSettings",
                "PhotoImaging",
                "PhotoPickFormats",
                "PhotoPickKit",
                "PhotoPreviews",
                .product(name: "ExtrasBase64", package: "swift-extras-base64"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: optimisedInDebug
        ),
        // Settings: config.toml through TOMLKit, the XDG paths and where the key comes from. TerminalUI
        // gets typed values from it and never sees TOML; it sees no terminal either.
        .target(
            name: "PhotoPickConfig",
            dependencies: [
                "PhotoBrowser",
                "PhotoPickKit",
                "PhotoPickSettings",
                .product(name: "TOMLKit", package: "TOMLKit"),
            ]
        ),
        .target(
            name: "PhotoPickServer",
            dependencies: [
                "CJPEG",
                "CSceneRender",
                // The demo's originals of other kinds: HEIC and AVIF through libheif (x265, aom), PNG through
                // libpng, TIFF through libtiff, WebP through libwebp.
                "CHeif",
                "CPNG",
                "CTIFF",
                "CWebP",
                "PhotoPickFormats",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "_NIOFileSystem", package: "swift-nio"),
            ],
            swiftSettings: optimisedInDebug,
            plugins: ["EmbedResources"]
        ),
        // The verbs: the browser's launcher, the scripting verbs, serve and doctor. A library, so their
        // tests reach them; the executable is only their entry point.
        .target(
            name: "PhotoPickCommands",
            dependencies: [
                "PhotoPickConfig",
                "PhotoPickSettings",
                "TerminalUI",
                "PhotoBrowser",
                "PhotoPickFormats",
                "PhotoPickKit",
                "PhotoPickServer",
                "PhotoPreviews",
                "PhotoImaging",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
            ],
            // The commit they are built from, for --version.
            plugins: ["EmbedResources"]
        ),
        .executableTarget(name: "photopick", dependencies: ["PhotoPickCommands"]),
        // Benchmarks against reference tools; built in release, never part of `swift test`.
        .executableTarget(
            name: "photopick-bench",
            dependencies: [
                "TerminalUI",
                "PhotoPickSettings",
                "PhotoBrowser",
                "PhotoImaging",
                "PhotoPickKit",
                "PhotoPickServer",
                "PhotoPreviews",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            path: "Sources/PhotoPickBench"
        ),
        .plugin(
            name: "EmbedResources",
            capability: .buildTool(),
            path: "Sources/EmbedResourcesPlugin"
        ),
        .target(
            name: "PhotoPickTestSupport",
            dependencies: [
                "CJPEG",
                "PhotoPickKit",
                "PhotoPickServer",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            path: "Tests/PhotoPickTestSupport",
            swiftSettings: optimisedInDebug
        ),
        .testTarget(name: "CJPEGTests", dependencies: ["CJPEG", "CSceneRender"], swiftSettings: optimisedInDebug),
        .testTarget(name: "PhotoImagingTests", dependencies: ["PhotoImaging", "PhotoPickTestSupport", "CHeif", "CAVIF", "CPNG", "CTIFF", "CWebP"], swiftSettings: optimisedInDebug),
        .testTarget(name: "PhotoPickFormatsTests", dependencies: ["PhotoPickFormats"], swiftSettings: optimisedInDebug),
        .testTarget(
            name: "PhotoPreviewsTests",
            dependencies: ["PhotoImaging", "PhotoPickKit", "PhotoPickServer", "PhotoPickTestSupport", "PhotoPreviews"]
        ),
        .testTarget(
            name: "PhotoPickKitTests",
            dependencies: [
                "PhotoPickKit",
                .product(name: "Crypto", package: "swift-crypto"),
                "PhotoPickServer",
                "PhotoPickTestSupport",
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
            ],
            swiftSettings: optimisedInDebug
        ),
        .testTarget(
            name: "PhotoBrowserTests",
            dependencies: [
                .product(name: "GRDB", package: "GRDB.swift"),
                "PhotoBrowser",
                // SyncPlan, the sync verb's plan, and the library connection; their tests drive a session here.
                "PhotoPickCommands",
                "PhotoPickConfig",
                .product(name: "Logging", package: "swift-log"),
                "PhotoImaging",
                "PhotoPickKit",
                "PhotoPickServer",
                "PhotoPickTestSupport",
            ],
            swiftSettings: optimisedInDebug
        ),
        .testTarget(name: "PhotoPickConfigTests", dependencies: ["PhotoPickConfig", "PhotoBrowser", "PhotoPickKit", "PhotoPickSettings"], swiftSettings: optimisedInDebug),
        // The command-line verbs' output, through `@testable import` of the commands.
        .testTarget(name: "PhotoPickCommandsTests", dependencies: ["PhotoPickCommands", "PhotoBrowser", "PhotoPickKit", "PhotoPickSettings"], swiftSettings: optimisedInDebug),
        .testTarget(
            name: "TerminalUITests",
            dependencies: [
                "CNcursesw",
                "TerminalUI",
                "PhotoBrowser",
                "PhotoImaging",
                "PhotoPickKit",
                "PhotoPickSettings",
                "PhotoPickTestSupport",
                "PhotoPreviews",
            ],
            swiftSettings: optimisedInDebug
        ),
        .testTarget(
            name: "PhotoPickServerTests",
            dependencies: [
                "PhotoPickServer",
                "CJPEG",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                "PhotoPickTestSupport",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
            ],
            swiftSettings: optimisedInDebug
        ),
    ],
    swiftLanguageModes: [.v6]
)
