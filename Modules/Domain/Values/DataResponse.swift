import Foundation

/// Bytes fetched by a ``DataLoading`` with what the server said about them.
public struct DataResponse: Sendable {
    /// The body; empty for a `304 Not Modified`.
    public var data: Data
    /// Status, headers and caching information.
    public var metadata: ResponseMetadata

    /// Creates a response.
    public init(data: Data, metadata: ResponseMetadata) {
        self.data = data
        self.metadata = metadata
    }
}

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

/// How long a response may be used without asking the server again.
public struct HTTPFreshness: Hashable, Sendable {
    /// `Cache-Control: no-store`: never write the response to disk.
    public var noStore: Bool
    /// `Cache-Control: no-cache`: revalidate before every use.
    public var noCache: Bool
    /// `Cache-Control: max-age`, in seconds.
    public var maxAge: Int?
    /// The `Expires` date.
    public var expires: Date?

    /// Creates freshness information; by default the server said nothing.
    public init(noStore: Bool = false, noCache: Bool = false, maxAge: Int? = nil, expires: Date? = nil) {
        self.noStore = noStore
        self.noCache = noCache
        self.maxAge = maxAge
        self.expires = expires
    }

    /// The moment a response received at `date` stops being fresh; `nil` when the server
    /// gave no lifetime. `max-age` wins over `Expires`, as HTTP says.
    public func freshUntil(receivedAt date: Date) -> Date? {
        if noCache { return date }
        if let maxAge { return date.addingTimeInterval(TimeInterval(maxAge)) }
        return expires
    }
}
