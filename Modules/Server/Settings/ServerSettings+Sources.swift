import Foundation
import Osprey

extension ServerSettings {
    /// Which sources may be read, from where, and what answers when one fails.
    static let sources: [ServerSetting] = [
        ServerSetting("allowed-source", osprey: "ALLOWED_SOURCES", imgproxy: ["IMGPROXY_ALLOWED_SOURCES"], .list("PREFIX"),
                      "A URL prefix sources may start with, * matching any run of characters but /; repeat for more.",
                      default: { $0.service.sources.allowedPrefixes.isEmpty ? "any public URL" : nil }) {
            (input) throws(ServerSettingError) in
            input.service.sources = SourcePolicy(allowedPrefixes: input.list(), allowing: input.service.sources.addressPolicy.allowedCategories)
        },
        addresses("allow-loopback-sources", "IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES", .loopback, "a loopback address (this machine)"),
        addresses("allow-private-sources", "IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES", .private,
                  "a private address (10/8, 172.16/12, 192.168/16, 100.64/10, fc00::/7)") { input in
            input.notices.append("IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES is not set: Osprey refuses sources on private addresses, "
                                 + "where imgproxy allows them by default; set it to true to allow them")
        },
        addresses("allow-link-local-sources", "IMGPROXY_ALLOW_LINK_LOCAL_SOURCE_ADDRESSES", .linkLocal, "a link-local address (169.254/16, fe80::/10)"),
        ServerSetting("local-root", imgproxy: ["IMGPROXY_LOCAL_FILESYSTEM_ROOT"], .value("FOLDER"),
                      "The folder local:///path sources are read from; none: local sources are refused.") {
            (input) throws(ServerSettingError) in input.service.localRoot = URL(fileURLWithPath: input.text, isDirectory: true)
        },
        ServerSetting("s3-region", imgproxy: ["IMGPROXY_S3_REGION"], .value("REGION"),
                      "The S3 store's region (else AWS_REGION, AWS_DEFAULT_REGION or the AWS profile's, else us-west-1 as imgproxy's).") { _ in },
        ServerSetting("s3-endpoint-use-path-style", imgproxy: ["IMGPROXY_S3_ENDPOINT_USE_PATH_STYLE"], .toggle,
                      "S3 requests name the bucket in the path (the default); false: in the host name, bucket.endpoint.") { _ in },
        ServerSetting("s3-assume-role-arn", imgproxy: ["IMGPROXY_S3_ASSUME_ROLE_ARN"], .value("ARN"),
                      "An IAM role assumed through STS with the credentials found, for S3 requests.") { _ in },
        ServerSetting("s3-assume-role-external-id", imgproxy: ["IMGPROXY_S3_ASSUME_ROLE_EXTERNAL_ID"], .value("ID"),
                      "The external ID the role's trust policy asks for.") { _ in },
        ServerSetting("s3-endpoint", imgproxy: ["IMGPROXY_S3_ENDPOINT"], .value("URL"),
                      "An S3-compatible endpoint for s3://bucket/key sources; it may be on a loopback or private address. Credentials come as AWS's SDKs find them: AWS_ACCESS_KEY_ID, a web identity, a profile, a container or instance role.") {
            (input) throws(ServerSettingError) in if input.source != .imgproxy { try readS3(&input) }
        },
        ServerSetting("use-s3", imgproxy: ["IMGPROXY_USE_S3"], .toggle, "Read s3://bucket/key sources from AWS S3 (or --s3-endpoint).") {
            (input) throws(ServerSettingError) in if try input.bool() { try readS3(&input) }
        },
        ServerSetting("s3-allowed-bucket", osprey: "S3_ALLOWED_BUCKETS", imgproxy: ["IMGPROXY_S3_ALLOWED_BUCKETS"], .list("BUCKET"),
                      "A bucket s3:// sources may name; repeat for more.", default: { $0.service.s3AllowedBuckets.isEmpty ? "any" : nil }) {
            (input) throws(ServerSettingError) in input.service.s3AllowedBuckets = Set(input.list())
        },
        ServerSetting("s3-denied-bucket", osprey: "S3_DENIED_BUCKETS", imgproxy: ["IMGPROXY_S3_DENIED_BUCKETS"], .list("BUCKET"),
                      "A bucket s3:// sources may never name; repeat for more.") {
            (input) throws(ServerSettingError) in input.service.s3DeniedBuckets = Set(input.list())
        },
        ServerSetting("s3-access-points", imgproxy: ["IMGPROXY_S3_ACCESS_POINTS"], .value("NAME=ARN;…"),
                      "Bucket names s3:// sources may use for S3 access points (arn:aws:s3:REGION:ACCOUNT:accesspoint/NAME), or for other buckets.") {
            (input) throws(ServerSettingError) in
            var points: [String: String] = [:]
            for pair in input.text.split(separator: ";") {
                let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else { throw input.failure("\(pair): give NAME=ARN") }
                guard !parts[1].hasPrefix("arn:") || S3AccessPoint(arn: parts[1]) != nil else {
                    throw input.failure("\(parts[1]) is not an access point's ARN (arn:aws:s3:REGION:ACCOUNT:accesspoint/NAME)")
                }
                points[parts[0]] = parts[1]
            }
            input.service.s3AccessPoints = points
        },
        ServerSetting("gcs-endpoint", imgproxy: ["IMGPROXY_GCS_ENDPOINT"], .value("URL"),
                      "Google Cloud Storage's JSON API for gs://bucket/object sources (an emulator's); else STORAGE_EMULATOR_HOST's or Google's.") { _ in },
        ServerSetting("gcs-key", imgproxy: ["IMGPROXY_GCS_KEY"], .value("JSON"),
                      "A service account's JSON key for gs:// sources (it turns them on, as imgproxy's); else GOOGLE_APPLICATION_CREDENTIALS, else the metadata server.") {
            (input) throws(ServerSettingError) in if !input.text.isEmpty { try readGCS(&input) }
        },
        ServerSetting("use-gcs", imgproxy: ["IMGPROXY_USE_GCS"], .toggle, "Read gs://bucket/object sources from Google Cloud Storage.") {
            (input) throws(ServerSettingError) in if try input.bool() { try readGCS(&input) }
        },
        ServerSetting("gcs-allowed-bucket", osprey: "GCS_ALLOWED_BUCKETS", imgproxy: ["IMGPROXY_GCS_ALLOWED_BUCKETS"], .list("BUCKET"),
                      "A bucket gs:// sources may name; repeat for more.", default: { $0.service.gcsAllowedBuckets.isEmpty ? "any" : nil }) {
            (input) throws(ServerSettingError) in input.service.gcsAllowedBuckets = Set(input.list())
        },
        ServerSetting("gcs-denied-bucket", osprey: "GCS_DENIED_BUCKETS", imgproxy: ["IMGPROXY_GCS_DENIED_BUCKETS"], .list("BUCKET"),
                      "A bucket gs:// sources may never name; repeat for more.") {
            (input) throws(ServerSettingError) in input.service.gcsDeniedBuckets = Set(input.list())
        },
        ServerSetting("abs-name", imgproxy: ["IMGPROXY_ABS_NAME"], .value("ACCOUNT"), "The Azure storage account abs://container/blob sources are read from.") { _ in },
        ServerSetting("abs-endpoint", imgproxy: ["IMGPROXY_ABS_ENDPOINT"], .value("URL"),
                      "The account's blob service (an emulator's, with the account in the path); else https://ACCOUNT.blob.core.windows.net.") { _ in },
        ServerSetting("abs-key", imgproxy: ["IMGPROXY_ABS_KEY"], .value("BASE64"),
                      "The account key (Shared Key); else AZURE_STORAGE_SAS_TOKEN, a service principal, a workload or managed identity.") { _ in },
        ServerSetting("use-abs", imgproxy: ["IMGPROXY_USE_ABS"], .toggle, "Read abs://container/blob sources from Azure Blob Storage.") {
            (input) throws(ServerSettingError) in if try input.bool() { try readABS(&input) }
        },
        ServerSetting("abs-allowed-bucket", osprey: "ABS_ALLOWED_BUCKETS", imgproxy: ["IMGPROXY_ABS_ALLOWED_BUCKETS"], .list("CONTAINER"),
                      "A container abs:// sources may name; repeat for more.", default: { $0.service.absAllowedBuckets.isEmpty ? "any" : nil }) {
            (input) throws(ServerSettingError) in input.service.absAllowedBuckets = Set(input.list())
        },
        ServerSetting("abs-denied-bucket", osprey: "ABS_DENIED_BUCKETS", imgproxy: ["IMGPROXY_ABS_DENIED_BUCKETS"], .list("CONTAINER"),
                      "A container abs:// sources may never name; repeat for more.") {
            (input) throws(ServerSettingError) in input.service.absDeniedBuckets = Set(input.list())
        },
        ServerSetting("user-agent", imgproxy: ["IMGPROXY_USER_AGENT"], .value("TEXT"),
                      "The User-Agent sent to sources (%current_version: Osprey's); none: Osprey's own.") {
            (input) throws(ServerSettingError) in
            guard !input.text.contains(where: { $0 == "\r" || $0 == "\n" }) else { throw input.failure("a User-Agent is one line") }
            input.service.sourceUserAgent = input.text.replacingOccurrences(of: "%current_version", with: OspreyVersion.current)
        },
        ServerSetting("cookie-passthrough", imgproxy: ["IMGPROXY_COOKIE_PASSTHROUGH"], .toggle,
                      "Send the client's cookies with a source's request when they belong to its host (the request's Host or X-Forwarded-Host, or --cookie-base-url); such answers are Cache-Control: private.") {
            (input) throws(ServerSettingError) in input.service.cookiePassthrough.enabled = try input.bool()
        },
        ServerSetting("cookie-passthrough-all", imgproxy: ["IMGPROXY_COOKIE_PASSTHROUGH_ALL"], .toggle,
                      "With --cookie-passthrough, send every cookie to every http and https source, whatever its host.") {
            (input) throws(ServerSettingError) in input.service.cookiePassthrough.all = try input.bool()
        },
        ServerSetting("cookie-base-url", imgproxy: ["IMGPROXY_COOKIE_BASE_URL"], .value("URL"),
                      "The URL clients' cookies are taken to be set for: they go to sources on its host, under its path.") {
            (input) throws(ServerSettingError) in
            guard let url = URL(string: input.text), url.host?.isEmpty == false else { throw input.failure("not a URL with a host") }
            input.service.cookiePassthrough.baseURL = url
        },
        ServerSetting("fallback-image-data", imgproxy: ["IMGPROXY_FALLBACK_IMAGE_DATA"], .value("BASE64"), "The fallback image's bytes, in base64.") {
            (input) throws(ServerSettingError) in input.service.fallbackImage = .url(try input.dataURL())
        },
        ServerSetting("fallback-image-url", imgproxy: ["IMGPROXY_FALLBACK_IMAGE_URL"], .value("URL"), "The fallback image, fetched as sources are.") {
            (input) throws(ServerSettingError) in
            guard let url = URL(string: input.text) else { throw input.failure("not a URL") }
            input.service.fallbackImage = .url(url)
        },
        ServerSetting("fallback-image", imgproxy: ["IMGPROXY_FALLBACK_IMAGE_PATH"], .value("FILE"),
                      "A local image answered, processed as asked, when a source fails.") {
            (input) throws(ServerSettingError) in input.service.fallbackImage = .file(path: input.filePath())
        },
        ServerSetting("fallback-image-http-code", imgproxy: ["IMGPROXY_FALLBACK_IMAGE_HTTP_CODE"], .value("STATUS"),
                      "The fallback's status, 100…599; 0: the failure's own.", default: { "\($0.service.fallbackStatus)" }) {
            (input) throws(ServerSettingError) in
            let status = try input.int(0...599)
            guard status == 0 || status >= 100 else { throw input.failure("0, or 100…599") }
            input.service.fallbackStatus = status
        },
        ServerSetting("fallback-image-ttl", imgproxy: ["IMGPROXY_FALLBACK_IMAGE_TTL"], .value("SECONDS"),
                      "The fallback's Cache-Control max-age; none: --max-age.") {
            (input) throws(ServerSettingError) in input.service.fallbackMaxAge = try input.int(0...Int(Int32.max))
        },
    ]

