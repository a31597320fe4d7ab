// swift-tools-version:6.1
// Osprey's fuzz targets, built with libFuzzer and AddressSanitizer by `make fuzz`
// (`-sanitize=fuzzer,address -parse-as-library`). Each target feeds untrusted bytes to one
// parser. Kept apart so the library's build never pays for them.
import Foundation
import PackageDescription

// A path dependency is identified by its folder's name, which differs between clones.
let osprey = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().lastPathComponent

func fuzzTarget(_ name: String, _ products: [String]) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport"] + products.map { .product(name: $0, package: osprey) },
        swiftSettings: [.swiftLanguageMode(.v6)]
    )
}

func requestTarget(_ name: String) -> Target {
    .executableTarget(
        name: name,
        dependencies: ["FuzzSupport", "FuzzRequestSupport", .product(name: "OspreyServer", package: osprey)],
        swiftSettings: [.swiftLanguageMode(.v6)]
    )
}

let package = Package(
    name: "OspreyFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        .target(
            name: "FuzzSupport",
            dependencies: [.product(name: "OspreyCodec", package: osprey), .product(name: "OspreyDomain", package: osprey)],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        .target(
            name: "FuzzRequestSupport",
            dependencies: [.product(name: "Osprey", package: osprey), .product(name: "OspreyServer", package: osprey)],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
        fuzzTarget("FuzzFormat", []),
        fuzzTarget("FuzzJPEG", []),
        fuzzTarget("FuzzPNG", []),
        fuzzTarget("FuzzWebP", []),
        fuzzTarget("FuzzGIF", []),
        fuzzTarget("FuzzAPNG", []),
        fuzzTarget("FuzzAVIF", []),
        fuzzTarget("FuzzHEIC", []),
        fuzzTarget("FuzzJXL", []),
        fuzzTarget("FuzzSVG", []),
        fuzzTarget("FuzzTIFF", []),
        fuzzTarget("FuzzBMP", []),
        fuzzTarget("FuzzICO", []),
        fuzzTarget("FuzzProfile", ["OspreyCodec", "OspreyDomain"]),
        fuzzTarget("FuzzExif", ["OspreyCodec"]),
        fuzzTarget("FuzzHeaders", ["OspreyNetwork", "OspreyDomain"]),
        // What clients send: the request surface of osprey-server, up to the fetch.
        requestTarget("FuzzImgproxyPath"),
        requestTarget("FuzzClientHeaders"),
        requestTarget("FuzzSourceURL"),
    ]
)
