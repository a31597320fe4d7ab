import Foundation

/// What a server said about a response.
public struct ResponseMetadata: Hashable, Sendable {
    /// The URL that answered, after redirects.
    public var url: URL
    /// The HTTP status code.
    public var statusCode: Int
    /// Response headers, names lowercased.
    public var headers: [String: String]
    /// `Cache-Control` and `Expires`, parsed.
    public var freshness: HTTPFreshness

    /// Creates metadata; header names are lowercased.
    public init(url: URL, statusCode: Int, headers: [String: String] = [:], freshness: HTTPFreshness = HTTPFreshness()) {
        self.url = url
        self.statusCode = statusCode
        // Loaders hand over names already lowercased (HTTP's are ASCII): kept as they are then.
        let lowercase = headers.keys.allSatisfy(Self.isLowercaseASCII)
        self.headers = lowercase ? headers : Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { _, last in last })
        self.freshness = freshness
    }

    /// Whether a name is ASCII without capitals, read through its contiguous bytes: this runs
    /// for every response, and the generic UTF-8 view made the initialiser cost twice as much
    /// (callgrind: about 2,900 instructions a response, 1,600 this way).
    private static func isLowercaseASCII(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in !bytes.contains { $0 >= 0x80 || (0x41...0x5A).contains($0) } }
    }

    /// `true` for `304 Not Modified`.
    public var isNotModified: Bool { statusCode == 304 }

    /// The `ETag` and `Last-Modified` validators, if the server sent either.
    public var validators: HTTPValidators? {
        HTTPValidators(etag: headers["etag"], lastModified: headers["last-modified"])
    }
}
