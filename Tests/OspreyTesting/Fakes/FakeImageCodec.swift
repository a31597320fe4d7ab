import Foundation
import OspreyDomain

/// A decoder and encoder for a trivial raw format, for pipeline tests that must not depend
/// on real codecs.
///
/// The format: the magic `OSPF`, width and height as 32-bit big-endian integers, one
/// pixel-format byte (the index in ``PixelFormat/allCases``), then tightly packed pixels.
/// Decoding at a target size samples the nearest pixel (and keeps the centre for `fill`).
public struct FakeImageCodec: ImageDecoding, ImageEncoding {
    /// The format name this codec reports.
    public static let format = ImageFormat(rawValue: "ospf")
    static let magic: [UInt8] = Array("OSPF".utf8)
    static let headerSize = 13

    /// Creates the codec.
    public init() {}

    /// Declares what the real encoders carry, so that choices made from capabilities
    /// (storage formats, negotiation) come out as with the real codec.
    public var capabilities: [EncoderCapabilities] {
        [EncoderCapabilities(format: .jpeg, animation: false, alpha: false, lossless: false, quality: true),
         EncoderCapabilities(format: .png, animation: false, alpha: true, lossless: true, quality: false),
         EncoderCapabilities(format: .webp, animation: true, alpha: true, lossless: true, quality: true),
         EncoderCapabilities(format: .avif, animation: false, alpha: true, lossless: true, quality: true),
         EncoderCapabilities(format: .jxl, animation: true, alpha: true, lossless: true, quality: true),
         EncoderCapabilities(format: Self.format, animation: true, alpha: true, lossless: true, quality: false)]
    }

    /// Encodes a solid image of `size` whose pixels all have `value`, for tests.
    public static func encodedSolid(_ size: PixelSize, value: UInt8 = 0x80, format: PixelFormat = .rgba8) -> Data {
        let image = try! Image(width: size.width, height: size.height, pixelFormat: format,
                               pixels: [UInt8](repeating: value, count: size.area * format.bytesPerPixel))
        return try! FakeImageCodec().encode(image, options: EncodingOptions(format: Self.format))
    }

    public func detectFormat(of prefix: Data) throws(ImageDecodingError) -> ImageFormat {
        guard prefix.starts(with: Self.magic) else {
            throw .notAnImage(prefix: ImageDecodingError.describePrefix(prefix))
        }
        return Self.format
    }

    public func decode(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        let data: Data
        switch input {
        case .data(let bytes): data = bytes
        case .file(let path):
            do { data = try Data(contentsOf: URL(fileURLWithPath: path)) } catch {
                throw .unreadable(path: path, reason: error.localizedDescription)
            }
        }
        _ = try detectFormat(of: data.prefix(Self.magic.count))
        let bytes = [UInt8](data)
        guard bytes.count >= Self.headerSize else { throw .corrupt(Self.format, detail: "header is truncated") }
        let width = Self.readUInt32(bytes, at: 4), height = Self.readUInt32(bytes, at: 8)
        guard Int(bytes[12]) < PixelFormat.allCases.count else { throw .corrupt(Self.format, detail: "unknown pixel format \(bytes[12])") }
        let pixelFormat = PixelFormat.allCases[Int(bytes[12])]
        let rowBytes = width * pixelFormat.bytesPerPixel
        guard width > 0, height > 0, bytes.count == Self.headerSize + rowBytes * height else {
            throw .corrupt(Self.format, detail: "expected \(width)x\(height) pixels, found \(bytes.count - Self.headerSize) bytes")
        }
        // Scaled to cover for fill, then the centre kept, as the real decoders do.
        let scaled = options.outputSize(for: PixelSize(width: width, height: height))
        let out = options.resultSize(for: PixelSize(width: width, height: height))
        let (offsetX, offsetY) = ((scaled.width - out.width) / 2, (scaled.height - out.height) / 2)
        let bpp = pixelFormat.bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: out.area * bpp)
        for y in 0..<out.height {
            let sy = (y + offsetY) * height / scaled.height
            for x in 0..<out.width {
                let sx = (x + offsetX) * width / scaled.width
                let src = Self.headerSize + sy * rowBytes + sx * bpp
                let dst = (y * out.width + x) * bpp
                pixels[dst..<dst + bpp] = bytes[src..<src + bpp]
            }
        }
        do {
            return try Image(width: out.width, height: out.height, pixelFormat: pixelFormat, pixels: pixels)
        } catch {
            throw .corrupt(Self.format, detail: error.description)
        }
    }

    /// Writes its own container whatever format is asked for (so pipeline tests can choose
    /// a storage format), except GIF, which it refuses as the real encoders do.
    public func encode(_ image: Image, options: EncodingOptions) throws(ImageEncodingError) -> Data {
        guard options.format != .gif else { throw .unsupportedFormat(options.format) }
        var out = Self.magic
        for value in [image.width, image.height] {
            out += [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
        }
        out.append(UInt8(PixelFormat.allCases.firstIndex(of: image.pixelFormat)!))
        let rowBytes = image.width * image.pixelFormat.bytesPerPixel
        for y in 0..<image.height {
            out += image.pixels[y * image.bytesPerRow..<y * image.bytesPerRow + rowBytes]
        }
        return Data(out)
    }

    private static func readUInt32(_ bytes: [UInt8], at offset: Int) -> Int {
        bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
    }
}
