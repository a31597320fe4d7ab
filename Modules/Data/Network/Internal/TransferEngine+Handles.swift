import CCurl
import CCurlShims
import Foundation
import OspreyDomain

/// The easy handles: what every transfer shares, set once on a new handle, and what each
/// transfer sets for itself.
extension TransferEngine {
    /// The content codings libcurl is asked to decode (`CURLOPT_ACCEPT_ENCODING`).
    static let acceptedEncodings = "gzip, deflate"
    static let userAgent = "Osprey/0.1 libcurl"

    /// Lines sent with every request, each unless the request sets that header itself.
    /// Prepared header lines rather than CURLOPT_USERAGENT and libcurl's own Accept-Encoding
    /// line: libcurl formats those anew for every request, about 6,500 instructions each; a
    /// prepared line costs less than half (callgrind, 300 transfers). libcurl still decodes
    /// the body, because `CURLOPT_ACCEPT_ENCODING` stays set; it only skips its own line when
    /// the list has one.
    static let defaultHeaderLines: [(name: String, line: String)] = [
        ("user-agent", "User-Agent: \(userAgent)"),
        ("accept-encoding", "Accept-Encoding: \(acceptedEncodings)"),
    ]

    /// A handle with the options every transfer shares; `configure` sets the rest.
    func newHandle() -> UnsafeMutableRawPointer? {
        guard let easy = curl_easy_init() else { return nil }
        osp_curl_setopt_string(easy, CURLOPT_PROTOCOLS_STR, "http,https")
        // Redirects: followed up to the limit, never from https down to http (per transfer).
        osp_curl_setopt_long(easy, CURLOPT_MAXREDIRS, configuration.maxRedirects)
        osp_curl_setopt_string(easy, CURLOPT_ACCEPT_ENCODING, Self.acceptedEncodings)
        osp_curl_setopt_long(easy, CURLOPT_NOSIGNAL, 1)
        // 100 KB, as the curl tool uses: fewer callbacks and reads than the 16 KB default, and
        // under glibc's 128 KB mmap threshold. libcurl allocates this buffer for each transfer;
        // at 256 KB every transfer mapped fresh pages (a quarter of the loop's page faults).
        osp_curl_setopt_long(easy, CURLOPT_BUFFERSIZE, 100 * 1024)
        osp_curl_setopt_long(easy, CURLOPT_CONNECTTIMEOUT_MS, Int(configuration.connectTimeout * 1000))
        osp_curl_setopt_long(easy, CURLOPT_TIMEOUT_MS, Int(configuration.transferTimeout * 1000))
        osp_curl_setopt_off_t(easy, CURLOPT_MAXFILESIZE_LARGE, curl_off_t(configuration.maxResponseSize))
        if let authorities = configuration.certificateAuthorities { osp_curl_setopt_string(easy, CURLOPT_CAINFO, authorities) }
        osp_curl_setopt_data_callback(easy, CURLOPT_WRITEFUNCTION) { data, size, count, context in
            let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
            let bytes = UnsafeRawBufferPointer(start: data, count: size * count)
            return transfer.receiveBody(bytes) ? size * count : 0
        }
        osp_curl_setopt_data_callback(easy, CURLOPT_HEADERFUNCTION) { data, size, count, context in
            let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
            return transfer.receiveHeader(UnsafeRawBufferPointer(start: data, count: size * count)) ? size * count : 0
        }
        if let resolveList { osp_curl_setopt_pointer(easy, CURLOPT_RESOLVE, UnsafeMutableRawPointer(resolveList)) }
        if configuration.addressPolicy != nil {
            // The address is checked where each socket is opened, after name resolution, so the
            // address checked is the address used. Through a proxy the socket is the proxy's: the
            // loader checked the address it asks the proxy for (`ProxyRoute.pinned`).
            osp_curl_setopt_opensocket_callback(easy) { context, _, address in
                let transfer = Unmanaged<Transfer>.fromOpaque(context!).takeUnretainedValue()
                guard let address else { return CURL_SOCKET_BAD }
                if transfer.route != nil { return osp_curl_open_socket(address) }
                var bytes = [UInt8](repeating: 0, count: 16)
                let count = Int(osp_curl_sockaddr_bytes(address, &bytes))
                guard let easy = transfer.easy, let ip = IPAddress(bytes: Array(bytes.prefix(count))) else { return CURL_SOCKET_BAD }
                if let refusal = transfer.sourceGuard.refusal(connectingTo: ip, easy: easy) {
                    transfer.refusal = refusal
                    return CURL_SOCKET_BAD
                }
                return osp_curl_open_socket(address)
            }
        }
        return easy
    }

