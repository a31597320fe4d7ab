// Fetches every URL in a list with Osprey's CurlDataLoader, which runs 6 at a time.
// usage: FetchOsprey URL_LIST [--on-loop | --loaders N]
// With --on-loop the callers' tasks prefer the loader's event loop as their executor
// (`CurlDataLoader.executor`); without it they run on Swift's shared pool. --loaders N is a
// diagnostic (`fetchWithLoaders`).
import Foundation
import OspreyDomain
import OspreyNetwork

// Split as bytes: splitting by Character cost as much as a tenth of a client's instructions.
let urls = try String(contentsOfFile: CommandLine.arguments[1], encoding: .utf8).utf8.split(separator: UInt8(ascii: "\n"))
    .compactMap { URL(string: String(decoding: $0, as: UTF8.self)) }
let onLoop = CommandLine.arguments.dropFirst(2).contains("--on-loop")

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

let bytes: Int
if let option = CommandLine.arguments.firstIndex(of: "--loaders"),
   let count = CommandLine.arguments.dropFirst(option + 1).first.flatMap({ Int($0) }), count > 1 {
    bytes = try await fetchWithLoaders(count)
} else {
    let loader = CurlDataLoader(configuration: .init(maxConcurrentTransfers: 6, maxConnectionsPerHost: 6))
    bytes = onLoop
        ? try await withTaskExecutorPreference(loader.executor) { try await fetchAll(urls, with: loader) }
        : try await fetchAll(urls, with: loader)
}
print("osprey: \(urls.count) files, \(bytes) bytes")

/// A diagnostic, not how Osprey runs: `count` loaders, each with its own event loop and an
/// even share of the 6 transfers, the list dealt out between them, each share's tasks on its
/// loader's loop. What a second event loop on this machine's second core would give.
nonisolated func fetchWithLoaders(_ count: Int) async throws -> Int {
    let loaders = (0..<count).map { _ in
        CurlDataLoader(configuration: .init(maxConcurrentTransfers: 6 / count, maxConnectionsPerHost: 6 / count))
    }
    return try await withThrowingTaskGroup(of: Int.self) { group in
        for (index, loader) in loaders.enumerated() {
            let share = urls.indices.filter { $0 % count == index }.map { urls[$0] }
            group.addTask { try await withTaskExecutorPreference(loader.executor) { try await fetchAll(share, with: loader) } }
        }
        return try await group.reduce(0, +)
    }
}
