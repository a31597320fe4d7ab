import Foundation
import OspreyDomain
@_spi(Parsing) import OspreyNetwork

extension ImageService {
    /// Where a URL's image is read from, and for a local file, when it was last changed.
    struct ResolvedSource {
        let source: ImageSource
        /// A local file's modification time, as `Last-Modified` writes it.
        let lastModified: String?
    }

    /// Why a source is not served: refused by the policy, or a local file that is not there.
    enum SourceProblem: Error {
        case refused(SourceRefusal)
        case notFound
    }

    /// `url` as the pipeline reads it: `local:///path` a file under the local root,
    /// `s3://bucket/key` the object at the S3 endpoint, http and https as they are.
    func resolve(_ url: URL) throws(SourceProblem) -> ResolvedSource {
        switch url.scheme?.lowercased() {
        case "local":
            guard let root = configuration.localRoot else { throw .refused(.scheme) }
            if let refusal = configuration.sources.refusal(forStoreSource: url) { throw .refused(refusal) }
            return try Self.file(url.path, under: root)
        case "s3":
            guard configuration.servesS3 else { throw .refused(.scheme) }
            // Checked and fetched as the object it names: the pipeline's S3 loader builds the
            // request from the same bucket and key.
            let location: S3Location
            do {
                location = try S3Location(url)
            } catch {
                throw .refused(error)
            }
            if let refusal = configuration.sources.refusal(forStoreSource: location.url) { throw .refused(refusal) }
            return ResolvedSource(source: .url(location.url), lastModified: nil)
        default:
            if let refusal = configuration.sources.refusal(for: url) { throw .refused(refusal) }
            return ResolvedSource(source: .url(url), lastModified: nil)
        }
    }

    /// The regular file at `path` under `root`, once every link is followed.
    static func file(_ path: String, under root: URL) throws(SourceProblem) -> ResolvedSource {
        let rootPath = root.standardizedFileURL.resolvingSymlinksInPath().path
        let file = root.appendingPathComponent(path).standardizedFileURL.resolvingSymlinksInPath().path
        guard file.hasPrefix(rootPath.hasSuffix("/") ? rootPath : rootPath + "/") else { throw .refused(.outsideRoot) }
        guard let attributes = try? FileManager.default.attributesOfItem(atPath: file),
              attributes[.type] as? FileAttributeType == .typeRegular,
              let modified = attributes[.modificationDate] as? Date else { throw .notFound }
        return ResolvedSource(source: .file(path: file), lastModified: HTTPHeaderParser.httpDate(from: modified))
    }
}
