import Foundation
import OspreyDomain
import Testing

/// The behaviour every ``ImageEncoding`` must show: what it writes, the matching decoder
/// reads back at the same size and close to the same pixels; a format it does not write is
/// a typed error.
public struct ImageEncodingContract: Sendable {
    /// What the checks need.
    public struct Fixture: Sendable {
        /// The encoder under test.
        public var encoder: any ImageEncoding
        /// The formats it writes, each with the lowest PSNR (dB) its round trip may have at
        /// quality 0.9 (lossless formats: `.infinity`).
        public var formats: [ImageFormat: Double]
        /// A format it does not write.
        public var unwritten: ImageFormat
        /// Reads the encoded bytes back.
        public var decoder: any ImageDecoding

        /// Creates a fixture.
        public init(encoder: any ImageEncoding, formats: [ImageFormat: Double], unwritten: ImageFormat, decoder: any ImageDecoding) {
            self.encoder = encoder
            self.formats = formats
            self.unwritten = unwritten
            self.decoder = decoder
        }
    }

    /// One behaviour.
    public enum Check: String, CaseIterable, Sendable {
        case roundTripKeepsSizeAndPixels, formatIsDetectedFromTheBytes, alphaSurvivesWhereTheFormatHasIt,
             lowerQualityIsNoLarger, unwrittenFormatIsATypedError
    }

    private let fixture: Fixture

    /// Creates the contract for `fixture`.
    public init(fixture: Fixture) { self.fixture = fixture }

    /// A 48×32 gradient with alpha falling from left to right, past half (GIF keeps one bit).
    static let input: Image = {
        let (width, height) = (48, 32)
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                pixels += [UInt8(x * 5), UInt8(y * 7), UInt8((x + y) * 3), UInt8(255 - x * 5)]
            }
        }
        return try! Image(width: width, height: height, pixelFormat: .rgba8, pixels: pixels)
    }()

    /// Runs one check.
    public func run(_ check: Check) throws {
        #expect(!fixture.formats.isEmpty, "fixture is well formed")
        let opaque = Self.opaque(Self.input)
        for (format, floor) in fixture.formats.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let options = EncodingOptions(format: format, quality: 0.9)
            switch check {
            case .roundTripKeepsSizeAndPixels:
                let bytes = try fixture.encoder.encode(opaque, options: options)
                let back = try fixture.decoder.decode(.data(bytes), options: DecodingOptions())
                #expect(back.size == opaque.size, "\(format)")
                let psnr = Self.psnr(Self.opaque(back), opaque)
                #expect(psnr >= floor, "\(format): \(psnr) dB against at least \(floor)")
            case .formatIsDetectedFromTheBytes:
                let bytes = try fixture.encoder.encode(opaque, options: options)
                #expect(try fixture.decoder.detectFormat(of: bytes.prefix(64)) == format)
            case .alphaSurvivesWhereTheFormatHasIt:
                let bytes = try fixture.encoder.encode(Self.input, options: options)
                let back = try fixture.decoder.decode(.data(bytes), options: DecodingOptions())
                if format != .jpeg { #expect(back.pixelFormat.hasAlpha, "\(format) keeps alpha") }
            case .lowerQualityIsNoLarger:
                let high = try fixture.encoder.encode(opaque, options: EncodingOptions(format: format, quality: 0.95))
                let low = try fixture.encoder.encode(opaque, options: EncodingOptions(format: format, quality: 0.3))
                #expect(low.count <= high.count, "\(format): \(low.count) at 0.3 against \(high.count) at 0.95")
            case .unwrittenFormatIsATypedError:
                #expect(throws: ImageEncodingError.self) {
                    try fixture.encoder.encode(opaque, options: EncodingOptions(format: fixture.unwritten))
                }
            }
        }
    }

    static func opaque(_ image: Image) -> Image {
        let channels = image.pixelFormat.bytesPerPixel
        let pixels = (0..<(image.width * image.height)).flatMap { i -> [UInt8] in
            let at = i * channels
            return channels >= 3 ? Array(image.pixels[at..<at + 3]) : Array(repeating: image.pixels[at], count: 3)
        }
        return try! Image(width: image.width, height: image.height, pixelFormat: .rgb8, pixels: pixels)
    }

    static func psnr(_ a: Image, _ b: Image) -> Double {
        let squares = zip(a.pixels, b.pixels).reduce(0.0) { $0 + pow(Double(Int($1.0) - Int($1.1)), 2) }
        let mse = squares / Double(a.pixels.count)
        return mse == 0 ? .infinity : 10 * log10(255 * 255 / mse)
    }
}
