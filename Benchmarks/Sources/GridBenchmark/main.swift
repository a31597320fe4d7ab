// Loads a grid of images through Osprey's default pipeline, once or several times in one
// process, and prints one JSON line per pass: its time, the tiers that answered and the
// bytes the decoded images hold.
// usage: GridBenchmark URL_LIST CACHE_DIR SIDE PASSES   (SIDE 0 decodes at full size)
import Foundation
import Osprey

let arguments = CommandLine.arguments
let urls = try String(contentsOfFile: arguments[1], encoding: .utf8).split(separator: "\n").compactMap { URL(string: String($0)) }
let side = Int(arguments[3])!
let passes = Int(arguments[4])!
var configuration = OspreyConfiguration(cacheDirectory: URL(fileURLWithPath: arguments[2]), diskLimit: 2_000_000_000)
configuration.memoryLimit = 1_000_000_000  // the whole thumbnail grid fits; full-size images evict each other
let pipeline = try configuration.makePipeline()
let target = side > 0 ? PixelSize(width: side, height: side) : nil

for pass in 1...passes {
    let start = ContinuousClock.now
    let responses = try await withThrowingTaskGroup(of: ImageResponse.self) { group in
        for url in urls { group.addTask { try await pipeline.image(for: ImageRequest(url: url, targetSize: target)) } }
        var responses: [ImageResponse] = []
        while let response = try await group.next() { responses.append(response) }
        return responses
    }
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    var tiers: [String: Int] = [:]
    for response in responses { tiers[response.tier.rawValue, default: 0] += 1 }
    let bytes = responses.reduce(0) { $0 + $1.image.cost }
    let tierText = tiers.sorted { $0.key < $1.key }.map { "\"\($0.key)\":\($0.value)" }.joined(separator: ",")
    print("{\"pass\":\(pass),\"seconds\":\(seconds),\"images\":\(responses.count),\"decodedBytes\":\(bytes),\"tiers\":{\(tierText)}}")
}
