// swift-tools-version:6.1
// A consumer of Osprey that uses only its public API, as an app would: `import Osprey`, a
// configuration preset, a fill thumbnail, processors by static members, pipeline.cache.
// `make test` builds and runs it. It does not need hiredis: the umbrella leaves Redis out.
import Foundation
import PackageDescription

// A path dependency is identified by its folder's name, which differs between clones.
let osprey = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
    .deletingLastPathComponent().lastPathComponent

let package = Package(
    name: "QuickStart",
    platforms: [.macOS(.v15)],
    dependencies: [.package(path: "../..")],
    targets: [
        .executableTarget(
            name: "QuickStart",
            dependencies: [.product(name: "Osprey", package: osprey)],
            swiftSettings: [.swiftLanguageMode(.v6)]
        ),
    ]
)
