import Foundation

/// A task executor that runs each job on a thread of its own: image work is CPU-bound and
/// synchronous, so it must not sit on one of Swift's cooperative threads (one per core,
/// which it would take from the awaiting work of others) nor on Dispatch's global queue (as
/// wide as the cores too, and filled by others' blocking work). A thread costs tens of
/// microseconds; a decode, milliseconds.
///
/// Work runs inside its task, so `Task.isCancelled` answers there: a decoder or processor
/// that checks it between rows stops soon after the caller leaves.
final class WorkerThreads: TaskExecutor {
    static let shared = WorkerThreads()

    func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        let executor = asUnownedTaskExecutor()
        Thread { job.runSynchronously(on: executor) }.start()
    }
}