    /// A switch letting sources on one category of address be read.
    static func addresses(_ flag: String, _ imgproxy: String, _ category: IPAddress.Category, _ what: String,
                          imgproxyDefault: (@Sendable (inout SettingInput) throws(ServerSettingError) -> Void)? = nil) -> ServerSetting {
        ServerSetting(flag, imgproxy: [imgproxy], .toggle, "Fetch sources whose host resolves to \(what).", imgproxyDefault: imgproxyDefault) {
            (input) throws(ServerSettingError) in
            var categories = input.service.sources.addressPolicy.allowedCategories
            if try input.bool() { categories.insert(category) } else { categories.remove(category) }
            input.service.sources = SourcePolicy(allowedPrefixes: input.service.sources.allowedPrefixes, allowing: categories)
        }
    }

    /// The S3 store: the endpoint given, else AWS_ENDPOINT_URL_S3 or AWS_ENDPOINT_URL, else
    /// AWS's of the region; signed with what AWS's credential chain finds (nothing is fetched
    /// before the first request), through the role to assume if one is given.
    @Sendable static func readS3(_ input: inout SettingInput) throws(ServerSettingError) {
        let environment = input.environment
        let role = input.other("s3-assume-role-arn")?.last.flatMap { $0.isEmpty ? nil : $0 }.map {
            AWSCredentialChain.RoleToAssume(arn: $0, externalID: input.other("s3-assume-role-external-id")?.last.flatMap { $0.isEmpty ? nil : $0 })
        }
        let chain: AWSCredentialChain
        do {
            chain = try AWSCredentialChain(environment: environment, assuming: role)
        } catch {
            throw input.failure(error.description)
        }
        let region = input.other("s3-region")?.last.flatMap { $0.isEmpty ? nil : $0 } ?? chain.region ?? "us-west-1"
        let configured = input.other("s3-endpoint")?.last.flatMap { $0.isEmpty ? nil : $0 }.map { $0.contains("://") ? $0 : "https://" + $0 }
            ?? AWSEndpoints(environment: environment).configured(.s3)?.absoluteString
        var pathStyle = true
        if let style = input.other("s3-endpoint-use-path-style")?.last {
            guard let value = SettingInput.goBool(style) else { throw input.failure("s3-endpoint-use-path-style: \(style) is not a boolean") }
            pathStyle = value
        }
        let url = configured.flatMap(URL.init(string:))
        if let configured, url == nil { throw input.failure("\(configured) is not a URL") }
        do throws(S3DataLoader.InvalidEndpoint) {
            if let url {
                input.service.s3Store = try S3DataLoader.Store(endpoint: url, region: region, credentials: chain, pathStyle: pathStyle)
            } else {
                input.service.s3Store = try S3DataLoader.Store.aws(region: region, credentials: chain, pathStyle: pathStyle)
            }
        } catch {
            throw input.failure(error.description)
        }
    }

