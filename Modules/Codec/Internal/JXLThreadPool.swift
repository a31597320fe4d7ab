import CCodecLoader
import CJXL
import Foundation

/// libjxl's own thread pool (`libjxl_threads`, a library of its own) where it is installed;
/// without it, libjxl works on the calling thread. Destroyed with the value.
struct JXLThreadPool: ~Copyable {
    /// The pool to hand libjxl with `JxlResizableParallelRunner`, or `nil`.
    let runner: UnsafeMutableRawPointer?

    init() {
        guard osp_jxl_threads_available() != 0, let pool = JxlResizableParallelRunnerCreate(nil) else {
            runner = nil
            return
        }
        JxlResizableParallelRunnerSetThreads(pool, min(ProcessInfo.processInfo.activeProcessorCount, 4))
        runner = pool
    }

    deinit { if let runner { JxlResizableParallelRunnerDestroy(runner) } }
}
