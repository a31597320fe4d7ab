// swift-tools-version:6.1
//
// Osprey — image loading and caching for Swift, Linux first.
// This manifest reads as a table: shared settings, C system libraries, library modules
// (one product each), apps, and tests. See Docs/ARCHITECTURE.md for the layer rules.
import Foundation
import PackageDescription

// MARK: - Shared settings

let swiftSettings: [SwiftSetting] = [
    .swiftLanguageMode(.v6),
    .enableUpcomingFeature("ExistentialAny"),
]

let logging: Target.Dependency = .product(name: "Logging", package: "swift-log")
let argumentParser: Target.Dependency = .product(name: "ArgumentParser", package: "swift-argument-parser")
let hummingbird: Target.Dependency = .product(name: "Hummingbird", package: "hummingbird")

/// A C library found through pkg-config, installed on Debian by its `-dev` package.
func systemLibrary(_ name: String, pkgConfig: String, apt: [String]) -> Target {
    .systemLibrary(name: name, path: "Modules/C/\(name)", pkgConfig: pkgConfig, providers: [.apt(apt)])
}

/// A Swift module of ours at `path`, in the shared settings.
func module(_ name: String, _ dependencies: [Target.Dependency] = [], path: String) -> Target {
    .target(name: name, dependencies: dependencies, path: path, swiftSettings: swiftSettings)
}

/// A test target, or with `executable` a helper the tests run, in `Tests/<name>`.
func tests(_ name: String, _ dependencies: [Target.Dependency], executable: Bool = false) -> Target {
    executable ? .executableTarget(name: name, dependencies: dependencies, path: "Tests/\(name)", swiftSettings: swiftSettings)
        : .testTarget(name: name, dependencies: dependencies, path: "Tests/\(name)", swiftSettings: swiftSettings)
}

