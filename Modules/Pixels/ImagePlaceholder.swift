import Foundation
import OspreyDomain

/// What a page or an app shows while an image loads: its average colour, a BlurHash and a
/// ThumbHash, made from a small decode (at most 100 × 100 is all they need).
///
/// ```swift
/// let placeholder = try await pipeline.placeholder(for: ImageRequest(url: url))
/// print(placeholder.blurHash, placeholder.thumbHash.base64EncodedString())
/// ```
public struct ImagePlaceholder: Hashable, Sendable {
    /// A colour, 8 bits a channel, alpha straight.
    public struct Color: Hashable, Sendable {
        public var red, green, blue, alpha: UInt8

        /// A colour from its channels.
        public init(red: UInt8, green: UInt8, blue: UInt8, alpha: UInt8 = 255) {
            self.red = red
            self.green = green
            self.blue = blue
            self.alpha = alpha
        }
    }

    /// The mean colour of the pixels that are not fully transparent (of all, when all are).
    public let average: Color
    /// The BlurHash with the components asked (4 × 3 by default).
    public let blurHash: String
    /// The ThumbHash's bytes.
    public let thumbHash: Data

    /// The placeholder of `image`, which is resampled to fit 100 × 100 first when larger.
    public init(_ image: Image, blurHashComponents: (x: Int, y: Int) = (4, 3)) {
        var small = image
        if image.width > 100 || image.height > 100 {
            small = Resampler.resize(image, to: image.size.scaled(toFit: PixelSize(width: 100, height: 100), mode: .fit))
        }
        average = Self.average(of: small, ignoringTransparent: true)
        blurHash = BlurHash.encode(small, x: blurHashComponents.x, y: blurHashComponents.y)
        thumbHash = ThumbHash.encode(small)
    }

    /// The mean colour of `image`, fully transparent pixels left out when `ignoringTransparent`
    /// (all of them counted when every pixel is).
    public static func average(of image: Image, ignoringTransparent: Bool) -> Color {
        let rgba = PixelConversion.converted(image, to: .rgba8)
        var sums = [0, 0, 0, 0], count = 0
        for pass in 0..<2 {
            for row in 0..<rgba.height {
                for column in 0..<rgba.width {
                    let at = row * rgba.bytesPerRow + column * 4
                    if pass == 0 && ignoringTransparent && rgba.pixels[at + 3] == 0 { continue }
                    for channel in 0..<4 { sums[channel] += Int(rgba.pixels[at + channel]) }
                    count += 1
                }
            }
            if count > 0 { break }
        }
        let mean = sums.map { UInt8(clamping: Int((Double($0) / Double(max(count, 1))).rounded())) }
        return Color(red: mean[0], green: mean[1], blue: mean[2], alpha: mean[3])
    }
}
