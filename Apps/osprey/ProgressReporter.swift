import Foundation
import OspreyPrograms
import OspreyDomain

/// Progress on stderr: a redrawn bar on a terminal, a plain line per tenth otherwise.
final class ProgressReporter: Sendable {
    private let terminal = isatty(STDERR_FILENO) == 1
    private let lastStep = LockedValue(-1)

    func report(_ progress: TransferProgress) {
        let step = Int((progress.fraction ?? 0) * 10)
        if terminal {
            let width = 30
            let filled = Int((progress.fraction ?? 0) * Double(width))
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
            FileHandle.standardError.write(Data("\r[\(bar)] \(progress)".utf8))
        } else if lastStep.withLock({ last in defer { last = step }; return step > last }) {
            FileHandle.standardError.write(Data("progress: \(progress)\n".utf8))
        }
    }

    func finish() {
        if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
