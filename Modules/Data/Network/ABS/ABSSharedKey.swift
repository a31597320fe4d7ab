import CCrypto
import Foundation

/// Azure Storage's Shared Key signature for a blob GET (version 2015-02-21 and later): HMAC-SHA256
/// with the decoded account key over the verb, the standard headers, the canonical `x-ms-`
/// headers and the canonical resource, as Microsoft documents "Authorize with Shared Key".
struct ABSSharedKey: Sendable, Hashable {
    let account: String
    let key: [UInt8]

    /// - Throws: ``ABSCredentialError/invalidKey`` for a key that is not base64.
    init(account: String, base64Key: String) throws(ABSCredentialError) {
        guard let key = Data(base64Encoded: base64Key.trimmingCharacters(in: .whitespacesAndNewlines)), !key.isEmpty else { throw .invalidKey }
        self.account = account
        self.key = Array(key)
    }

    /// The `Authorization` value for `method` on `url` (path and query as sent) with `headers`
    /// (the request's own, names in any case).
    func authorization(method: String, url: URL, headers: [String: String]) -> String {
        let lowered = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }) { _, last in last }
        let standard = ["content-encoding", "content-language", "content-length", "content-md5", "content-type", "date",
                        "if-modified-since", "if-match", "if-none-match", "if-unmodified-since", "range"]
        var lines = [method] + standard.map { name in name == "content-length" && lowered[name] == "0" ? "" : lowered[name] ?? "" }
        let canonicalHeaders = lowered.filter { $0.key.hasPrefix("x-ms-") }.sorted { $0.key < $1.key }.map { "\($0.key):\($0.value)" }
        lines += canonicalHeaders
        let components = URLComponents(url: url, resolvingAgainstBaseURL: false)
        var resource = "/" + account + (components?.percentEncodedPath ?? url.path)
        let query = (components?.queryItems ?? []).sorted { $0.name < $1.name }
        for item in query { resource += "\n" + item.name.lowercased() + ":" + (item.value ?? "") }
        lines.append(resource)
        let message = Array(lines.joined(separator: "\n").utf8)
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        _ = HMAC(EVP_sha256(), key, Int32(key.count), message, message.count, &digest, &length)
        return "SharedKey \(account):" + Data(digest.prefix(Int(length))).base64EncodedString()
    }
}
