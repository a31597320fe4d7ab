import Dispatch
import Foundation

/// The cache's own threads for file work that may block for long: writes, renames, folder
/// creation and deletions run here rather than on Swift's cooperative pool, and never under
/// the index lock.
struct FileWork: Sendable {
    private let queue = DispatchQueue(label: "osprey.disk-cache.files", attributes: .concurrent)

    /// Runs `body` on the cache's file threads and returns its result.
    func run<T: Sendable>(_ body: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            queue.async { continuation.resume(with: Result(catching: body)) }
        }
    }

    /// Deletes cache files whose rows are gone; a file already missing is no failure.
    static func delete(_ files: [String], in paths: Paths) {
        for file in files { try? FileManager.default.removeItem(at: paths.file(file)) }
    }
}
