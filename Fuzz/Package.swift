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
        dependencies: products.map { .product(name: $0, package: osprey) },
        swiftSettings: [.swiftLanguageMode(.v6)]
    )
}

let package = Package(
    name: "OspreyFuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "..")],
    targets: [
        fuzzTarget("FuzzFormat", ["OspreyCodec", "OspreyDomain"]),
        fuzzTarget("FuzzJPEG", ["OspreyCodec", "OspreyDomain"]),
        fuzzTarget("FuzzPNG", ["OspreyCodec", "OspreyDomain"]),
        fuzzTarget("FuzzWebP", ["OspreyCodec", "OspreyDomain"]),
        fuzzTarget("FuzzExif", ["OspreyCodec"]),
        fuzzTarget("FuzzHeaders", ["OspreyNetwork", "OspreyDomain"]),
    ]
)
