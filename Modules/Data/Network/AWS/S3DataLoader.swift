import Foundation
import OspreyDomain

/// Fetches `s3://bucket/key` sources (`s3://bucket/key?version` for an object's version) from
/// AWS S3 or a store speaking its API (MinIO, Ceph, R2…), with requests signed by Signature
/// Version 4 with the credentials a provider gives (fixed keys, or an ``AWSCredentialChain``),
/// as imgproxy's `s3://` sources.
///
/// Each request is built from the bucket, the key and the version (`S3Location`), never from
/// the URL's text, and signed because it is built here: a URL of any other scheme, the store's
/// own address included, is just another URL to the loader that fetches it. A signed request
/// follows no redirect, and the store's address is not checked against the network loader's
/// ``CurlDataLoader/Configuration/addressPolicy`` (it is the operator's own service).
///
/// ```swift
/// let network = CurlDataLoader()
/// let store = try S3DataLoader.Store(endpoint: URL(string: "https://s3.eu-west-1.amazonaws.com")!, region: "eu-west-1",
///                                    credentials: try AWSCredentialChain())
/// let loader = SchemeDataLoader.standard(network: network).adding(S3DataLoader(store: store, network: network), for: "s3")
/// ```
public struct S3DataLoader: DataLoading {
    /// The store: where it answers and the credentials its requests are signed with.
    public let store: Store
    let network: CurlDataLoader

    /// Where an S3-compatible store answers, its region, how buckets are addressed, and what
    /// gives the credentials every request to it is signed with.
    public struct Store: Sendable {
        /// An http or https URL with a host, and a path prefix if any.
        public let endpoint: URL
        /// The region requests are signed for.
        public let region: String
        public let credentials: any AWSCredentialProviding
        /// `true`: the bucket is the path's first segment (`https://host/bucket/key`), as
        /// imgproxy's `IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE` defaults to; `false`: the bucket
        /// is the host's first label (`https://bucket.host/key`).
        public let pathStyle: Bool

        /// The store at `endpoint`.
        /// - Throws: ``InvalidEndpoint`` unless `endpoint` is an http or https URL with a host,
        ///   and nothing else than an optional port and path.
        public init(endpoint: URL, region: String, credentials: any AWSCredentialProviding, pathStyle: Bool = true) throws(InvalidEndpoint) {
            guard let scheme = endpoint.scheme?.lowercased(), scheme == "http" || scheme == "https", let host = endpoint.host,
                  !host.isEmpty, endpoint.user == nil, endpoint.password == nil, endpoint.query == nil, endpoint.fragment == nil else {
                throw InvalidEndpoint(endpoint: endpoint.absoluteString)
            }
            self.endpoint = endpoint
            self.region = region
            self.credentials = credentials
            self.pathStyle = pathStyle
        }

        /// The store at `endpoint`, signed with fixed credentials.
        public init(endpoint: URL, signing: AWSSigning) throws(InvalidEndpoint) {
            try self.init(endpoint: endpoint, region: signing.region,
                          credentials: AWSCredentials(accessKeyID: signing.accessKeyID, secretAccessKey: signing.secretAccessKey,
                                                      sessionToken: signing.sessionToken))
        }

        /// The URL the object at `location` is fetched from.
        public func objectURL(for location: S3Location) -> URL {
            var components = URLComponents(url: endpoint, resolvingAgainstBaseURL: false)!
            var prefix = components.percentEncodedPath
            while prefix.hasSuffix("/") { prefix.removeLast() }
            if pathStyle {
                components.percentEncodedPath = prefix + location.path
            } else {
                components.percentEncodedHost = location.bucket + "." + (components.percentEncodedHost ?? "")
                components.percentEncodedPath = prefix + "/" + location.encodedKey
            }
            components.percentEncodedQuery = location.versionQuery
            return components.url!
        }
    }

    /// An endpoint that is not an http or https URL of a store.
    public struct InvalidEndpoint: Error, Hashable, Sendable, CustomStringConvertible {
        /// The endpoint given.
        public let endpoint: String
        public var description: String { "\(endpoint) is not an http or https URL of an S3-compatible store" }
    }

    /// A loader for `store`, fetching through `network`'s engine and limits.
    public init(store: Store, network: CurlDataLoader) {
        self.store = store
        self.network = network
    }

    /// - Throws: `DataLoadingError.refused(_:url:)` for an `s3://` URL that is not a bucket
    ///   and a key (`S3Location`), ``AWSCredentialError`` when no credentials can be had, else
    ///   what the transfer throws (a missing object is `httpStatus(404, …)`).
    public func loadData(for request: DataRequest, progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> DataResponse {
        let location: S3Location
        do {
            location = try S3Location(request.url)
        } catch {
            throw DataLoadingError.refused(error, url: request.url.absoluteString)
        }
        var object = request
        object.url = store.objectURL(for: location)
        let signing = try await store.credentials.credentials().signing(region: store.region)
        return try await network.perform(object, sink: nil, signing: signing, progress: progress)
    }
}
