import CCurl
import CCurlShims
import Foundation
import OspreyDomain

/// The event loop: one thread drives every transfer through one curl multi handle.
/// Requests and cancellations reach it through a locked queue and a wake-up call.
final class TransferEngine: @unchecked Sendable {

    let configuration: CurlDataLoader.Configuration
    let sourceGuard: SourceGuard
    private let multi: UnsafeMutableRawPointer
    private let inbox = Locked(TransferInbox())
    // The loop thread's own state:
    private var active: [ObjectIdentifier: Transfer] = [:]
    private var waiting = TransferQueue()
    private var idleHandles: [UnsafeMutableRawPointer] = []
    /// Results not yet handed to their callers: delivered together after each pass over
    /// finished transfers, before the loop reads on (`resumeCallers`).
    private var finished: [(Transfer, Result<CurlCompletion, any Error>)] = []
    private let stopped = DispatchSemaphore(value: 0)
    let buffers: BodyBufferPool
    /// The header list of a request that sets no headers of its own: the default lines.
    /// Built once and shared; freed when the loop ends, after every handle that used it.
    let defaultHeaders: UnsafeMutablePointer<curl_slist>?
    /// `configuration.resolve` as libcurl's list, freed with `defaultHeaders`.
    let resolveList: UnsafeMutablePointer<curl_slist>?

    init(configuration: CurlDataLoader.Configuration, buffers: BodyBufferPool) {
        self.configuration = configuration
        sourceGuard = SourceGuard(addressPolicy: configuration.addressPolicy, sourceFilter: configuration.sourceFilter)
        self.buffers = buffers
        defaultHeaders = Self.defaultHeaderLines.reduce(nil) { curl_slist_append($0, $1.line) }
        resolveList = configuration.resolve.reduce(nil) { curl_slist_append($0, $1) }
        TransferEngine.globalInit
        multi = curl_multi_init()
        osp_curl_multi_setopt_long(multi, CURLMOPT_MAX_TOTAL_CONNECTIONS, configuration.maxConcurrentTransfers)
        osp_curl_multi_setopt_long(multi, CURLMOPT_MAX_HOST_CONNECTIONS, configuration.maxConnectionsPerHost)
        osp_curl_multi_setopt_long(multi, CURLMOPT_PIPELINING, Int(CURLPIPE_MULTIPLEX))
        // The thread keeps the engine until its loop ends, so the loader may go away on
        // the loop thread itself (in a progress callback). The engine does not keep the
        // thread: Foundation's `Thread` holds on to its closure, which would make a cycle.
        let thread = Thread { self.run() }
        thread.name = "osprey.curl"
        thread.start()
    }

    /// curl_global_init once per process, before any handle.
    private static let globalInit: Void = { _ = curl_global_init(Int(CURL_GLOBAL_DEFAULT)) }()

    /// Stops the loop, failing what is still running, and waits for the thread to end
    /// (unless called on that thread, which ends when its current pass is over).
    func shutdown() {
        let onLoop = inbox.withLock { $0.isOnLoopThread }
        if post({ $0.stopping = true }) && !onLoop { stopped.wait() }
    }

