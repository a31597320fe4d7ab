import Foundation

/// How a URL becomes the source part of a cache key.
///
/// Signed URLs carry tokens that change on every request (`X-Amz-Signature`, `Expires`)
/// while the image stays the same; naming those parameters here caches the image once.
/// The fragment never reaches the server, so it is always dropped; everything else,
/// including the order of the remaining parameters, is kept as it is.
///
/// ```swift
/// var configuration = ImagePipeline.Configuration(dataLoader: loader, decoder: codec)
/// configuration.urlNormalization = URLNormalization(ignoredQueryParameters: URLNormalization.signedURLParameters)
/// ```
public struct URLNormalization: Hashable, Sendable {
    /// Query parameters left out of cache keys, compared without regard to case.
    public var ignoredQueryParameters: Set<String> {
        didSet { lowercased = Set(ignoredQueryParameters.map { $0.lowercased() }) }
    }
    private var lowercased: Set<String>

    /// The parameters of AWS S3 and CloudFront signed URLs.
    public static let signedURLParameters: Set<String> = [
        "X-Amz-Algorithm", "X-Amz-Credential", "X-Amz-Date", "X-Amz-Expires", "X-Amz-Security-Token",
        "X-Amz-Signature", "X-Amz-SignedHeaders", "Expires", "Signature", "Key-Pair-Id", "Policy",
    ]

    /// Creates a normalisation that drops `ignoredQueryParameters`.
    public init(ignoredQueryParameters: Set<String> = []) {
        self.ignoredQueryParameters = ignoredQueryParameters
        lowercased = Set(ignoredQueryParameters.map { $0.lowercased() })
    }

    /// The cache identifier of `url`.
    public func cacheIdentifier(for url: URL) -> String {
        let text = url.absoluteString
        guard text.contains("#") || (!lowercased.isEmpty && text.contains("?")),
              var components = URLComponents(url: url, resolvingAgainstBaseURL: false) else { return text }
        components.fragment = nil
        if let items = components.percentEncodedQueryItems {
            let kept = items.filter { !lowercased.contains($0.name.removingPercentEncoding?.lowercased() ?? $0.name.lowercased()) }
            components.percentEncodedQueryItems = kept.isEmpty ? nil : kept
        }
        return components.string ?? text
    }
}
