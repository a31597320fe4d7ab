// swift-tools-version:6.1
// Osprey's benchmarks, kept apart so the library's build never pays for them.
// `make bench` at the top builds and runs them; results go to Docs/BENCHMARKS.md.
import Foundation
import PackageDescription

// A path dependency is identified by its folder's name, which differs between clones.
let osprey = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "OspreyBenchmarks",
    platforms: [.macOS(.v15)],
    dependencies: [
        .package(path: ".."),
        .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    ],
    targets: [
        .executableTarget(
            name: "CodecBenchmark",
            dependencies: [
                .product(name: "OspreyCodec", package: osprey),
                .product(name: "OspreyDomain", package: osprey),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "ResampleEncode",
            dependencies: [
                .product(name: "OspreyCodec", package: osprey),
                .product(name: "OspreyDomain", package: osprey),
                .product(name: "OspreyPixels", package: osprey),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "ResampleBenchmark",
            dependencies: [
                .product(name: "OspreyDomain", package: osprey),
                .product(name: "OspreyPixels", package: osprey),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "CacheBenchmark",
            dependencies: [
                .product(name: "OspreyMemoryCache", package: osprey),
                .product(name: "OspreyDiskCache", package: osprey),
                .product(name: "OspreyDomain", package: osprey),
            ],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "FetchOsprey",
            dependencies: [.product(name: "OspreyNetwork", package: osprey), .product(name: "OspreyDomain", package: osprey)],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(
            name: "GridBenchmark",
            dependencies: [.product(name: "Osprey", package: osprey)],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .executableTarget(name: "FetchURLSession", swiftSettings: [.swiftLanguageMode(.v6)]),
        .executableTarget(
            name: "FetchAHC",
            dependencies: [.product(name: "AsyncHTTPClient", package: "async-http-client")],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        // References for the download comparison, in C: libcurl with nothing around it, and raw sockets.
        .executableTarget(name: "FetchLibcurlC", linkerSettings: [.linkedLibrary("curl")]),
        .executableTarget(name: "FetchRawSocket", linkerSettings: [.linkedLibrary("pthread")]),
        // A reference for the batch comparison, in C: the codec libraries with nothing around them.
        .executableTarget(name: "ThumbnailC", linkerSettings: [.linkedLibrary("jpeg"), .linkedLibrary("webp")]),
    ]
)
