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
    /// 100 Continue). Parsed on bytes: Foundation's trimming cost more than the transfer.
    func receiveHeader(_ line: UnsafeRawBufferPointer) -> Bool {
        lastActivity = .now
        let bytes = line.bindMemory(to: UInt8.self)
        func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0D || b == 0x0A }
        var end = bytes.count
        while end > 0 && isSpace(bytes[end - 1]) { end -= 1 }
        if end >= 5 && bytes[0] == 0x48 && bytes[1] == 0x54 && bytes[2] == 0x54 && bytes[3] == 0x50 && bytes[4] == 0x2F {  // HTTP/
            headers = [:]
            expectedLength = nil
            return true
        }
        guard let colon = bytes[0..<end].firstIndex(of: 0x3A) else { return true }
        var valueStart = colon + 1
        while valueStart < end && isSpace(bytes[valueStart]) { valueStart += 1 }
        let name = String(decoding: bytes[0..<colon].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 0x20 : $0 }, as: UTF8.self)
        let value = String(decoding: UnsafeBufferPointer(rebasing: bytes[valueStart..<end]), as: UTF8.self)
        headers[name] = value
        if name == "content-length", let length = Int64(value) {
            expectedLength = length
            // Refuse at once what the server announces as too large; a redirect's own body
            // length does not count, but its final response's does.
            if length > limit && headers["location"] == nil {
                overLimit = true
                return false
            }
            if length <= limit { body.reserve(Int(length)) }  // one block, not a doubling series
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
