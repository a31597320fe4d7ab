import Foundation
import OspreyDomain
import OspreyPrograms

/// A batch's progress on a terminal's stderr: a bar redrawn at most ten times a second, with
/// images per second and the time left. Nothing when stderr is not a terminal.
final class BatchProgress: Sendable {
    private struct State {
        var done = 0
        var lastDrawn = ContinuousClock.now - .seconds(1)
    }

    private let total: Int
    private let started = ContinuousClock.now
    private let terminal = isatty(STDERR_FILENO) == 1
    private let state = LockedValue(State())

    init(total: Int) { self.total = total }

    /// One more input finished (written, skipped or failed).
    func advance() {
        guard terminal else { return }
        let line: String? = state.withLock { state in
            state.done += 1
            let now = ContinuousClock.now
            guard state.done == total || now - state.lastDrawn >= .milliseconds(100) else { return nil }
            state.lastDrawn = now
            return Self.line(done: state.done, total: total, elapsed: now - started)
        }
        if let line { FileHandle.standardError.write(Data(("\r" + line).utf8)) }
    }

    /// Ends the bar's line.
    func finish() {
        if terminal, total > 0 { FileHandle.standardError.write(Data("\n".utf8)) }
    }

    /// `[##########----------] 37/100 images, 12.3/s, 0:05 left`
    static func line(done: Int, total: Int, elapsed: Duration) -> String {
        let width = 20
        let filled = total == 0 ? width : done * width / total
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        let rate = seconds > 0 ? Double(done) / seconds : 0
        let left = rate > 0 ? Int((Double(total - done) / rate).rounded(.up)) : 0
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        return "[\(bar)] \(done)/\(total) images, \(String(format: "%.1f", rate))/s, \(left / 60):\(String(format: "%02d", left % 60)) left"
    }
}
