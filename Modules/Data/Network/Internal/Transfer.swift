import CCurl
import Foundation
import OspreyDomain

/// One request's state while libcurl runs it. Touched only on the engine's thread once
/// submitted, so `@unchecked Sendable` is sound.
final class Transfer: @unchecked Sendable {
    let request: DataRequest
    /// The request's URL as text and whether it is https, worked out on the caller's thread.
    let urlString: String
    let isHTTPS: Bool
    let progress: @Sendable (TransferProgress) -> Void
    let limit: Int64
    let sourceGuard: SourceGuard
    /// Whether libcurl follows redirects for this transfer (their targets are checked first).
    let followsRedirects: Bool
    /// The credentials an object store's request is signed with.
    let signing: AWSSigning?
    /// Whether the request goes to the operator's own service (signed, a `ServiceCall`, or an
    /// object store's): no redirect followed, no address checked.
    let toOperator: Bool
    /// A service call's method and body (`ServiceCall`); `nil` for a GET.
    let method: String?
    let payload: Data?
    /// The proxy the request goes through, if any.
    let route: ProxyRoute?
    /// The route's `CURLOPT_CONNECT_TO` list, freed with the transfer's handle.
    var connectList: UnsafeMutablePointer<curl_slist>?
    var continuation: UnsafeContinuation<CurlCompletion, any Error>?
    var easy: UnsafeMutableRawPointer?
    var headerList: UnsafeMutablePointer<curl_slist>?
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    let body: BodyBuffer
    /// A file descriptor the body is written to as it arrives, instead of `body`.
    let sink: Int32?
    /// Body bytes received (in `body`, or written to `sink`).
    var bodyLength = 0
    /// The errno of a failed write to `sink`, 0 while none failed.
    var writeFailure: Int32 = 0
    /// The raw header lines of the latest response block, read on the caller's task.
    var headerBlock: [UInt8] = []
    var expectedLength: Int64?
    /// The block so far has a `Location` field (a redirect's own length is not the body's).
    var hasLocation = false
    /// The status of the latest response block.
    var blockStatus = 0
    /// Why a connection or a redirect was refused: the transfer then fails with it.
    var refusal: SourceRefusal?
    /// A redirect from https to http, stopped before libcurl followed it.
    var insecureRedirectTarget: String?
    var overLimit = false
    var isCancelled = false
    /// Bytes of header and body received so far; the loop compares it between its passes.
    var received = 0
    /// What `received` was when the loop last saw it change, and when that was: the stall
    /// timer runs from there. The callbacks only count (a clock read per header line and per
    /// read was a tenth of their cost); the loop reads the clock once per pass.
    var receivedAtLastCheck = 0
    var lastActivity = ContinuousClock.now

    init(request: DataRequest, progress: @escaping @Sendable (TransferProgress) -> Void, limit: Int64, buffers: BodyBufferPool,
         sink: Int32? = nil, sourceGuard: SourceGuard, followsRedirects: Bool, signing: AWSSigning? = nil,
         toOperator: Bool = false, method: String? = nil, payload: Data? = nil, route: ProxyRoute? = nil) {
        self.sink = sink
        self.route = route
        self.toOperator = toOperator
        self.signing = signing
        self.method = method
        self.payload = payload
        self.sourceGuard = sourceGuard
        self.followsRedirects = followsRedirects
        self.request = request
        urlString = request.url.absoluteString
        isHTTPS = request.url.scheme?.lowercased() == "https"
        self.body = BodyBuffer(pool: buffers)
        self.progress = progress
        self.limit = limit
        errorBuffer.initialize(to: 0)
    }

    deinit { errorBuffer.deallocate() }

    /// Resumes the caller once; later calls do nothing.
    func finish(_ result: Result<CurlCompletion, any Error>) {
        guard let continuation else { return }
        self.continuation = nil
        continuation.resume(with: result)
    }

    var errorMessage: String { String(cString: errorBuffer) }

    /// A header line, as raw bytes: kept for the caller, and read here only for what the
    /// loop acts on (`Content-Length`, a redirect's `Location`). A status line starts a
    /// new block (a redirect, or 100 Continue).
    func receiveHeader(_ line: UnsafeRawBufferPointer) -> Bool {
        received &+= line.count
        if HTTPHeaderParser.isStatusLine(line) {
            headerBlock.removeAll(keepingCapacity: true)
            expectedLength = nil
            hasLocation = false
            blockStatus = HTTPHeaderParser.statusCode(line) ?? 0
        }
        if headerBlock.capacity == 0 { headerBlock.reserveCapacity(512) }  // one allocation for a typical block, not five
        headerBlock.append(contentsOf: line.bindMemory(to: UInt8.self))
        if let location = HTTPHeaderParser.value(ofField: "location", in: line) {
            hasLocation = true
            if followsRedirects, (300..<400).contains(blockStatus), blockStatus != 304, !mayFollow(location) { return false }
        }
        guard let value = HTTPHeaderParser.value(ofField: "content-length", in: line),
              let length = HTTPHeaderParser.contentLength(value) else { return true }
        expectedLength = length
        // Refuse at once what the server announces as too large; a redirect's own body
        // length does not count, but its final response's does.
        if length > limit && !hasLocation {
            overLimit = true
            return false
        }
        // Memory follows the bytes that arrive, not what a server announces: a first block of
        // at most 64 KiB, then doubling up to the announced length.
        if length <= limit && sink == nil { body.reserve(Int(min(length, 64 << 10))) }
        return true
    }

    /// Whether libcurl may follow a redirect to `location`; if not, why is kept.
    private func mayFollow(_ location: UnsafeRawBufferPointer) -> Bool {
        guard let easy else { return false }
        switch sourceGuard.verdict(forRedirectTo: String(decoding: location, as: UTF8.self), easy: easy) {
        case .follow: return true
        case .refuse(let reason): refusal = reason
        case .insecure(let target): insecureRedirectTarget = target
        }
        return false
    }

    /// Body bytes: appended (or written to the sink) within the limit, with progress.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        received &+= bytes.count
        guard Int64(bodyLength + bytes.count) <= limit else {
            overLimit = true
            return false
        }
        if let sink {
            guard Self.write(bytes, to: sink, failure: &writeFailure) else { return false }
        } else {
            body.append(bytes, expected: expectedLength.map { Int($0) })
        }
        bodyLength += bytes.count
        progress(TransferProgress(completed: Int64(bodyLength), expected: expectedLength))
        return true
    }

    /// Writes all of `bytes` to `fd`; `false` with the errno in `failure` when it cannot.
    private static func write(_ bytes: UnsafeRawBufferPointer, to fd: Int32, failure: inout Int32) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let written = Foundation.write(fd, bytes.baseAddress! + offset, bytes.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                failure = errno
                return false
            }
            offset += written
        }
        return true
    }
}
