import Foundation

/// An object in an object store, as an `s3://bucket/key` (or `gs://bucket/key`) URL names it: parsed once,
/// so that the request for it is built from the bucket and the key, never from the URL's
/// text, and an allow-list checks the object that will be asked for.
///
/// ```swift
/// let location = try S3Location(URL(string: "s3://photos/2026/a%20b.jpg")!)
/// location.key    // "2026/a b.jpg"
/// location.path   // "/photos/2026/a%20b.jpg": path-style, each segment percent-encoded
/// try S3Location(URL(string: "s3://photos/a.jpg?3HL4kqtJlcpXroDTDmJ")!).versionID  // "3HL4kqtJlcpXroDTDmJ", as imgproxy reads it
/// ```
public struct S3Location: Hashable, Sendable {
    /// The URL's scheme: `s3`, or another store's that names objects the same way (`gs`).
    public let scheme: String
    /// The bucket: letters, digits, `.`, `-` and `_`, starting with a letter or digit.
    public let bucket: String
    /// The object's key, percent-decoded, without the leading `/`.
    public let key: String
    /// The object's version: the URL's whole query, percent-decoded, as imgproxy reads
    /// `s3://bucket/key?version` (a generation, for `gs://`); `nil` for the latest.
    public let versionID: String?

    /// The location `url` names.
    /// - Throws: ``SourceRefusal/scheme`` for another scheme, ``SourceRefusal/credentials``
    ///   for a user name or password, ``SourceRefusal/storeURL`` for a port, an empty query, a
    ///   fragment, an empty or odd bucket, an empty key, or a `.` or `..` segment in the key
    ///   (encoded ones included): a store, or the HTTP library on the way, could read it as
    ///   another object or another operation.
    public init(_ url: URL, scheme: String = "s3") throws(SourceRefusal) {
        guard url.scheme?.lowercased() == scheme else { throw .scheme }
        self.scheme = scheme
        guard url.user == nil, url.password == nil else { throw .credentials }
        guard url.port == nil, url.query != "", url.fragment == nil, let bucket = url.host(percentEncoded: false),
              let first = bucket.unicodeScalars.first, Self.bucketStart.contains(first),
              bucket.unicodeScalars.allSatisfy(Self.bucketCharacters.contains) else { throw .storeURL }
        let key = String(url.path(percentEncoded: false).drop { $0 == "/" })
        let segments = key.split(separator: "/", omittingEmptySubsequences: false)
        guard !key.isEmpty, !segments.contains(where: { $0 == "." || $0 == ".." }) else { throw .storeURL }
        self.bucket = bucket
        self.key = key
        versionID = url.query(percentEncoded: false)
    }

    /// The location a loader's source names, its refusal as the loader's error.
    /// - Throws: `DataLoadingError.refused(_:url:)` when `url` is not a bucket and a key.
    public static func source(_ url: URL, scheme: String) throws(DataLoadingError) -> S3Location {
        do {
            return try S3Location(url, scheme: scheme)
        } catch {
            throw .refused(error, url: url.absoluteString)
        }
    }

    /// The path-style request path, `/bucket/key`, with every key segment percent-encoded
    /// but for RFC 3986's unreserved characters, as S3's signature encodes it.
    public var path: String {
        "/" + bucket + "/" + encodedKey
    }

    /// The path's segments after the bucket, each encoded as ``path`` encodes them.
    public var encodedKey: String {
        key.split(separator: "/", omittingEmptySubsequences: false)
            .map(URIEncoding.encode).joined(separator: "/")
    }

    /// `versionId=…` for a request of ``versionID``, encoded; `nil` for the latest version.
    public var versionQuery: String? { versionID.map { "versionId=" + URIEncoding.encode($0) } }

    /// `scheme://bucket/key` (and `?version`) encoded as ``path`` encodes them: what allow-lists compare.
    public var url: URL { URL(string: scheme + ":/" + path + (versionID.map { "?" + URIEncoding.encode($0) } ?? ""))! }

    private static let bucketStart = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
    private static let bucketCharacters = bucketStart.union(CharacterSet(charactersIn: ".-_"))
}
