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
        /// Whether the endpoint is AWS's own for the region (``aws(region:credentials:pathStyle:)``):
        /// a bucket in another region is then asked at that region's endpoint; a store at an
        /// endpoint given keeps it and signs for the bucket's region only.
        public let isAWSRegional: Bool
        /// Bucket names that stand for access points, by ARN, or for other buckets (imgproxy's
        /// `IMGPROXY_S3_ACCESS_POINTS`): `s3://NAME/key` is then read through the access point,
        /// at its own host and region.
        public var accessPoints: [String: String] = [:]

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
            isAWSRegional = false
        }

        /// AWS S3 itself, at the region's endpoint (`https://s3.REGION.amazonaws.com`).
        public static func aws(region: String, credentials: any AWSCredentialProviding, pathStyle: Bool = true) throws(InvalidEndpoint) -> Store {
            try Store(endpoint: regionalEndpoint(region), region: region, credentials: credentials, pathStyle: pathStyle, isAWSRegional: true)
        }

        private init(endpoint: URL, region: String, credentials: any AWSCredentialProviding, pathStyle: Bool, isAWSRegional: Bool) throws(InvalidEndpoint) {
            guard endpoint.host != nil else { throw InvalidEndpoint(endpoint: endpoint.absoluteString) }
            self.endpoint = endpoint
            self.region = region
            self.credentials = credentials
            self.pathStyle = pathStyle
            self.isAWSRegional = isAWSRegional
        }

        private static func regionalEndpoint(_ region: String) -> URL {
            URL(string: "https://s3.\(region).amazonaws.com") ?? URL(string: "https://s3.amazonaws.com")!
        }

        /// The store at `endpoint`, signed with fixed credentials.
        public init(endpoint: URL, signing: AWSSigning) throws(InvalidEndpoint) {
            try self.init(endpoint: endpoint, region: signing.region,
                          credentials: AWSCredentials(accessKeyID: signing.accessKeyID, secretAccessKey: signing.secretAccessKey,
                                                      sessionToken: signing.sessionToken))
        }

        /// The URL the object at `location` is fetched from, when its bucket is in `region`
        /// (by default the store's).
        public func objectURL(for location: S3Location, in region: String? = nil) -> URL {
            url(bucket: bucket(for: location), key: location.encodedKey, query: location.versionQuery, in: region)
        }

        /// The bucket `location` is read from: its own, or the one its name stands for.
        func bucket(for location: S3Location) -> String { accessPoints[location.bucket] ?? location.bucket }

        /// The bucket's own URL, which S3 answers a HEAD on with the bucket's region.
        func bucketURL(_ bucket: String, in region: String) -> URL { url(bucket: bucket, key: "", query: nil, in: region) }

        private func url(bucket: String, key: String, query: String?, in region: String?) -> URL {
            let base = isAWSRegional && region != nil && region != self.region ? Self.regionalEndpoint(region!) : endpoint
            var components = URLComponents(url: base, resolvingAgainstBaseURL: false)!
            var prefix = components.percentEncodedPath
            while prefix.hasSuffix("/") { prefix.removeLast() }
            if pathStyle {
                components.percentEncodedPath = prefix + "/" + bucket + (key.isEmpty ? "" : "/" + key)
            } else {
                components.percentEncodedHost = bucket + "." + (components.percentEncodedHost ?? "")
                components.percentEncodedPath = prefix + "/" + key
            }
            components.percentEncodedQuery = query
            return components.url!
        }
    }

    /// An endpoint that is not an http or https URL of a store.
    public struct InvalidEndpoint: Error, Hashable, Sendable, CustomStringConvertible {
        /// The endpoint given.
        public let endpoint: String
        public var description: String { "\(endpoint) is not an http or https URL of an S3-compatible store" }
    }

    /// Buckets found in another region than the store's, and theirs.
    private let bucketRegions = Locked<[String: String]>([:])
    /// More buckets than an operator's allow-list holds: a client naming many buckets of
    /// other regions cannot grow the table without end.
    private static let bucketRegionLimit = 1_000

    /// A loader for `store`, fetching through `network`'s engine and limits.
    public init(store: Store, network: CurlDataLoader) {
        self.store = store
        self.network = network
    }

    /// - Throws: `DataLoadingError.refused(_:url:)` for an `s3://` URL that is not a bucket
    ///   and a key (`S3Location`), ``AWSCredentialError`` when no credentials can be had, else
    ///   what the transfer throws (a missing object is `httpStatus(404, …)`).
    public func loadData(for request: DataRequest, progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> DataResponse {
        let location = try S3Location.source(request.url, scheme: "s3")
        let credentials = try await store.credentials.credentials()
        if let arn = store.accessPoints[location.bucket], let point = S3AccessPoint(arn: arn) {
            var object = request
            object.url = point.url(for: location)
            return try await network.perform(object, sink: nil, signing: credentials.signing(region: point.region), progress: progress)
        }
        let bucket = store.bucket(for: location)
        let region = bucketRegions.withLock { $0[bucket] } ?? store.region
        do {
            return try await fetch(request, location, in: region, with: credentials, progress: progress)
        } catch DataLoadingError.httpStatus(let status, let url) where [301, 307, 400].contains(status) {
            // S3 answers a request signed for (or sent to) the wrong region with a redirect or
            // AuthorizationHeaderMalformed; a HEAD of the bucket names its region. Asked once.
            guard let actual = await self.region(of: bucket, askedIn: region, with: credentials), actual != region else {
                throw DataLoadingError.httpStatus(status, url: url)
            }
            bucketRegions.withLock {
                if $0.count >= Self.bucketRegionLimit { $0.removeAll() }
                $0[bucket] = actual == store.region ? nil : actual
            }
            return try await fetch(request, location, in: actual, with: credentials, progress: progress)
        }
    }

    private func fetch(_ request: DataRequest, _ location: S3Location, in region: String, with credentials: AWSCredentials,
                       progress: @escaping @Sendable (TransferProgress) -> Void) async throws -> DataResponse {
        var object = request
        object.url = store.objectURL(for: location, in: region)
        return try await network.perform(object, sink: nil, signing: credentials.signing(region: region), progress: progress)
    }

    /// The region S3 names in `x-amz-bucket-region` for a HEAD of `bucket` (it does whatever
    /// the status: 200, 301 or 403).
    private func region(of bucket: String, askedIn region: String, with credentials: AWSCredentials) async -> String? {
        let call = ServiceCall("HEAD", store.bucketURL(bucket, in: region), signing: credentials.signing(region: region))
        guard let answer = try? await network.send(call), let named = answer.metadata.headers["x-amz-bucket-region"],
              !named.isEmpty, named.count <= 64, named.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" }) else { return nil }
        return named
    }
}
