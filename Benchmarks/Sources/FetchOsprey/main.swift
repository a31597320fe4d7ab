// Fetches every URL in a list with Osprey's CurlDataLoader, 6 at a time.
// usage: FetchOsprey URL_LIST
import Foundation
import OspreyDomain
import OspreyNetwork

let urls = try String(contentsOfFile: CommandLine.arguments[1], encoding: .utf8).split(separator: "\n").compactMap { URL(string: String($0)) }
let loader = CurlDataLoader(configuration: .init(maxConcurrentTransfers: 6, maxConnectionsPerHost: 6))
let bytes = try await withThrowingTaskGroup(of: Int.self) { group in
    var next = 0, total = 0
    func add() {
        let url = urls[next]
        next += 1
        group.addTask { try await loader.loadData(for: DataRequest(url: url)).data.count }
    }
    while next < min(6, urls.count) { add() }
    while let count = try await group.next() {
        total += count
        if next < urls.count { add() }
    }
    return total
}
print("osprey: \(urls.count) files, \(bytes) bytes")
