import Foundation
import Osprey

extension ImageService.Configuration {
    /// The pipeline's configuration: ``osprey`` with what the service's settings decide.
    var pipelineConfiguration: OspreyConfiguration {
        var osprey = self.osprey
        let sources = self.sources
        // Where the sockets connect, and before each redirect is followed, as imgproxy checks.
        osprey.network.addressPolicy = sources.addressPolicy
        osprey.network.sourceFilter = { sources.refusal(for: $0) }
        osprey.network.maxRedirects = maxRedirects
        // A download, and the waits its retries make, end within the download's deadline.
        let download = Double(downloadTimeout.components.seconds) + Double(downloadTimeout.components.attoseconds) / 1e18
        osprey.network.transferTimeout = min(osprey.network.transferTimeout, download)
        osprey.network.connectTimeout = min(osprey.network.connectTimeout, download)
        osprey.network.maxRetryAfter = min(osprey.network.maxRetryAfter, download / 2)
        osprey.network.maxResponseSize = maxSourceBytes
        if let agent = sourceUserAgent {
            let modifier = osprey.network.requestModifier
            osprey.network.requestModifier = { request in
                modifier(&request)
                if request.headers["User-Agent"] == nil { request.headers["User-Agent"] = agent }
            }
        }
        osprey.decodingLimits.maxInputBytes = maxSourceBytes
        osprey.decodingLimits.maxPixels = maxSourcePixels
        osprey.decodingLimits.maxFrames = maxAnimationFrames
        osprey.maxResultPixels = maxResultPixels ?? maxSourcePixels
        osprey.s3Store = s3Store.map { store in
            var store = store
            store.accessPoints = s3AccessPoints
            return store
        }
        osprey.gcsStore = gcsStore
        osprey.absStore = absStore
        osprey.encodedMemoryLimit = answerMemoryLimit
        osprey.memoryBudget = maxMemory
        // A request waits for room at most half its deadline, so it is told to come back
        // (503 with Retry-After) before the deadline cancels it.
        osprey.memoryBudgetWait = (timeout ?? .seconds(10)) / 2
        // One origin may hold all load slots but two: a slow one cannot queue the others, or
        // the cached images that still need a slot to decode, behind it.
        osprey.maxConcurrentLoadsPerOrigin = max(1, osprey.network.maxConcurrentTransfers + osprey.maxConcurrentDecodes - 2)
        return osprey
    }

    /// Settings that contradict each other or cannot be honoured, found before anything is built.
    func validate() throws(ServerConfigurationError) {
        if allowsUnsigned && !signingKeys.pairs.isEmpty { throw .unsignedWithKeys }
        if !allowsUnsigned && signingKeys.pairs.isEmpty { throw .neitherKeysNorUnsigned }
        if let timeout, timeout <= .zero { throw .outOfRange("the request timeout must be positive") }
        if downloadTimeout <= .zero { throw .outOfRange("the download timeout must be positive") }
        if maxSourceBytes <= 0 || maxSourcePixels <= 0 || maxAnimationFrames <= 0 || (maxResultPixels ?? 1) <= 0 {
            throw .outOfRange("the source and result limits must be positive")
        }
        if let maxMemory, maxMemory <= (ProcessMemory.residentBytes() ?? 0) + max(maxMemory / 10, 32_000_000) {
            throw .outOfRange("the memory budget, \(maxMemory / 1_000_000) MB, leaves nothing for work beside what the process holds")
        }
        if osprey.maxConcurrentDecodes <= 0 { throw .outOfRange("the number of workers must be positive") }
        if !(1...100).contains(defaultQuality) || formatQualities.values.contains(where: { !(1...100).contains($0) }) {
            throw .outOfRange("qualities are 1…100")
        }
        if let localRoot {
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: localRoot.path, isDirectory: &isFolder), isFolder.boolValue else {
                throw .unusable("the local root \(localRoot.path) is not a folder")
            }
        }
        if case .file(let path)? = fallbackImage, !FileManager.default.isReadableFile(atPath: path) {
            throw .unusable("the fallback image \(path) is not a readable file")
        }
        // Sources are read by the service's own loaders, which check addresses as they connect.
        if let scheme = osprey.loaders.keys.first(where: { ["http", "https", "local", "s3"].contains($0.lowercased()) }) {
            throw .unusable("a loader of its own for \(scheme) would pass over the source policy's checks")
        }
        let written = Set(osprey.codec.encoders.keys)
        if let missing = answerFormats.subtracting(written).sorted(by: { $0.rawValue < $1.rawValue }).first { throw .missingEncoder(missing) }
    }

    /// The formats answers may be in by the server's own choice, each of which needs an
    /// encoder (preferred formats without one are passed over).
    var answerFormats: Set<ImageFormat> {
        Set([.jpeg, .png] + enforcedFormats + autoFormats)
    }
}

/// Why a service or server cannot be built from its configuration.
public enum ServerConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Unsigned URLs allowed beside signing keys: a configured key means every URL is signed.
    case unsignedWithKeys
    /// No signing keys, and unsigned URLs not allowed: no URL could be served.
    case neitherKeysNorUnsigned
    /// A value outside its range.
    case outOfRange(String)
    /// A file, folder or cache that cannot be used.
    case unusable(String)
    /// A format answers may be in that no encoder writes.
    case missingEncoder(ImageFormat)

    public var description: String {
        switch self {
        case .unsignedWithKeys: "unsigned URLs allowed with signing keys: a configured key means every URL must be signed"
        case .neitherKeysNorUnsigned: "no signing keys and unsigned URLs not allowed: no URL could be served"
        case .outOfRange(let text), .unusable(let text): text
        case .missingEncoder(let format): "no encoder writes \(format), which answers may be in"
        }
    }
}

extension ImageService.Configuration {
    /// This configuration with a watermark given as an http or https URL (imgproxy's
    /// `IMGPROXY_WATERMARK_URL`) fetched, once, as sources are fetched: under the allow-list,
    /// the address checks and the size limit. Any other watermark is kept as it is.
    /// - Throws: ``ServerConfigurationError/unusable(_:)`` when the fetch fails.
    public func fetchingWatermark() async throws(ServerConfigurationError) -> Self {
        guard case .url(let url)? = watermark, let scheme = url.scheme?.lowercased(), scheme == "http" || scheme == "https" else { return self }
        let bytes: Data
        do {
            bytes = try await CurlDataLoader(configuration: pipelineConfiguration.network).loadData(for: DataRequest(url: url)).data
        } catch {
            throw .unusable("the watermark \(url.absoluteString): \(error)")
        }
        var fetched = self
        fetched.watermark = .url(URL(string: "data:application/octet-stream;base64," + bytes.base64EncodedString())!)
        return fetched
    }
}
