// Fetches every URL in a list with Osprey's CurlDataLoader, which runs 6 at a time.
// usage: FetchOsprey URL_LIST
import Foundation
import OspreyDomain
import OspreyNetwork

// Split as bytes: splitting by Character cost as much as a tenth of a client's instructions.
let urls = try String(contentsOfFile: CommandLine.arguments[1], encoding: .utf8).utf8.split(separator: UInt8(ascii: "\n"))
    .compactMap { URL(string: String(decoding: $0, as: UTF8.self)) }

/// Every request handed over at once, as an app would: the loader's limit paces them.
nonisolated func fetchAll(_ urls: [URL], with loader: CurlDataLoader) async throws -> Int {
    try await withThrowingTaskGroup(of: Int.self) { group in
        for url in urls {
            group.addTask { try await loader.loadData(for: DataRequest(url: url)).data.count }
        }
        var total = 0
        while let count = try await group.next() { total += count }
        return total
    }
}

let loader = CurlDataLoader(configuration: .init(maxConcurrentTransfers: 6, maxConnectionsPerHost: 6))
let bytes = try await fetchAll(urls, with: loader)
print("osprey: \(urls.count) files, \(bytes) bytes")
