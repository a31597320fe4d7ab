import Foundation

/// What a ``DataLoading`` is asked to fetch.
public struct DataRequest: Hashable, Sendable {
    /// The resource.
    public var url: URL
    /// Extra request headers, such as `Authorization`.
    public var headers: [String: String]
    /// Validators for a conditional GET; a `304` answer then means "unchanged".
    public var validators: HTTPValidators?
    /// How urgently the bytes are wanted.
    public var priority: ImageRequest.Priority

    /// Creates a request.
    public init(url: URL, headers: [String: String] = [:], validators: HTTPValidators? = nil, priority: ImageRequest.Priority = .normal) {
        self.url = url
        self.headers = headers
        self.validators = validators
        self.priority = priority
    }
}