    /// Runs `request`; with a `sink` (an open file descriptor) the body is written there as
    /// it arrives instead of kept in memory, and the response's `data` is empty. A request
    /// with `signing` goes to the operator's object store: signed, following no redirect, its
    /// address not checked.
    /// A `call` goes to a service the operator configured (`ServiceCall`): with its method
    /// and body, following no redirect, its address not checked, and any status answered.
    /// A request `toOperator`'s service (an object store authorised by a header) is sent as a
    /// signed one is.
    /// A `route` sends it through a proxy; one pinned to an address follows no redirect but
    /// throws ``PinnedRedirect`` for the loader to check.
    func perform(_ request: DataRequest, sink: Int32? = nil, signing: AWSSigning? = nil, call: ServiceCall? = nil, toOperator: Bool = false,
                 route: ProxyRoute? = nil, progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> DataResponse {
        let operators = signing != nil || call != nil || toOperator
        let transfer = Transfer(request: request, progress: progress, limit: configuration.maxResponseSize, buffers: buffers, sink: sink,
                                sourceGuard: operators ? SourceGuard(addressPolicy: nil, sourceFilter: nil) : sourceGuard,
                                followsRedirects: !operators && configuration.maxRedirects > 0, signing: signing,
                                toOperator: operators, method: call?.method, payload: call?.body, route: route)
        let completion = try await withTaskCancellationHandler {
            try await withUnsafeThrowingContinuation { continuation in
                transfer.continuation = continuation
                post { $0.submitted.append(transfer) }
            }
        } onCancel: {
            post { $0.cancelled.append(transfer) }
        }
        return try CurlOutcome(request: request, completion: completion, maxRedirects: configuration.maxRedirects,
                               acceptsAnyStatus: call != nil, redirectsToCaller: route?.pinned == true).result().get()
    }

    /// Puts a change in the inbox and wakes the loop, unless a wake-up is already on its way:
    /// a thousand requests handed over at once cost one wake-up, not a thousand. False, and
    /// nothing changed, once the loop has ended. The wake-up is sent under the lock, so the
    /// loop cannot end and free its multi handle in between.
    ///
    /// A post from the loop's own thread (a progress callback's) sends none: the loop reads
    /// the inbox again before it sleeps.
    @discardableResult
    private func post(_ change: (inout TransferInbox) -> Void) -> Bool {
        inbox.withLock { inbox in
            guard !inbox.loopEnded else { return false }
            change(&inbox)
            if inbox.isOnLoopThread { return true }
            if !inbox.wakePending { curl_multi_wakeup(multi) }
            inbox.wakePending = true
            return true
        }
    }

    private func run() {
        osp_name_current_thread("osprey.curl")
        inbox.withLock { $0.loopThread = pthread_self() }
        var running: Int32 = 0
        while true {
            let (submitted, cancelled, stopping) = inbox.withLock { inbox in
                defer { inbox.submitted = []; inbox.cancelled = []; inbox.wakePending = false }
                return (inbox.submitted, inbox.cancelled, inbox.stopping)
            }
            for transfer in submitted { waiting.append(transfer) }
            for transfer in cancelled {
                transfer.isCancelled = true  // also when its submission has not arrived yet
                abort(transfer, with: CancellationError())
            }
            if stopping {
                for transfer in Array(active.values) { abort(transfer, with: CancellationError()) }
                while let transfer = waiting.popFirst() { deliver(transfer, .failure(CancellationError())) }
                for easy in idleHandles { curl_easy_cleanup(easy) }
                resumeCallers()
                inbox.withLock { $0.loopEnded = true }
                curl_multi_cleanup(multi)
                curl_slist_free_all(defaultHeaders)
                curl_slist_free_all(resolveList)
                stopped.signal()
                return
            }
            startWaiting()
            curl_multi_perform(multi, &running)
            var left: Int32 = 0
            while let message = curl_multi_info_read(multi, &left) {
                guard message.pointee.msg == CURLMSG_DONE, let easy = message.pointee.easy_handle else { continue }
                var context: UnsafeMutableRawPointer?
                osp_curl_getinfo_pointer(easy, CURLINFO_PRIVATE, &context)
                guard let context else { continue }
                let transfer = Unmanaged<Transfer>.fromOpaque(context).takeUnretainedValue()
                complete(transfer, code: message.pointee.data.result)
            }
            // Refill freed slots at once, without a round trip through the callers; a
            // started transfer has work to do, so the loop goes round again without sleeping.
            let refilled = startWaiting()
            abortStalledTransfers()
            resumeCallers()
            if !refilled { curl_multi_poll(multi, nil, 0, 100, nil) }
        }
    }

    func deliver(_ transfer: Transfer, _ result: Result<CurlCompletion, any Error>) {
        finished.append((transfer, result))
    }

    /// Resumes the callers of the transfers finished since the last call, in one go (waking
    /// the task pool once for several results costs less than once per result), and before
    /// the loop reads more: a caller resumed late holds its body's memory longer.
    private func resumeCallers() {
        for (transfer, result) in finished { transfer.finish(result) }
        finished.removeAll(keepingCapacity: true)
    }

    /// libcurl's low-speed check averages over seconds; Osprey's stall timeout means no byte
    /// at all for that long, so the loop checks it itself, after every pass: a transfer that
    /// received bytes since the last check was active now.
    private func abortStalledTransfers() {
        let now = ContinuousClock.now
        let limit = Duration.milliseconds(Int(configuration.stallTimeout * 1000))
        for transfer in active.values {
            if transfer.received != transfer.receivedAtLastCheck {
                transfer.receivedAtLastCheck = transfer.received
                transfer.lastActivity = now
            } else if now - transfer.lastActivity > limit {
                abort(transfer, with: AttemptFailure(error: .timedOut(.stall, url: transfer.urlString), retryAfter: nil))
            }
        }
    }

    /// Starts waiting transfers while the global limit allows; true when one started.
    @discardableResult
    private func startWaiting() -> Bool {
        var started = false
        while active.count < configuration.maxConcurrentTransfers, let transfer = waiting.popFirst() {
            if transfer.isCancelled {  // cancelled while waiting
                deliver(transfer, .failure(CancellationError()))
                continue
            }
            start(transfer)
            started = true
        }
        return started
    }

    private func start(_ transfer: Transfer) {
        guard let easy = idleHandles.popLast() ?? newHandle() else {
            deliver(transfer, .failure(DataLoadingError.transport("cannot create a transfer", url: transfer.urlString)))
            return
        }
        transfer.easy = easy
        transfer.lastActivity = .now
        configure(easy, for: transfer)
        active[ObjectIdentifier(transfer)] = transfer
        curl_multi_add_handle(multi, easy)
    }

    private func abort(_ transfer: Transfer, with error: any Error) {
        release(transfer)
        deliver(transfer, .failure(error))
    }

    /// Frees the transfer's handle (on this thread, where curl owns it).
    func release(_ transfer: Transfer) {
        guard active.removeValue(forKey: ObjectIdentifier(transfer)) != nil, let easy = transfer.easy else { return }
        curl_multi_remove_handle(multi, easy)
        // Nothing of this transfer's stays reachable from the handle once it is freed below.
        osp_curl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, nil)
        osp_curl_setopt_pointer(easy, CURLOPT_HTTPHEADER, nil)
        osp_curl_setopt_pointer(easy, CURLOPT_CONNECT_TO, nil)
        // Kept for the next transfer, with the options every transfer shares: it keeps its
        // buffers (and their page faults), and the next transfer sets only its own options.
        if idleHandles.count < configuration.maxConcurrentTransfers {
            idleHandles.append(easy)
        } else {
            curl_easy_cleanup(easy)
        }
        curl_slist_free_all(transfer.headerList)
        curl_slist_free_all(transfer.connectList)
        transfer.easy = nil
        transfer.headerList = nil
        transfer.connectList = nil
    }
}
