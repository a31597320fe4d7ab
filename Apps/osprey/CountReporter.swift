import Foundation

/// Progress of counted work on stderr: a redrawn bar on a terminal, a plain line per
/// tenth otherwise.
final class CountReporter {
    private let terminal = isatty(STDERR_FILENO) == 1
    private let label: String
    private var lastStep = -1

    init(label: String) { self.label = label }

    func report(done: Int, of total: Int) {
        let fraction = total > 0 ? Double(done) / Double(total) : 1
        if terminal {
            let filled = Int(fraction * 30)
            let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: 30 - filled)
            FileHandle.standardError.write(Data("\r\(label) [\(bar)] \(done)/\(total)".utf8))
        } else if Int(fraction * 10) > lastStep {
            lastStep = Int(fraction * 10)
            FileHandle.standardError.write(Data("\(label): \(done)/\(total)\n".utf8))
        }
    }

    func finish() {
        if terminal { FileHandle.standardError.write(Data("\n".utf8)) }
    }
}
