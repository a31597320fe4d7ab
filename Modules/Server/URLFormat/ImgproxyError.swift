/// Why an imgproxy-style URL is refused (answered as a ``ServerError``, whose class gives the status).
public enum ImgproxyError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The path is not `/{signature}/{options…}/{source}`.
    case malformed(String)
    /// An option Osprey does not support, or one with arguments it cannot use.
    case unsupported(String)
    /// The signature does not match any configured key and salt.
    case badSignature
    /// `insecure` or `_` in place of a signature, and the server requires signed URLs.
    case unsigned
    /// The URL's `expires` time has passed (`404`, as imgproxy answers).
    case expired
    /// A format imgproxy writes and this server does not (`422`, as imgproxy answers a format
    /// it cannot save).
    case unwritableFormat(String)
    /// One of imgproxy's security options (`max_src_resolution`…) where the server does not
    /// allow them (`403`, as imgproxy answers).
    case securityOption(String)

    public var description: String {
        switch self {
        case .malformed(let reason): "malformed URL: \(reason)"
        case .unsupported(let reason): "unsupported: \(reason)"
        case .badSignature: "the signature does not match"
        case .unsigned: "unsigned URLs are not allowed"
        case .expired: "the URL has expired"
        case .unwritableFormat(let name): "no encoder writes \(name)"
        case .securityOption(let name): "security options are not allowed: \(name)"
        }
    }
}
