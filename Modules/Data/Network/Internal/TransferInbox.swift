import Foundation

/// What reaches the transfer engine's loop from other threads, under its lock: requests and
/// cancellations to take up, and whether the loop is stopping or has ended.
struct TransferInbox {
    var submitted: [Transfer] = []
    var cancelled: [Transfer] = []
    var stopping = false
    /// The loop has ended: nothing more is posted.
    var loopEnded = false
    /// The loop's thread, once it runs.
    var loopThread: pthread_t?
    /// The caller runs on the loop's thread.
    var isOnLoopThread: Bool { loopThread.map { pthread_equal($0, pthread_self()) != 0 } ?? false }
    /// A wake-up is on its way to the loop: later posts need not send another.
    var wakePending = false
}
