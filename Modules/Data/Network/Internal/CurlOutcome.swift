import CCurl
import Foundation
import OspreyDomain

/// Turns a finished transfer into a response or a typed error.
struct CurlOutcome {
    let transfer: Transfer
    let code: CURLcode
    let status: Int
    let finalURL: URL
    let redirectURL: String?
    let maxRedirects: Int

    func result() -> Result<DataResponse, any Error> {
        let url = transfer.request.url.absoluteString
        let headers = transfer.headers
        let retryAfter = HTTPHeaderParser.retryAfter(headers["retry-after"])
        func failure(_ error: DataLoadingError) -> Result<DataResponse, any Error> {
            .failure(AttemptFailure(error: error, retryAfter: retryAfter))
        }
        if transfer.overLimit { return failure(.responseTooLarge(limit: transfer.limit, url: url)) }
        switch code {
        case CURLE_OK:
            let metadata = ResponseMetadata(
                url: finalURL, statusCode: status, headers: headers,
                freshness: HTTPHeaderParser.freshness(cacheControl: headers["cache-control"], expires: headers["expires"])
            )
            if status == 304 && transfer.request.validators != nil { return .success(DataResponse(data: Data(), metadata: metadata)) }
            guard (200..<300).contains(status) else { return failure(.httpStatus(status, url: url)) }
            return .success(DataResponse(data: transfer.body.takeData(), metadata: metadata))
        case CURLE_PARTIAL_FILE:
            return failure(.truncated(received: Int64(transfer.body.count), expected: transfer.expectedLength ?? -1, url: url))
        case CURLE_OPERATION_TIMEDOUT:
            let message = transfer.errorMessage.lowercased()
            if message.contains("too slow") { return failure(.timedOut(.stall, url: url)) }
            if message.contains("connect") || status == 0 && transfer.body.count == 0 && transfer.headers.isEmpty {
                return failure(.timedOut(.connect, url: url))
            }
            return failure(.timedOut(.transfer, url: url))
        case CURLE_COULDNT_CONNECT, CURLE_COULDNT_RESOLVE_HOST, CURLE_COULDNT_RESOLVE_PROXY, CURLE_GOT_NOTHING,
             CURLE_RECV_ERROR, CURLE_SEND_ERROR, CURLE_SSL_CONNECT_ERROR:
            return failure(.connectionFailed(url: url, reason: reason))
        case CURLE_TOO_MANY_REDIRECTS:
            return failure(.tooManyRedirects(limit: maxRedirects, url: url))
        case CURLE_UNSUPPORTED_PROTOCOL:
            if let redirectURL { return failure(.insecureRedirect(from: url, to: redirectURL)) }
            return failure(.unsupportedScheme(transfer.request.url.scheme ?? "", url: url))
        case CURLE_FILESIZE_EXCEEDED:
            return failure(.responseTooLarge(limit: transfer.limit, url: url))
        default:
            return failure(.transport(reason, url: url))
        }
    }

    private var reason: String {
        let message = transfer.errorMessage
        return message.isEmpty ? String(cString: curl_easy_strerror(code)) : message
    }
}
