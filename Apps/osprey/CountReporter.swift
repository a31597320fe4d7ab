import Foundation
import OspreyPrograms
import OspreyDomain

/// Progress of counted work on stderr: a redrawn bar on a terminal, a plain line per
/// tenth otherwise. Safe to call from concurrent tasks.
final class CountReporter: Sendable {
    private let terminal = isatty(STDERR_FILENO) == 1
    private let label: String
    private let state = LockedValue((done: 0, lastStep: -1))

    init(label: String) { self.label = label }

    /// One more item of `total` is done.
    func advance(of total: Int) {
        let done = state.withLock { state in
            state.done += 1
            return state.done
        }
        report(done: done, of: total)
    }

    func report(done: Int, of total: Int) {
        let fraction = total > 0 ? Double(done) / Double(total) : 1
        if terminal {
            let filled = Int(fraction * 30)
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 30 - filled)
            FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(done)/\(total)".utf8))
        } else if state.withLock({ state in
            defer { state.lastStep = max(state.lastStep, Int(fraction * 10)) }
            return Int(fraction * 10) > state.lastStep
        }) {
            FileHandle.standardError.write(Data("\(label): \(done)/\(total)\n".utf8))
        }
    }

    func finish() {
        if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
