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

/// `make docs` (OSPREY_DOCS=1) adds the DocC plugin; other builds do not resolve or build it.
let docsDependencies: [Package.Dependency] = ProcessInfo.processInfo.environment["OSPREY_DOCS"] == "1"
    ? [.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0")]
    : []

// MARK: - Package

let package = Package(
    name: "Osprey",
    platforms: [.macOS(.v15)],
    products: [
        // One library product per module, so a consumer depends on just the part it needs.
        .library(name: "OspreyDomain", targets: ["OspreyDomain"]),
        .library(name: "OspreyPixels", targets: ["OspreyPixels"]),
        .library(name: "OspreyCodec", targets: ["OspreyCodec"]),
        .library(name: "OspreyProcessing", targets: ["OspreyProcessing"]),
        .library(name: "OspreyMemoryCache", targets: ["OspreyMemoryCache"]),
        .library(name: "OspreyDiskCache", targets: ["OspreyDiskCache"]),
        .library(name: "OspreyNetwork", targets: ["OspreyNetwork"]),
        .library(name: "OspreyRedisCache", targets: ["OspreyRedisCache"]),
        .library(name: "Osprey", targets: ["Osprey"]),
        .library(name: "OspreyServer", targets: ["OspreyServer"]),
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
        systemLibrary("CSQLite", pkgConfig: "sqlite3", apt: ["libsqlite3-dev"]),
        systemLibrary("CCrypto", pkgConfig: "libcrypto", apt: ["libssl-dev"]),
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

        // C wrappers keeping libjpeg's and libpng's setjmp/longjmp error handling in C, giflib's
        // frame loop with its canvas (giflib ships no pkg-config file: libgif-dev), and GIF
        // writing through libimagequant and cgif (libimagequant-dev, libcgif-dev), and TIFF
        // through libtiff (libtiff-dev).
        .target(
            name: "CCodecShims",
            dependencies: ["CJPEG", "CPNG"],
            path: "Modules/C/CCodecShims",
            linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("png16"), .linkedLibrary("gif"), .linkedLibrary("cgif"),
                             .linkedLibrary("imagequant"), .linkedLibrary("tiff"), .linkedLibrary("m")]
        ),

        // libavif, libheif and libjxl opened on first use (dlopen), so a process that meets none
        // does not load them and their codecs; CAVIF, CHEIF and CJXL give their headers only.
        .target(
            name: "CCodecLoader",
            dependencies: ["CAVIF", "CHEIF", "CJXL"],
            path: "Modules/C/CCodecLoader",
            linkerSettings: [.linkedLibrary("dl")]
        ),

        // Redis over TLS for Debian 12's hiredis 0.14, which has none: OpenSSL carries the bytes,
        // hiredis formats commands and parses replies.
        .target(
            name: "CRedisTLS",
            dependencies: ["CHiredis"],
            path: "Modules/C/CRedisTLS",
            linkerSettings: [.linkedLibrary("ssl"), .linkedLibrary("crypto"), .linkedLibrary("hiredis")]
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
        .target(
            name: "OspreyDomain",
            dependencies: [logging],
            path: "Modules/Domain",
            swiftSettings: swiftSettings
        ),

        // MARK: Pixels — the one resampler, orientation and conversions, under Codec and Processing.
        .target(
            name: "OspreyPixels",
            dependencies: ["OspreyDomain", "CResample"],
            path: "Modules/Pixels",
            swiftSettings: swiftSettings
        ),

        // MARK: Codec — JPEG, PNG and WebP at the size that will be shown.
        .target(
            name: "OspreyCodec",
            dependencies: ["OspreyDomain", "OspreyPixels", "CCodecShims", "CWebP", "CLCMS", "CAVIF", "CHEIF", "CJXL", "CCodecLoader", "CXMLShims", logging],
            path: "Modules/Codec",
            swiftSettings: swiftSettings
        ),

        // MARK: Processing — resize, crop, corners, blur, colour; over the one resampler.
        .target(
            name: "OspreyProcessing",
            dependencies: ["OspreyDomain", "OspreyPixels"],
            path: "Modules/Processing",
            swiftSettings: swiftSettings
        ),

        // MARK: Data — caches (each on Domain only, plus its C library)
        .target(
            name: "OspreyMemoryCache",
            dependencies: ["OspreyDomain"],
            path: "Modules/Data/MemoryCache",
            swiftSettings: swiftSettings
        ),
        // Large buffers mapped apart and malloc's tuning: what the network, the disk cache
        // and the programs share below the Domain's values and ports.
        .target(
            name: "OspreyAllocation",
            path: "Modules/Data/Allocation",
            swiftSettings: swiftSettings
        ),
        .target(
            name: "OspreyDiskCache",
            dependencies: ["OspreyDomain", "OspreyAllocation", "CSQLite", "CCrypto", logging],
            path: "Modules/Data/DiskCache",
            swiftSettings: swiftSettings
        ),

        .target(
            name: "OspreyNetwork",
            dependencies: ["OspreyDomain", "OspreyAllocation", "CCurl", "CCurlShims", "CCrypto"],
            path: "Modules/Data/Network",
            swiftSettings: swiftSettings
        ),

        // MARK: RedisCache — the shared tier a fleet puts behind its disk caches (hiredis).
        .target(
            name: "OspreyRedisCache",
            dependencies: ["OspreyDomain", "CHiredis", "CRedisTLS", logging],
            path: "Modules/Data/RedisCache",
            swiftSettings: swiftSettings
        ),

        // MARK: Osprey — the umbrella: re-exports and the default wiring.
        .target(
            name: "Osprey",
            dependencies: ["OspreyDomain", "OspreyPixels", "OspreyCodec", "OspreyProcessing", "OspreyMemoryCache",
                           "OspreyDiskCache", "OspreyNetwork", logging],
            path: "Modules/Osprey",
            swiftSettings: swiftSettings
        ),

        // MARK: Server — HTTP image serving: a thin adapter from imgproxy's URLs to the pipeline's
        // encoded stage; one buildApplication for the executable, the tests and apps. It builds
        // its pipeline from the umbrella's configuration; imgproxy's effects are
        // OspreyProcessing's processors; the codec module gives it the formats' names only.
        .target(
            name: "OspreyServer",
            dependencies: ["Osprey", "OspreyDomain", "OspreyCodec", "OspreyPixels", "OspreyProcessing", "OspreyRedisCache", "CCrypto", hummingbird, logging,
                           .product(name: "HummingbirdCore", package: "hummingbird"),
                           .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                           .product(name: "Metrics", package: "swift-metrics"),
                           .product(name: "Prometheus", package: "swift-prometheus")],
            path: "Modules/Server",
            swiftSettings: swiftSettings
        ),

        // MARK: Apps — and the wiring they share: the cache options, the OSPREY_ variables.
        .target(
            name: "OspreyPrograms",
            dependencies: ["Osprey", "OspreyRedisCache", argumentParser],
            path: "Apps/Shared",
            swiftSettings: swiftSettings
        ),

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
        .target(
            name: "OspreyTesting",
            dependencies: ["OspreyDomain"],
            path: "Tests/OspreyTesting",
            swiftSettings: swiftSettings
        ),
        // The behaviour every implementation of a port must show, as Swift Testing checks; apart
        // from OspreyTesting so that the soak's runner builds in release, without Testing.
        .target(
            name: "OspreyContracts",
            dependencies: ["OspreyDomain", "OspreyTesting"],
            path: "Tests/OspreyContracts",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DomainTests",
            dependencies: ["OspreyDomain", "OspreyTesting", "OspreyContracts"],
            path: "Tests/DomainTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CodecTests",
            dependencies: ["OspreyCodec", "OspreyPixels", "OspreyDomain", "OspreyTesting", "OspreyContracts"],
            path: "Tests/CodecTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "PixelsTests",
            dependencies: ["OspreyPixels", "OspreyDomain", "OspreyTesting", "CResample"],
            path: "Tests/PixelsTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ProcessingTests",
            dependencies: ["OspreyProcessing", "OspreyPixels", "OspreyDomain", "OspreyTesting", "OspreyContracts"],
            path: "Tests/ProcessingTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "MemoryCacheTests",
            dependencies: ["OspreyMemoryCache", "OspreyDomain", "OspreyTesting", "OspreyContracts"],
            path: "Tests/MemoryCacheTests",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "DiskCacheCrashHelper",
            dependencies: ["OspreyDiskCache", "OspreyDomain", "OspreyTesting"],
            path: "Tests/DiskCacheCrashHelper",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DiskCacheTests",
            dependencies: ["OspreyDiskCache", "OspreyDomain", "OspreyTesting", "OspreyContracts", "DiskCacheCrashHelper"],
            path: "Tests/DiskCacheTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "NetworkTests",
            dependencies: ["OspreyNetwork", "OspreyDomain", "OspreyTesting", "OspreyContracts"],
            path: "Tests/NetworkTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "RedisCacheTests",
            dependencies: ["OspreyRedisCache", "OspreyDomain", "OspreyTesting", "OspreyContracts"],
            path: "Tests/RedisCacheTests",
            swiftSettings: swiftSettings
        ),
        .executableTarget(
            name: "SoakRunner",
            dependencies: ["Osprey", "OspreyTesting"],
            path: "Tests/SoakRunner",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "EndToEndTests",
            dependencies: ["Osprey", "OspreyTesting", "osprey", "SoakRunner"],
            path: "Tests/EndToEndTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "DemoTests",
            dependencies: ["osprey-server", "osprey", "OspreyCodec", "OspreyTesting"],
            path: "Tests/DemoTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "ServerTests",
            dependencies: ["osprey-server", "OspreyServer", "Osprey", "OspreyTesting", hummingbird],
            path: "Tests/ServerTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "SystemLibraryTests",
            dependencies: ["CJPEG", "CPNG", "CWebP", "CCurl", "CCurlShims", "CSQLite", "CCrypto", "OspreyTesting"],
            path: "Tests/SystemLibraryTests",
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "CLITests",
            dependencies: ["osprey", "OspreyDiskCache", "OspreyDomain", "OspreyTesting", "OspreyContracts"],
            path: "Tests/CLITests",
            swiftSettings: swiftSettings
        ),
    ]
)

// The sanitizer runs build only the test targets their sanitizer must check
// (OSPREY_TEST_TARGETS, comma-separated; the Makefile says why each); every other build has all.
if let kept = ProcessInfo.processInfo.environment["OSPREY_TEST_TARGETS"]?.split(separator: ",").map(String.init) {
    package.targets.removeAll { $0.type == .test && !kept.contains($0.name) }
}
