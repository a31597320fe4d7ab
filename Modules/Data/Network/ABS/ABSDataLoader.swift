import Foundation
import OspreyDomain

/// Fetches `abs://container/blob` sources from Azure Blob Storage (or an emulator at an
/// endpoint given), authorised by ``ABSCredentials``, as imgproxy's `abs://` sources; a query
/// is the blob's version ID.
///
/// As ``S3DataLoader``'s, each request is built from the container, the blob and the version,
/// never from the URL's text; it follows no redirect and its address is not checked against
/// the network loader's address policy (it is the operator's own service).
///
/// ```swift
/// let network = CurlDataLoader()
/// let store = try ABSDataLoader.Store(credentials: ABSCredentials(account: "photos", key: accountKey))
/// let loader = SchemeDataLoader.standard(network: network).adding(ABSDataLoader(store: store, network: network), for: "abs")
/// ```
public struct ABSDataLoader: DataLoading {
    public let store: Store
    let network: CurlDataLoader

    /// Where the account's blob service answers, and what authorises requests to it.
    public struct Store: Sendable {
        /// `https://ACCOUNT.blob.core.windows.net` by default; an emulator's with the account
        /// in the path (`http://127.0.0.1:10000/devstoreaccount1`).
        public let endpoint: URL
        public let credentials: ABSCredentials

        /// - Throws: ``S3DataLoader/InvalidEndpoint`` unless the endpoint is an http or https URL with a host.
        public init(endpoint: URL? = nil, account: String, credentials: ABSCredentials) throws(S3DataLoader.InvalidEndpoint) {
            guard let chosen = endpoint ?? URL(string: "https://\(account).blob.core.windows.net"), let scheme = chosen.scheme?.lowercased(),
                  scheme == "http" || scheme == "https", chosen.host?.isEmpty == false, chosen.query == nil, chosen.user == nil else {
                throw S3DataLoader.InvalidEndpoint(endpoint: endpoint?.absoluteString ?? account)
            }
            self.endpoint = chosen
            self.credentials = credentials
        }

        /// The URL the blob at `location` is read from: `ENDPOINT/CONTAINER/BLOB` (`?versionid=`).
        public func blobURL(for location: S3Location) -> URL {
            var base = endpoint.absoluteString
            while base.hasSuffix("/") { base.removeLast() }
            return URL(string: base + location.path + (location.versionQuery.map { "?versionid=" + $0.dropFirst("versionId=".count) } ?? ""))!
        }
    }

    public init(store: Store, network: CurlDataLoader) {
        self.store = store
        self.network = network
    }

    /// - Throws: `DataLoadingError.refused(_:url:)` for an `abs://` URL that is not a container
    ///   and a blob, ``ABSCredentialError`` when no token can be had, else what the transfer
    ///   throws (a missing blob is `httpStatus(404, …)`).
    public func loadData(for request: DataRequest, progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> DataResponse {
        let location = try S3Location.source(request.url, scheme: "abs")
        var blob = request
        blob.url = store.blobURL(for: location)
        return try await network.perform(try await store.credentials.authorize(blob), sink: nil, signing: nil, toOperator: true, progress: progress)
    }
}