    /// The options that differ between transfers, each set every time (a kept handle still
    /// holds the previous transfer's).
    func configure(_ easy: UnsafeMutableRawPointer, for transfer: Transfer) {
        let request = transfer.request
        osp_curl_setopt_string(easy, CURLOPT_URL, transfer.urlString)
        // A signed request follows no redirect: its credentials are for the store alone. One
        // pinned to a checked address leaves redirects to the loader, which checks them alike.
        osp_curl_setopt_long(easy, CURLOPT_FOLLOWLOCATION, transfer.toOperator || transfer.route?.pinned == true ? 0 : 1)
        // Only the proxy the loader chose: libcurl's reading of the environment would pass
        // the address policy by.
        if configuration.proxy != nil || configuration.addressPolicy != nil {
            osp_curl_setopt_string(easy, CURLOPT_PROXY, transfer.route?.proxy ?? "")
        }
        osp_curl_setopt_long(easy, CURLOPT_HTTPPROXYTUNNEL, transfer.route?.pinned == true ? 1 : 0)
        if let connectTo = transfer.route?.connectTo { transfer.connectList = curl_slist_append(nil, connectTo) }
        osp_curl_setopt_pointer(easy, CURLOPT_CONNECT_TO, transfer.connectList.map { UnsafeMutableRawPointer($0) })
        // Method and body set every time too: GET unless a service call says otherwise.
        // HTTPGET first: setting it clears NOBODY, which would send a HEAD as a GET.
        osp_curl_setopt_long(easy, CURLOPT_HTTPGET, 1)
        osp_curl_setopt_long(easy, CURLOPT_NOBODY, transfer.method == "HEAD" ? 1 : 0)
        if let payload = transfer.payload {
            osp_curl_setopt_off_t(easy, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(payload.count))
            if payload.isEmpty {
                osp_curl_setopt_string(easy, CURLOPT_COPYPOSTFIELDS, "")
            } else {
                _ = payload.withUnsafeBytes { osp_curl_setopt_pointer(easy, CURLOPT_COPYPOSTFIELDS, UnsafeMutableRawPointer(mutating: $0.baseAddress!)) }
            }
        }
        let custom = transfer.method.flatMap { $0 == "GET" || $0 == "HEAD" || ($0 == "POST" && transfer.payload != nil) ? nil : $0 }
        osp_curl_setopt_string(easy, CURLOPT_CUSTOMREQUEST, custom)
        osp_curl_setopt_string(easy, CURLOPT_REDIR_PROTOCOLS_STR, transfer.isHTTPS ? "https" : "http,https")
        osp_curl_setopt_pointer(easy, CURLOPT_ERRORBUFFER, transfer.errorBuffer)
        var headers = request.headers
        let signing = transfer.signing
        // Set every time: a kept handle still holds the previous transfer's signing.
        osp_curl_setopt_string(easy, CURLOPT_AWS_SIGV4, signing?.curlProvider)
        let credentials: String? = signing.map { "\($0.accessKeyID):\($0.secretAccessKey)" }
        osp_curl_setopt_string(easy, CURLOPT_USERPWD, credentials)
        osp_curl_setopt_string(easy, CURLOPT_USERAGENT, signing == nil ? nil : Self.userAgent)
        if let token = signing?.sessionToken { headers["x-amz-security-token"] = token }
        // S3 wants the payload's hash signed too; a GET's is the empty body's (libcurl 7.88 leaves it out).
        if signing?.service == "s3" { headers["x-amz-content-sha256"] = "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855" }
        if let validators = request.validators {
            if let etag = validators.etag { headers["If-None-Match"] = etag }
            if let lastModified = validators.lastModified { headers["If-Modified-Since"] = lastModified }
        }
        if headers.isEmpty {
            osp_curl_setopt_pointer(easy, CURLOPT_HTTPHEADER, defaultHeaders.map { UnsafeMutableRawPointer($0) })
        } else {
            for (name, value) in headers.sorted(by: { $0.key < $1.key }) {
                transfer.headerList = curl_slist_append(transfer.headerList, "\(name): \(value)")
            }
            let own = Set(headers.keys.lazy.map { $0.lowercased() })
            // A signed request names its agent through CURLOPT_USERAGENT: libcurl signs every
            // line of the list, and stores leave User-Agent out of what they check.
            for header in Self.defaultHeaderLines where !own.contains(header.name) && !(signing != nil && header.name == "user-agent") {
                transfer.headerList = curl_slist_append(transfer.headerList, header.line)
            }
            osp_curl_setopt_pointer(easy, CURLOPT_HTTPHEADER, transfer.headerList.map { UnsafeMutableRawPointer($0) })
        }
        let context = Unmanaged.passUnretained(transfer).toOpaque()
        osp_curl_setopt_pointer(easy, CURLOPT_PRIVATE, context)
        osp_curl_setopt_pointer(easy, CURLOPT_WRITEDATA, context)
        osp_curl_setopt_pointer(easy, CURLOPT_HEADERDATA, context)
        if let resolveList { osp_curl_setopt_pointer(easy, CURLOPT_RESOLVE, UnsafeMutableRawPointer(resolveList)) }
        if configuration.addressPolicy != nil { osp_curl_setopt_pointer(easy, CURLOPT_OPENSOCKETDATA, context) }
    }
}
