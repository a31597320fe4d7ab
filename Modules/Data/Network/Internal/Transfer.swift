import CCurl
import Foundation
import OspreyDomain

/// One request's state while libcurl runs it. Touched only on the engine's thread once
/// submitted, so `@unchecked Sendable` is sound.
final class Transfer: @unchecked Sendable {
    let request: DataRequest
    let progress: @Sendable (TransferProgress) -> Void
    let limit: Int64
    var continuation: CheckedContinuation<DataResponse, any Error>?
    var easy: UnsafeMutableRawPointer?
    var headerList: UnsafeMutablePointer<curl_slist>?
    let errorBuffer = UnsafeMutablePointer<CChar>.allocate(capacity: Int(CURL_ERROR_SIZE) + 1)

    let body: BodyBuffer
    var headers: [String: String] = [:]
    var expectedLength: Int64?
    var overLimit = false
    var isCancelled = false
    /// When a byte (of header or body) last arrived; the stall timer runs from here.
    var lastActivity = ContinuousClock.now

    init(request: DataRequest, progress: @escaping @Sendable (TransferProgress) -> Void, limit: Int64, buffers: BodyBufferPool) {
        self.request = request
        self.body = BodyBuffer(pool: buffers)
        self.progress = progress
        self.limit = limit
        errorBuffer.initialize(to: 0)
    }

    deinit { errorBuffer.deallocate() }

    /// Resumes the caller once; later calls do nothing.
    func finish(_ result: Result<DataResponse, any Error>) {
        guard let continuation else { return }
        self.continuation = nil
        continuation.resume(with: result)
    }

    var errorMessage: String { String(cString: errorBuffer) }

    /// A header line, as raw bytes: a status line starts a new block (a redirect, or
    /// 100 Continue).
    func receiveHeader(_ line: UnsafeRawBufferPointer) -> Bool {
        lastActivity = .now
        switch HTTPHeaderParser.headerLine(line) {
        case .statusLine:
            headers = [:]
            expectedLength = nil
        case .field(let name, let value):
            headers[name] = value
            guard name == "content-length" else { return true }
            guard let length = HTTPHeaderParser.contentLength(value) else { return true }
            expectedLength = length
            // Refuse at once what the server announces as too large; a redirect's own body
            // length does not count, but its final response's does.
            if length > limit && headers["location"] == nil {
                overLimit = true
                return false
            }
            if length <= limit { body.reserve(Int(length)) }  // one block, not a doubling series
        case .other:
            break
        }
        return true
    }

    /// Body bytes: appended within the limit, with progress.
    func receiveBody(_ bytes: UnsafeRawBufferPointer) -> Bool {
        lastActivity = .now
        guard Int64(body.count + bytes.count) <= limit else {
            overLimit = true
            return false
        }
        body.append(bytes)
        progress(TransferProgress(completed: Int64(body.count), expected: expectedLength))
        return true
    }
}
