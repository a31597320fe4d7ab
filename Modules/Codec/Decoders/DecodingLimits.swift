/// Limits checked from an image's header before any pixel memory is allocated, so that a
/// decompression bomb gets a typed error instead of an allocation.
public struct DecodingLimits: Hashable, Sendable {
    /// The most pixels (width × height, as stored) an image may have. Default 100 megapixels.
    public var maxPixels: Int
    /// The most bytes of encoded input accepted. Default 100 MB.
    public var maxInputBytes: Int64

    /// Creates limits.
    public init(maxPixels: Int = 100_000_000, maxInputBytes: Int64 = 100_000_000) {
        self.maxPixels = maxPixels
        self.maxInputBytes = maxInputBytes
    }

    /// The defaults: 100 megapixels, 100 MB.
    public static let `default` = DecodingLimits()

    func check(width: Int, height: Int) throws(ImageDecodingError) {
        guard width > 0, height > 0 else { throw .corrupt(.unknownFormat, detail: "image has no pixels (\(width)x\(height))") }
        guard width.multipliedReportingOverflow(by: height).partialValue <= maxPixels, width <= maxPixels, height <= maxPixels else {
            throw .tooManyPixels(width: width, height: height, limit: maxPixels)
        }
    }
}

import OspreyDomain

extension ImageFormat {
    /// A placeholder for messages about data whose format is not known yet.
    static let unknownFormat = ImageFormat(rawValue: "image")
}
