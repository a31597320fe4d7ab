// Fetches every URL in a list with FoundationNetworking's URLSession, 6 at a time.
// usage: FetchURLSession URL_LIST
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// Split as bytes: splitting by Character cost as much as a tenth of a client's instructions.
let urls = try String(contentsOfFile: CommandLine.arguments[1], encoding: .utf8).utf8.split(separator: UInt8(ascii: "\n"))
    .compactMap { URL(string: String(decoding: $0, as: UTF8.self)) }
let configuration = URLSessionConfiguration.ephemeral
configuration.httpMaximumConnectionsPerHost = 6
let session = URLSession(configuration: configuration)
let bytes = try await withThrowingTaskGroup(of: Int.self) { group in
    var next = 0, total = 0
    func add() {
        let url = urls[next]
        next += 1
        group.addTask { try await session.data(from: url).0.count }
    }
    while next < min(6, urls.count) { add() }
    while let count = try await group.next() {
        total += count
        if next < urls.count { add() }
    }
    return total
}
print("urlsession: \(urls.count) files, \(bytes) bytes")