/// `make docs` (OSPREY_DOCS=1) adds the DocC plugin; other builds do not resolve or build it.
let docsDependencies: [Package.Dependency] = ProcessInfo.processInfo.environment["OSPREY_DOCS"] == "1"
    ? [.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0")]
    : []

// MARK: - Package

let package = Package(
    name: "Osprey",
    platforms: [.macOS(.v15)],
    // One library product per module, so a consumer depends on just the part it needs.
    products: ["OspreyDomain", "OspreyPixels", "OspreyCodec", "OspreyProcessing", "OspreyMemoryCache", "OspreyDiskCache",
               "OspreyNetwork", "OspreyRedisCache", "Osprey", "OspreyServer"].map { .library(name: $0, targets: [$0]) } + [
        .executable(name: "osprey", targets: ["osprey"]),
        .executable(name: "osprey-server", targets: ["osprey-server"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
        // Without its swift-configuration trait: the server reads its settings itself, and the
        // package would be compiled for nothing.
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1", traits: ["FullFoundation"]),
        // The server's services (its cache closed after the HTTP server stops).
        .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
        // osprey-server's /metrics: swift-metrics, exposed in Prometheus' text format.
        .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    ] + docsDependencies,
    targets: [
        // MARK: C system libraries (module maps only; shims arrive with their modules)
        systemLibrary("CJPEG", pkgConfig: "libjpeg", apt: ["libjpeg62-turbo-dev"]),
        systemLibrary("CPNG", pkgConfig: "libpng", apt: ["libpng-dev"]),
        systemLibrary("CWebP", pkgConfig: "libwebpdemux", apt: ["libwebp-dev"]),
        systemLibrary("CLCMS", pkgConfig: "lcms2", apt: ["liblcms2-dev"]),
        systemLibrary("CXML", pkgConfig: "libxml-2.0", apt: ["libxml2-dev"]),
        // libavif's and libheif's headers need no flags (libavif's pkg-config file adds a
        // Windows-only -DAVIF_DLL, which SwiftPM would refuse with a warning). Headers only:
        // CCodecLoader provides their functions.
        .systemLibrary(name: "CAVIF", path: "Modules/C/CAVIF", providers: [.apt(["libavif-dev"])]),
        .systemLibrary(name: "CHEIF", path: "Modules/C/CHEIF", providers: [.apt(["libheif-dev"])]),
        .systemLibrary(name: "CJXL", path: "Modules/C/CJXL", providers: [.apt(["libjxl-dev"])]),
        // libcurl's headers only: CCurlShims opens the library on the first transfer.
        .systemLibrary(name: "CCurl", path: "Modules/C/CCurl", providers: [.apt(["libcurl4-openssl-dev"])]),
        // hiredis's pkg-config file adds -D_FILE_OFFSET_BITS=64, which SwiftPM refuses with a
        // warning; its headers need no flags (shim.h includes <hiredis/hiredis.h>).
        .systemLibrary(name: "CHiredis", path: "Modules/C/CHiredis", providers: [.apt(["libhiredis-dev"])]),
        // SQLite's and OpenSSL's headers only (they need no flags): CLibraryLoader provides their functions.
        .systemLibrary(name: "CSQLite", path: "Modules/C/CSQLite", providers: [.apt(["libsqlite3-dev"])]),
        .systemLibrary(name: "CCrypto", path: "Modules/C/CCrypto", providers: [.apt(["libssl-dev"])]),

        // C wrappers keeping libjpeg's and libpng's setjmp/longjmp error handling in C, giflib's
        // frame loop with its canvas (giflib ships no pkg-config file: libgif-dev), and GIF
        // writing through libimagequant and cgif (libimagequant-dev, libcgif-dev), and TIFF
        // through libtiff (libtiff-dev), which is opened on the first TIFF as CCodecLoader's are.
        .target(
            name: "CCodecShims",
            dependencies: ["CJPEG", "CPNG"],
            path: "Modules/C/CCodecShims",
            linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16"), .linkedLibrary("gif"), .linkedLibrary("cgif"),
                             .linkedLibrary("imagequant"), .linkedLibrary("m"), .linkedLibrary("dl")]
        ),

        // libavif, libheif and libjxl opened on first use (dlopen), so a process that meets none
        // does not load them and their codecs; CAVIF, CHEIF and CJXL give their headers only.
        .target(
            name: "CCodecLoader",
            dependencies: ["CAVIF", "CHEIF", "CJXL"],
            path: "Modules/C/CCodecLoader",
            linkerSettings: [.linkedLibrary("dl")]
        ),

        // OpenSSL, SQLite and hiredis opened on first use (CCodecLoader's loader.h), so a process
        // that only converts files does not load them.
        .target(
            name: "CLibraryLoader",
            dependencies: ["CCrypto", "CSQLite", "CHiredis"],
            path: "Modules/C/CLibraryLoader",
            linkerSettings: [.linkedLibrary("dl")]
        ),

        // Redis over TLS for Debian 12's hiredis 0.14, which has none: OpenSSL carries the bytes,
        // hiredis formats commands and parses replies.
        .target(
            name: "CRedisTLS",
            dependencies: ["CHiredis", "CLibraryLoader"],
            path: "Modules/C/CRedisTLS"
        ),

        // The SVG sanitizer, walking libxml2's tree in C: FoundationXML's nodes and
        // their document hold each other, so every document it parses stays allocated.
        .target(
            name: "CXMLShims",
            dependencies: ["CXML"],
            path: "Modules/C/CXMLShims"
        ),

        // The resampler's fixed-point kernels: SSE2 (the x86-64 baseline) and AVX2 chosen at run
        // time by a CPU check, a scalar path giving the same bytes; no flags of their own.
        .target(
            name: "CResample",
            path: "Modules/C/CResample"
        ),

        // libcurl opened on the first transfer (CCodecLoader's loader.h), and C wrappers for
        // its variadic setopt and getinfo.
        .target(
            name: "CCurlShims",
            dependencies: ["CCurl"],
            path: "Modules/C/CCurlShims",
            linkerSettings: [.linkedLibrary("dl")]
        ),

        // MARK: Domain — value types, ports, use cases. No other module of ours, no C.
        module("OspreyDomain", [logging], path: "Modules/Domain"),

        // MARK: Pixels — the one resampler, orientation and conversions, under Codec and Processing.
        module("OspreyPixels", ["OspreyDomain", "CResample"], path: "Modules/Pixels"),

        // MARK: Codec — JPEG, PNG and WebP at the size that will be shown.
        module("OspreyCodec", ["OspreyDomain", "OspreyPixels", "CCodecShims", "CWebP", "CLCMS", "CAVIF", "CHEIF", "CJXL", "CCodecLoader",
                               "CXMLShims", logging], path: "Modules/Codec"),

        // MARK: Processing — resize, crop, corners, blur, colour; over the one resampler.
        module("OspreyProcessing", ["OspreyDomain", "OspreyPixels"], path: "Modules/Processing"),

        // MARK: Data — caches (each on Domain only, plus its C library)
        module("OspreyMemoryCache", ["OspreyDomain"], path: "Modules/Data/MemoryCache"),
        // Large buffers mapped apart and malloc's tuning: what the network, the disk cache
        // and the programs share below the Domain's values and ports.
        module("OspreyAllocation", path: "Modules/Data/Allocation"),
        module("OspreyDiskCache", ["OspreyDomain", "OspreyAllocation", "CSQLite", "CCrypto", "CLibraryLoader", logging],
               path: "Modules/Data/DiskCache"),

        module("OspreyNetwork", ["OspreyDomain", "OspreyAllocation", "CCurl", "CCurlShims", "CCrypto", "CLibraryLoader"], path: "Modules/Data/Network"),

        // MARK: RedisCache — the shared tier a fleet puts behind its disk caches (hiredis).
        module("OspreyRedisCache", ["OspreyDomain", "CHiredis", "CRedisTLS", "CLibraryLoader", logging], path: "Modules/Data/RedisCache"),

        // MARK: Osprey — the umbrella: re-exports and the default wiring.
        module("Osprey", ["OspreyDomain", "OspreyPixels", "OspreyCodec", "OspreyProcessing", "OspreyMemoryCache", "OspreyDiskCache",
                          "OspreyNetwork", logging], path: "Modules/Osprey"),

        // MARK: Server — HTTP image serving: a thin adapter from imgproxy's URLs to the pipeline's
        // encoded stage; one buildApplication for the executable, the tests and apps. It builds
        // its pipeline from the umbrella's configuration; imgproxy's effects are
        // OspreyProcessing's processors; the codec module gives it the formats' names only.
        module("OspreyServer", ["Osprey", "OspreyDomain", "OspreyCodec", "OspreyPixels", "OspreyProcessing", "OspreyRedisCache", "CCrypto", "CLibraryLoader",
                                hummingbird, logging, .product(name: "HummingbirdCore", package: "hummingbird"),
                                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                                .product(name: "Metrics", package: "swift-metrics"),
                                .product(name: "Prometheus", package: "swift-prometheus")], path: "Modules/Server"),

        // MARK: Apps — and the wiring they share: the cache options, the OSPREY_ variables.
        module("OspreyPrograms", ["Osprey", "OspreyRedisCache", argumentParser], path: "Apps/Shared"),

        .executableTarget(
            name: "osprey",
            dependencies: ["OspreyPrograms", "Osprey", "OspreyDomain", "OspreyPixels", "OspreyCodec", "OspreyProcessing", "OspreyMemoryCache", "OspreyDiskCache",
                           "OspreyNetwork", "OspreyRedisCache", "OspreyAllocation", argumentParser],
            path: "Apps/osprey",
            swiftSettings: swiftSettings
        ),

        .executableTarget(
            name: "osprey-server",
            dependencies: ["OspreyPrograms", "Osprey", "OspreyServer", "OspreyAllocation", hummingbird, argumentParser, logging],
            path: "Apps/osprey-server",
            swiftSettings: swiftSettings
        ),

        // MARK: Tests
        // What tests and the soak share: servers on loopback, the corpus, fakes, reference decoders.
        module("OspreyTesting", ["OspreyDomain"], path: "Tests/OspreyTesting"),
        // The behaviour every implementation of a port must show, as Swift Testing checks; apart
        // from OspreyTesting so that the soak's runner builds in release, without Testing.
        module("OspreyContracts", ["OspreyDomain", "OspreyTesting"], path: "Tests/OspreyContracts"),
        tests("DomainTests", ["OspreyDomain", "OspreyTesting", "OspreyContracts"]),
        tests("CodecTests", ["OspreyCodec", "OspreyPixels", "OspreyDomain", "OspreyTesting", "OspreyContracts"]),
        tests("PixelsTests", ["OspreyPixels", "OspreyDomain", "OspreyTesting", "CResample"]),
        tests("ProcessingTests", ["OspreyProcessing", "OspreyPixels", "OspreyDomain", "OspreyTesting", "OspreyContracts"]),
        tests("MemoryCacheTests", ["OspreyMemoryCache", "OspreyDomain", "OspreyTesting", "OspreyContracts"]),
        tests("DiskCacheCrashHelper", ["OspreyDiskCache", "OspreyDomain", "OspreyTesting"], executable: true),
        tests("DiskCacheTests", ["OspreyDiskCache", "OspreyDomain", "OspreyTesting", "OspreyContracts", "DiskCacheCrashHelper"]),
        tests("NetworkTests", ["OspreyNetwork", "OspreyDomain", "OspreyTesting", "OspreyContracts"]),
        tests("RedisCacheTests", ["OspreyRedisCache", "OspreyDomain", "OspreyTesting", "OspreyContracts"]),
        tests("SoakRunner", ["Osprey", "OspreyTesting"], executable: true),
        tests("EndToEndTests", ["Osprey", "OspreyTesting", "osprey", "SoakRunner"]),
        tests("DemoTests", ["osprey-server", "osprey", "OspreyCodec", "OspreyTesting"]),
        tests("ServerTests", ["osprey-server", "OspreyServer", "Osprey", "OspreyTesting", hummingbird]),
        tests("SystemLibraryTests", ["CJPEG", "CPNG", "CWebP", "CCurl", "CCurlShims", "CSQLite", "CCrypto", "CHiredis",
                                    "CLibraryLoader", "OspreyTesting"]),
        tests("CLITests", ["osprey", "OspreyDiskCache", "OspreyDomain", "OspreyTesting", "OspreyContracts"]),
    ]
)

// The sanitizer runs build only the test targets their sanitizer must check
// (OSPREY_TEST_TARGETS, comma-separated; the Makefile says why each); every other build has all.
if let kept = ProcessInfo.processInfo.environment["OSPREY_TEST_TARGETS"]?.split(separator: ",").map(String.init) {
    package.targets.removeAll { $0.type == .test && !kept.contains($0.name) }
}
