// What the request-surface targets share: services configured as deployments configure them,
// and the checks every read request must pass.
import Foundation
import Osprey
@_spi(Fuzzing) import OspreyServer

/// Services over one local root (a `public` folder the allow-list names and a `private` one it
/// does not) and a store no request reaches: reading a request never fetches.
public enum RequestSurface {
    public static let keys = try! SigningKeys(hexKeys: ["943b421c9eb07c83"], hexSalts: ["520f986b998545b4"])
    public static let secret = "fuzz-secret"
    static let presets = try! ImgproxyPresets(definitions: ["default=q:70", "thumb=rs:fill:64:64/g:sm", "big=w:16384/el:1/dpr:8",
                                                           "loop=pr:thumb/pr:loop"])

    /// The root, made once: `public/ok.png`, `private/secret.png`, and a link out of `public`.
    static let root: URL = {
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-fuzz-root-\(getpid())")
        for folder in ["public", "private"] { try? FileManager.default.createDirectory(at: root.appendingPathComponent(folder), withIntermediateDirectories: true) }
        for file in ["public/ok.png", "private/secret.png"] { FileManager.default.createFile(atPath: root.appendingPathComponent(file).path, contents: Data([0x89, 0x50])) }
        try? FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent("public/link.png").path,
                                                    withDestinationPath: root.appendingPathComponent("private/secret.png").path)
        return root.resolvingSymlinksInPath()
    }()

    static func service(_ configure: (inout ImageService.Configuration) -> Void) -> ImageService {
        var osprey = OspreyConfiguration(cacheDirectory: nil)
        osprey.maxConcurrentDecodes = 1
        var configuration = ImageService.Configuration(signingKeys: .none, allowsUnsigned: true, osprey: osprey)
        configuration.presets = presets
        configuration.localRoot = root
        configuration.allowsSecurityOptions = true
        configuration.autoFormats = [.webp, .avif]
        configuration.sources = SourcePolicy(allowedPrefixes: ["local:///public/", "s3://photos/", "https://img.example.com/"])
        configuration.s3Store = try! S3DataLoader.Store(endpoint: URL(string: "http://127.0.0.1:9/")!,
                                                        signing: AWSSigning(region: "us-east-1", accessKeyID: "a", secretAccessKey: "b"))
        configuration.s3AllowedBuckets = ["photos"]
        configure(&configuration)
        return try! ImageService(configuration: configuration)
    }

    /// Unsigned URLs, presets, security options and client hints allowed.
    public static let unsigned = service { $0.usesClientHints = true }
    /// Signed URLs only.
    public static let signed = service { $0.signingKeys = keys; $0.allowsUnsigned = false }
    /// URLs that name presets only.
    public static let presetsOnly = service { $0.onlyPresets = true }
    /// Client hints, and the server's secret required.
    public static let withSecret = service { $0.usesClientHints = true; $0.secret = secret }

    static let sizes = [(1, 1), (3, 2), (640, 480), (16_384, 1), (1, 16_384), (65_535, 65_535)].map { PixelSize(width: $0.0, height: $0.1) }

    /// `path` read by `service`: `nil` when it was read, what any request read must satisfy
    /// checked; the typed error otherwise.
    @discardableResult
    public static func read(_ service: ImageService, _ path: String, headers: [(name: String, value: String)] = []) -> ServerError? {
        do {
            check(try service.readRequest(path: path, headers: headers))
            return nil
        } catch {
            return error
        }
    }

    /// Sizes worked out for any source are sides a pipeline can hold; the source is allowed.
    static func check(_ read: ImageService.ReadRequest) {
        if let target = read.request.targetSize { precondition(target.width >= 0 && target.height >= 0 && target.width <= 16_384 * 8) }
        for size in sizes {
            let result = read.request.processors.reduce(size) { $1.outputSize(for: $0) }
            precondition(result.width >= 0 && result.height >= 0, "\(result) from \(size)")
        }
        checkSource(read.source)
    }

    /// A local source lies in the allowed folder once links are followed; a remote one is
    /// under an allowed origin.
    public static func checkSource(_ source: ImageSource) {
        switch source {
        case .file(let path):
            precondition(path.hasPrefix(root.appendingPathComponent("public").path + "/"), "a local source outside the allowed folder: \(path)")
        case .url(let url):
            // Schemes and hosts are read in any case, as the allow-list reads them.
            let origin = "\(url.scheme?.lowercased() ?? "")://\(url.host(percentEncoded: false)?.lowercased() ?? "")"
            precondition(["s3://photos", "https://img.example.com"].contains(origin) && url.port == nil && url.user == nil,
                         "a source outside the allow-list: \(url.absoluteString)")
        }
    }
}
