// Fetches every URL in a list with AsyncHTTPClient, 6 at a time.
// usage: FetchAHC URL_LIST
import AsyncHTTPClient
import Foundation

// Split as bytes: splitting by Character cost as much as a tenth of a client's instructions.
let urls = try String(contentsOfFile: CommandLine.arguments[1], encoding: .utf8).utf8.split(separator: UInt8(ascii: "\n"))
    .map { String(decoding: $0, as: UTF8.self) }
var configuration = HTTPClient.Configuration()
configuration.connectionPool.concurrentHTTP1ConnectionsPerHostSoftLimit = 6
let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: configuration)
let bytes = try await withThrowingTaskGroup(of: Int.self) { group in
    var next = 0, total = 0
    func add() {
        let url = urls[next]
        next += 1
        group.addTask {
            let response = try await client.execute(HTTPClientRequest(url: url), timeout: .seconds(60))
            return try await response.body.collect(upTo: 100 << 20).readableBytes
        }
    }
    while next < min(6, urls.count) { add() }
    while let count = try await group.next() {
        total += count
        if next < urls.count { add() }
    }
    return total
}
try await client.shutdown().get()
print("ahc: \(urls.count) files, \(bytes) bytes")
