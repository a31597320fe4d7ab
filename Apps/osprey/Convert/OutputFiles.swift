import Foundation
import OspreyPrograms
import OspreyDomain

/// Writes outputs under a temporary name beside their place and renames them into it, so a
/// reader never sees half a file; when the run is interrupted, the files still being written
/// are removed (``removeUnfinished()``), so none is left behind either.
final class OutputFiles: Sendable {
    struct WriteError: Error {
        let reason: String
    }

    private struct State {
        var unfinished: Set<String> = []
        var stopping = false
        var counter = 0
    }

    private let state = LockedValue(State())

    /// Writes `data` to `path`, creating its folder, replacing a file already there.
    func write(_ data: Data, to path: String) throws(WriteError) {
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent()
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw WriteError(reason: fileErrorReason(error))
        }
        let temporary: String? = state.withLock { state in
            guard !state.stopping else { return nil }
            state.counter += 1
            let name = folder.appendingPathComponent(".\(url.lastPathComponent).osprey-\(getpid())-\(state.counter)").path
            state.unfinished.insert(name)
            return name
        }
        guard let temporary else { throw WriteError(reason: "the run was interrupted") }
        do {
            try data.write(to: URL(fileURLWithPath: temporary))
        } catch {
            state.withLock { _ = $0.unfinished.remove(temporary) }
            unlink(temporary)
            throw WriteError(reason: fileErrorReason(error))
        }
        // Renamed under the lock, so an interruption sees the file either unfinished or in place.
        let renamed: Int32 = state.withLock { state in
            state.unfinished.remove(temporary)
            return rename(temporary, path) == 0 ? 0 : errno
        }
        if renamed != 0 {
            unlink(temporary)
            throw WriteError(reason: String(cString: strerror(renamed)))
        }
    }

    /// Removes every file still being written and refuses new ones.
    func removeUnfinished() {
        state.withLock { state in
            state.stopping = true
            for path in state.unfinished { unlink(path) }
            state.unfinished = []
        }
    }
}
