import Osprey

/// Which image requests are in the service, so that memory is given back once it goes idle
/// after serving (``MemoryMonitor``), not while it works.
final class RequestActivity: Sendable {
    private struct State {
        var inside = 0
        var lastEnded = ContinuousClock.now
        var servedSinceTrim = false
    }

    private let state = Locked(State())

    func begin() { state.withLock { $0.inside += 1 } }

    func end() {
        state.withLock { state in
            state.inside -= 1
            state.lastEnded = .now
            state.servedSinceTrim = true
        }
    }

    /// Whether nothing is inside, nothing has been for `quiet`, and something was served
    /// since the last time this said so.
    func becameIdle(for quiet: Duration) -> Bool {
        state.withLock { state in
            guard state.inside == 0, state.servedSinceTrim, ContinuousClock.now - state.lastEnded >= quiet else { return false }
            state.servedSinceTrim = false
            return true
        }
    }
}
