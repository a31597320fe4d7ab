import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPixels
import OspreyTesting
import Testing

/// The codec tests decode real images synchronously, each holding a thread of the runner's
/// cooperative pool for seconds. On two cores, two of them at once would starve every async
/// test of the package; nested in this suite, they run one at a time.
@Suite(.serialized) struct CPUBoundCodecTests {}

/// Shared helpers for the codec tests.
enum CodecTestSupport {
    /// `image` as bytes in the reference's layout (3 = RGB, 4 = RGBA).
    static func bytes(of image: Image, channels: Int) -> [UInt8] {
        PixelConversion.converted(image, to: channels == 4 ? .rgba8 : .rgb8).pixels
    }

    /// RGBA (or RGB) bytes laid on white, as RGB.
    static func flattened(_ rgba: [UInt8], channels: Int) -> [UInt8] {
        guard channels == 4 else { return rgba }
        return stride(from: 0, to: rgba.count, by: 4).flatMap { i -> [UInt8] in
            let alpha = Int(rgba[i + 3])
            return (0..<3).map { UInt8((Int(rgba[i + $0]) * alpha + 255 * (255 - alpha) + 127) / 255) }
        }
    }

    /// `image` laid on white, as RGB bytes.
    static func flattened(_ image: Image) -> [UInt8] {
        image.pixelFormat.hasAlpha ? flattened(bytes(of: image, channels: 4), channels: 4) : bytes(of: image, channels: 3)
    }

    /// The corpus files below `folder` whose extension is one of `extensions`.
    static func images(in folder: String, extensions: Set<String>) throws -> [URL] {
        try Corpus.files(in: folder).filter { extensions.contains($0.pathExtension.lowercased()) }
    }

    static let codec = ImageCodec()
}
