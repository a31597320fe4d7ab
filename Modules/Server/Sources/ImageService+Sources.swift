import Foundation
import OspreyDomain

/// Where a URL's image is read from, and for a local file, when it was last changed.
struct ResolvedSource {
    let source: ImageSource
    /// A local file's modification time, as `Last-Modified` writes it.
    let lastModified: String?
    /// Sent with a URL source's request (passed-through cookies).
    var headers: [String: String] = [:]

    /// A pipeline request for the source, with its headers.
    var imageRequest: ImageRequest {
        var request = ImageRequest(source: source)
        request.sourceHeaders = headers
        return request
    }
}

extension ImageService {
    /// `url` as the pipeline reads it: `local:///path` a file under the local root,
    /// `s3://bucket/key` the object the pipeline's S3 loader fetches, http and https as they
    /// are — each checked against the policy first.
    /// - Throws: ``ServerError``: `refused` (counted by reason), or `notFound` for a local
    ///   file that is not there.
    func resolve(_ url: URL) throws(ServerError) -> ResolvedSource {
        switch url.scheme?.lowercased() {
        case "local":
            guard let root = configuration.localRoot else { throw refused(url, .scheme) }
            return try localFile(url, under: root)
        case "s3":
            guard configuration.s3Store != nil else { throw refused(url, .scheme) }
            return try storeObject(url, allowed: configuration.s3AllowedBuckets, denied: configuration.s3DeniedBuckets)
        case "gs":
            guard configuration.gcsStore != nil else { throw refused(url, .scheme) }
            return try storeObject(url, allowed: configuration.gcsAllowedBuckets, denied: configuration.gcsDeniedBuckets)
        case "abs":
            guard configuration.absStore != nil else { throw refused(url, .scheme) }
            return try storeObject(url, allowed: configuration.absAllowedBuckets, denied: configuration.absDeniedBuckets)
        default:
            if let refusal = configuration.sources.refusal(for: url) { throw refused(url, refusal) }
            return ResolvedSource(source: .url(url), lastModified: nil)
        }
    }

    /// An object store's source, checked and fetched as the object it names (the store's
    /// loader builds its request from the same bucket and key), within imgproxy's bucket lists.
    private func storeObject(_ url: URL, allowed: Set<String>, denied: Set<String>) throws(ServerError) -> ResolvedSource {
        let location: S3Location
        do {
            location = try S3Location(url, scheme: url.scheme?.lowercased() ?? "")
        } catch {
            throw refused(url, error)
        }
        if let refusal = configuration.sources.refusal(forStoreSource: location.url) { throw refused(url, refusal) }
        if !allowed.isEmpty && !allowed.contains(location.bucket) || denied.contains(location.bucket) { throw refused(url, .notAllowed) }
        return ResolvedSource(source: .url(location.url), lastModified: nil)
    }

    /// Whether a `..` in `path` climbs above the folder it starts in.
    static func climbsAboveItsRoot(_ path: String) -> Bool {
        var depth = 0
        for segment in path.split(separator: "/") where segment != "." {
            depth += segment == ".." ? -1 : 1
            if depth < 0 { return true }
        }
        return false
    }

    /// The regular file a `local:///path` source names under `root`. Its path is decoded once
    /// and its links followed, and that file — the one opened — is what the allow-list checks,
    /// before anyone can tell whether it exists: an encoded `%2f..` or a link cannot mean one
    /// folder to the check and another to the file system.
    private func localFile(_ url: URL, under root: URL) throws(ServerError) -> ResolvedSource {
        let decoded = url.path(percentEncoded: false)
        guard !Self.climbsAboveItsRoot(decoded), !decoded.contains("\0") else { throw refused(url, .outsideRoot) }
        let rootPath = root.standardizedFileURL.resolvingSymlinksInPath().path
        let file = root.appendingPathComponent(decoded).standardizedFileURL.resolvingSymlinksInPath().path
        let folder = rootPath.hasSuffix("/") ? rootPath : rootPath + "/"
        guard file.hasPrefix(folder) else { throw refused(url, .outsideRoot) }
        var checked = URLComponents()
        (checked.scheme, checked.host, checked.path) = ("local", "", "/" + file.dropFirst(folder.count))
        guard let checkedURL = checked.url else { throw refused(url, .outsideRoot) }
        if let refusal = configuration.sources.refusal(forStoreSource: checkedURL) { throw refused(url, refusal) }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let modified = attributes[.modificationDate] as? Date else { throw ServerError(.unreachable, "no file for \(url.absoluteString)") }
        return ResolvedSource(source: .file(path: file), lastModified: HTTPDate.string(from: modified))
    }
}
