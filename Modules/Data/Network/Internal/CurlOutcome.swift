import CCurl
import Foundation
import OspreyDomain

/// Turns a finished transfer into a response or a typed error, on the caller's task.
struct CurlOutcome {
    let request: DataRequest
    let completion: CurlCompletion
    let maxRedirects: Int
    /// A service call's answer is the caller's to read whatever its status.
    var acceptsAnyStatus = false
    /// A redirect is the loader's to follow (the transfer was pinned to a checked address).
    var redirectsToCaller = false

    func result() -> Result<DataResponse, any Error> {
        let url = request.url.absoluteString
        let headers = HTTPHeaderParser.fields(in: completion.headerBlock)
        let retryAfter = HTTPHeaderParser.retryAfter(headers["retry-after"])
        func failure(_ error: DataLoadingError) -> Result<DataResponse, any Error> {
            .failure(AttemptFailure(error: error, retryAfter: retryAfter))
        }
        if completion.code != CURLE_OK {
            if let refusal = completion.refusal { return failure(.refused(refusal, url: url)) }
            if let target = completion.insecureRedirectTarget { return failure(.insecureRedirect(from: url, to: target)) }
        }
        if completion.overLimit { return failure(.responseTooLarge(limit: completion.limit, url: url)) }
        if completion.writeFailure != 0 {  // the disk's failure, not the server's: not retried
            return .failure(CurlDataLoader.WriteError(reason: String(cString: strerror(completion.writeFailure))))
        }
        let status = completion.status
        switch completion.code {
        case CURLE_OK:
            let metadata = ResponseMetadata(
                url: finalURL, statusCode: status, headers: headers,
                freshness: HTTPHeaderParser.freshness(cacheControl: headers["cache-control"], expires: headers["expires"])
            )
            if status == 304 && request.validators != nil { return .success(DataResponse(data: Data(), metadata: metadata)) }
            if redirectsToCaller, (300..<400).contains(status), status != 304, let target = completion.redirectURL {
                return .failure(PinnedRedirect(target: target))
            }
            guard (200..<300).contains(status) || acceptsAnyStatus else { return failure(.httpStatus(status, url: url)) }
            return .success(DataResponse(data: completion.body, metadata: metadata))
        case CURLE_PARTIAL_FILE:
            return failure(.truncated(received: Int64(completion.bodyLength), expected: completion.expectedLength ?? -1, url: url))
        case CURLE_OPERATION_TIMEDOUT:
            let message = completion.errorMessage.lowercased()
            if message.contains("too slow") { return failure(.timedOut(.stall, url: url)) }
            if message.contains("connect") || status == 0 && completion.bodyLength == 0 && headers.isEmpty {
                return failure(.timedOut(.connect, url: url))
            }
            return failure(.timedOut(.transfer, url: url))
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_GOT_NOTHING,
             CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_SSL_CONNECT_ERROR:
            return failure(.connectionFailed(url: url, reason: reason))
        case CURLE_TOO_MANY_REDIRECTS:
            return failure(.tooManyRedirects(limit: maxRedirects, url: url))
        case CURLE_UNSUPPORTED_PROTOCOL:
            // A redirect to a scheme the request may not follow (https down to http): libcurl
            // stops before it, so the target is the last response's Location.
            if let target = completion.redirectURL ?? headers["location"].flatMap({ URL(string: $0, relativeTo: finalURL)?.absoluteString }) {
                return failure(.insecureRedirect(from: url, to: target))
            }
            return failure(.unsupportedScheme(request.url.scheme ?? "", url: url))
        case CURLE_PEER_FAILED_VERIFICATION:
            return failure(.untrustedServer(url: url, reason: reason))
        case CURLE_FILESIZE_EXCEEDED:
            return failure(.responseTooLarge(limit: completion.limit, url: url))
        default:
            return failure(.transport(reason, url: url))
        }
    }

    /// The URL the response came from: the request's own unless a redirect was followed.
    private var finalURL: URL {
        guard let effective = completion.effectiveURL else { return request.url }
        return URL(string: effective) ?? request.url
    }

    private var reason: String {
        completion.errorMessage.isEmpty ? String(cString: curl_easy_strerror(completion.code)) : completion.errorMessage
    }
}
