import Foundation
import OspreyDomain

/// Fetches `gs://bucket/object` sources (`gs://bucket/object?generation` for one generation)
/// from Google Cloud Storage's JSON API, or an emulator of it, with the token
/// ``GCSCredentials`` give, as imgproxy's `gs://` sources.
///
/// As ``S3DataLoader``'s, each request is built from the bucket, the object and the generation,
/// never from the URL's text; it follows no redirect and its address is not checked against
/// the network loader's address policy (it is the operator's own service).
///
/// ```swift
/// let network = CurlDataLoader()
/// let store = try GCSDataLoader.Store(credentials: GCSCredentials(key: serviceAccountJSON))
/// let loader = SchemeDataLoader.standard(network: network).adding(GCSDataLoader(store: store, network: network), for: "gs")
/// ```
public struct GCSDataLoader: DataLoading {
    public let store: Store
    let network: CurlDataLoader

    /// Where the JSON API answers, and what authorises requests to it.
    public struct Store: Sendable {
        /// The JSON API's base, `https://storage.googleapis.com/storage/v1` by default.
        public let endpoint: URL
        public let credentials: GCSCredentials

        /// The store at `endpoint`, or at `STORAGE_EMULATOR_HOST`'s or Google's.
        /// - Throws: ``S3DataLoader/InvalidEndpoint`` unless `endpoint` is an http or https URL with a host.
        public init(endpoint: URL? = nil, credentials: GCSCredentials,
                    environment: [String: String] = ProcessInfo.processInfo.environment) throws(S3DataLoader.InvalidEndpoint) {
            let emulator = environment["STORAGE_EMULATOR_HOST"].flatMap { $0.isEmpty ? nil : $0 }
                .map { URL(string: ($0.contains("://") ? $0 : "http://" + $0) + "/storage/v1") }
            let chosen = endpoint ?? emulator ?? URL(string: "https://storage.googleapis.com/storage/v1")
            guard let chosen, let scheme = chosen.scheme?.lowercased(), scheme == "http" || scheme == "https", chosen.host?.isEmpty == false,
                  chosen.query == nil, chosen.user == nil else {
                throw S3DataLoader.InvalidEndpoint(endpoint: endpoint?.absoluteString ?? "")
            }
            self.endpoint = chosen
            self.credentials = credentials
        }

        /// The URL the object at `location` is read from: `…/b/BUCKET/o/OBJECT?alt=media`,
        /// the object's name encoded whole (its `/` too), as the JSON API names objects.
        public func objectURL(for location: S3Location) -> URL {
            var base = endpoint.absoluteString
            while base.hasSuffix("/") { base.removeLast() }
            let object = URIEncoding.encode(location.key)
            let generation = location.versionID.map { "&generation=" + URIEncoding.encode($0) } ?? ""
            return URL(string: base + "/b/" + location.bucket + "/o/" + object + "?alt=media" + generation)!
        }
    }

    public init(store: Store, network: CurlDataLoader) {
        self.store = store
        self.network = network
    }

    /// - Throws: `DataLoadingError.refused(_:url:)` for a `gs://` URL that is not a bucket and
    ///   an object, ``GCSCredentialError`` when no token can be had, else what the transfer
    ///   throws (a missing object is `httpStatus(404, …)`).
    public func loadData(for request: DataRequest, progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> DataResponse {
        let location = try S3Location.source(request.url, scheme: "gs")
        var object = request
        object.url = store.objectURL(for: location)
        if let authorization = try await store.credentials.authorization() { object.headers["Authorization"] = authorization }
        return try await network.perform(object, sink: nil, signing: nil, toOperator: true, progress: progress)
    }
}
