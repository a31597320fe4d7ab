import CCurl
import CCurlShims
import Foundation

extension TransferEngine {
    /// A finished transfer's outcome as libcurl left it, read off its handle before the handle
    /// is freed, and handed to its caller with the others of this pass.
    func complete(_ transfer: Transfer, code: CURLcode) {
        guard let easy = transfer.easy else { return }
        var status = 0
        osp_curl_getinfo_long(easy, CURLINFO_RESPONSE_CODE, &status)
        var effective: UnsafeMutablePointer<CChar>?
        osp_curl_getinfo_string(easy, CURLINFO_EFFECTIVE_URL, &effective)
        var redirect: UnsafeMutablePointer<CChar>?
        osp_curl_getinfo_string(easy, CURLINFO_REDIRECT_URL, &redirect)
        let completion = CurlCompletion(
            code: code, status: status,
            effectiveURL: effective.flatMap { url in transfer.urlString.withCString { strcmp(url, $0) } == 0 ? nil : String(cString: url) },
            redirectURL: redirect.map { String(cString: $0) }, errorMessage: transfer.errorMessage,
            headerBlock: transfer.headerBlock, body: transfer.body.takeData(), bodyLength: transfer.bodyLength,
            expectedLength: transfer.expectedLength, overLimit: transfer.overLimit, limit: transfer.limit,
            writeFailure: transfer.writeFailure, refusal: transfer.refusal, insecureRedirectTarget: transfer.insecureRedirectTarget
        )
        release(transfer)
        deliver(transfer, .success(completion))
    }
}