    /// Google Cloud Storage: the endpoint given (else STORAGE_EMULATOR_HOST's or Google's),
    /// authorised by the key given or found as Google's libraries find one (nothing is
    /// fetched before the first request).
    @Sendable static func readGCS(_ input: inout SettingInput) throws(ServerSettingError) {
        let key = input.other("gcs-key")?.last.flatMap { $0.isEmpty ? nil : $0 }
        let endpointText = input.other("gcs-endpoint")?.last.flatMap { $0.isEmpty ? nil : $0 }
        let endpoint = endpointText.flatMap(URL.init(string:))
        if let endpointText, endpoint == nil { throw input.failure("\(endpointText) is not a URL") }
        do {
            let credentials = try GCSCredentials(key: key, environment: input.environment)
            input.service.gcsStore = try GCSDataLoader.Store(endpoint: endpoint, credentials: credentials, environment: input.environment)
        } catch let error as GCSCredentialError {
            throw input.failure(error.description)
        } catch {
            throw input.failure("\(error)")
        }
    }

    /// Azure Blob Storage: the account named, at the endpoint given (else Azure's), authorised
    /// by the account key or found as Azure's SDKs find an identity (nothing is fetched before
    /// the first request).
    @Sendable static func readABS(_ input: inout SettingInput) throws(ServerSettingError) {
        guard let account = input.other("abs-name")?.last.flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw input.failure("set IMGPROXY_ABS_NAME (--abs-name), the storage account")
        }
        let endpointText = input.other("abs-endpoint")?.last.flatMap { $0.isEmpty ? nil : $0 }
        let endpoint = endpointText.flatMap(URL.init(string:))
        if let endpointText, endpoint == nil { throw input.failure("\(endpointText) is not a URL") }
        do {
            let credentials = try ABSCredentials(account: account, key: input.other("abs-key")?.last, environment: input.environment)
            input.service.absStore = try ABSDataLoader.Store(endpoint: endpoint, account: account, credentials: credentials)
        } catch let error as ABSCredentialError {
            throw input.failure(error.description)
        } catch {
            throw input.failure("\(error)")
        }
    }
}
