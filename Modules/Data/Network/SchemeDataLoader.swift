import Foundation
import OspreyDomain

/// A `DataLoading` that hands each URL to the loader of its scheme: the default pipeline's
/// loader, with `http` and `https` to ``CurlDataLoader``, `file` to ``FileDataLoader`` and
/// `data` to ``DataURLLoader``. Add a loader for a scheme of your own with
/// ``adding(_:for:)``.
///
/// ```swift
/// let loader = SchemeDataLoader.standard(network: CurlDataLoader()).adding(AssetLoader(), for: "asset")
/// ```
public struct SchemeDataLoader: DataLoading {
    /// The loader of each scheme, lowercase.
    public private(set) var loaders: [String: any DataLoading]

    /// A loader with the given loaders by scheme.
    public init(_ loaders: [String: any DataLoading]) {
        self.loaders = Dictionary(uniqueKeysWithValues: loaders.map { ($0.key.lowercased(), $0.value) })
    }

    /// `http` and `https` through `network`, `file` (up to `maxFileSize` bytes) and `data`
    /// from the disk and the URL.
    public static func standard(network: any DataLoading, maxFileSize: Int64? = nil) -> SchemeDataLoader {
        SchemeDataLoader(["http": network, "https": network, "file": FileDataLoader(maxSize: maxFileSize), "data": DataURLLoader()])
    }

    /// This loader with `loader` for `scheme` (replacing any it had).
    public func adding(_ loader: any DataLoading, for scheme: String) -> SchemeDataLoader {
        var copy = self
        copy.loaders[scheme.lowercased()] = loader
        return copy
    }

    /// - Throws: `DataLoadingError.unsupportedScheme(_:url:)` for a scheme without a
    ///   loader, else what that scheme's loader throws.
    public func loadData(for request: DataRequest, progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> DataResponse {
        let scheme = request.url.scheme?.lowercased() ?? ""
        guard let loader = loaders[scheme] else { throw DataLoadingError.unsupportedScheme(scheme, url: request.url.absoluteString) }
        return try await loader.loadData(for: request, progress: progress)
    }
}
