import Foundation
import Osprey

// The defaults every setting starts from: imgproxy's, where Osprey has one of its own.
extension ImageService.Configuration {
    /// Nine tenths of the memory limit of the control group the process runs in (a
    /// container's), the rest left for what the kernel counts beside the heap; `nil`
    /// without a limit.
    public static var containerMemoryBudget: Int? {
        ProcessMemory.controlGroupLimit().map { $0 / 10 * 9 }
    }

    /// A configuration; every other value has its default.
    public init(signingKeys: SigningKeys = .none, allowsUnsigned: Bool = false, sources: SourcePolicy = SourcePolicy(),
                osprey: OspreyConfiguration = OspreyConfiguration()) {
        self.osprey = osprey
        self.signingKeys = signingKeys
        self.allowsUnsigned = allowsUnsigned
        trustedSignatures = []
        baseURL = nil
        secret = nil
        presets = .none
        onlyPresets = false
        self.sources = sources
        localRoot = nil
        s3Store = nil
        s3AllowedBuckets = []
        s3DeniedBuckets = []
        fallbackImage = nil
        maxSourceBytes = 50_000_000
        maxSourcePixels = 50_000_000
        maxAnimationFrames = 200
        maxResultPixels = nil
        maxRedirects = 3
        timeout = .seconds(10)
        downloadTimeout = .seconds(5)
        autoFormats = []
        formatsNamedOnlyWhenOffered = []
        defaultQuality = 80
        formatQualities = [.webp: 79, .avif: 63, .jxl: 77]
        skipProcessingFormats = []
        maxAge = 31_536_000
        usesETags = true
        usesLastModified = true
        returnsAttachment = false
        debugHeaders = false
        usesClientHints = false
        setsCanonicalHeader = false
        keepsColorProfiles = false
        autoRotates = true
        stripsMetadata = true
        keepsCopyright = true
        alwaysRasterizesSVG = false
        allowsSecurityOptions = false
        fallbackStatus = 200
        fallbackMaxAge = nil
        passesCacheControl = false
        corsOrigin = nil
        enforcedFormats = []
        preferredFormats = [.jpeg, .png, .gif]
        watermark = nil
        developmentErrors = false
        answerMemoryLimit = 16 << 20
        maxMemory = Self.containerMemoryBudget
    }
}
