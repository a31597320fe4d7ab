import Foundation
import OspreyDomain

/// Loads `data:` URLs (RFC 2397): `data:[type][;base64],payload`, base64 or percent-encoded.
/// The response says `no-store`: the bytes are in the URL already, so no cache keeps them.
public struct DataURLLoader: DataLoading {
    public init() {}

    /// - Throws: `DataLoadingError.malformedDataURL(reason:)`, or
    ///   `DataLoadingError.unsupportedScheme(_:url:)` for another scheme.
    public func loadData(for request: DataRequest, progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> DataResponse {
        let url = request.url
        guard url.scheme?.lowercased() == "data" else { throw DataLoadingError.unsupportedScheme(url.scheme ?? "", url: "\(url)") }
        let (type, data) = try Self.decode(url.absoluteString)
        progress(TransferProgress(completed: Int64(data.count), expected: Int64(data.count)))
        return DataResponse(data: data, metadata: ResponseMetadata(url: url, statusCode: 200,
                                                                   headers: ["content-type": type, "content-length": "\(data.count)"],
                                                                   freshness: HTTPFreshness(noStore: true)))
    }

    /// The media type (`text/plain;charset=US-ASCII` when none is given) and the bytes.
    package static func decode(_ text: String) throws(DataLoadingError) -> (type: String, data: Data) {
        guard text.lowercased().hasPrefix("data:"), let comma = text.firstIndex(of: ",") else {
            throw .malformedDataURL(reason: "no comma before the payload")
        }
        var parameters = text[text.index(text.startIndex, offsetBy: 5)..<comma].split(separator: ";", omittingEmptySubsequences: false)
        let isBase64 = parameters.last?.lowercased() == "base64"
        if isBase64 { parameters.removeLast() }
        let type = parameters.first.map { $0.isEmpty ? "text/plain" : String($0) } ?? "text/plain"
        let payload = String(text[text.index(after: comma)...])
        guard let unescaped = payload.removingPercentEncoding else { throw .malformedDataURL(reason: "bad percent-encoding") }
        if isBase64 {
            let compact = unescaped.filter { !$0.isWhitespace }
            guard let data = Data(base64Encoded: compact + String(repeating: "=", count: (4 - compact.count % 4) % 4)) else {
                throw .malformedDataURL(reason: "the payload is not base64")
            }
            return (type, data)
        }
        return (type, Data(unescaped.utf8))
    }
}
