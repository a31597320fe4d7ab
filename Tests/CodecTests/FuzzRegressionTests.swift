import Foundation
import OspreyCodec
import OspreyDomain
import OspreyTesting
import Testing

/// Inputs `make fuzz` stopped on, run the way their fuzz target runs them (options picked by
/// the input's length), with the same checks.
@Suite("Fuzzer finds")
struct FuzzRegressionTests {
    static let codec = ImageCodec(limits: DecodingLimits(maxPixels: 16_000_000, maxInputBytes: 64_000_000))

    static var decoderInputs: [URL] {
        ["FuzzFormat", "FuzzJPEG", "FuzzPNG", "FuzzWebP", "FuzzGIF", "FuzzAPNG", "FuzzAVIF", "FuzzHEIC"].flatMap(FuzzRegressions.files)
    }

    @Test("Decoding a fuzzer's find is an image of the right size or a typed error", arguments: decoderInputs)
    func decoderFind(_ file: URL) throws {
        let data = try Data(contentsOf: file)
        let choice = data.count & 0xFF
        let options = choice % 3 == 0 ? DecodingOptions()
            : DecodingOptions(targetSize: PixelSize(width: 1 + choice, height: 1 + (choice * 7) % 200), contentMode: choice % 2 == 0 ? .fit : .fill)
        _ = FormatDetector.detect(data)
        guard let image = try? Self.codec.decode(.data(data), options: options) else { return }
        #expect(image.pixels.count == image.bytesPerRow * image.height)
        if let target = options.targetSize {
            let info = try Self.codec.info(.data(data))
            let expected = options.resultSize(for: PixelSize(width: info.width, height: info.height))
            #expect(abs(image.width - expected.width) <= 1 && abs(image.height - expected.height) <= 1,
                    "\(image.size) for \(target) \(options.contentMode) of \(info.width)x\(info.height)")
        }
    }

    @Test("An EXIF find gives an orientation from 1 to 8 or none", arguments: FuzzRegressions.files("FuzzExif"))
    func exifFind(_ file: URL) throws {
        let payload = try Data(contentsOf: file)
        if let orientation = ExifReader.orientation(in: payload) { #expect((1...8).contains(orientation)) }
    }

    @Test func anOrientationTagOutOfRangeIsIgnored() {
        // II*\0, IFD at 8, one entry: tag 0x0112, SHORT, count 1, value 0x6DFF.
        let payload: [UInt8] = [0x49, 0x49, 0x2A, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 0xFF, 0x6D, 0, 0, 0, 0, 0, 0]
        #expect(ExifReader.orientation(in: payload) == nil)
        var valid = payload
        valid[18] = 6
        valid[19] = 0
        #expect(ExifReader.orientation(in: valid) == 6)
    }

    @Test func theHEICOverlayWithAHugeCanvasIsRefusedBeforeItIsAllocated() throws {
        // The handle says 256×144; the overlay's canvas says 57984×22911. libheif crashed
        // allocating it, after using 6 GB.
        let file = try #require(FuzzRegressions.files("FuzzHEIC").first { $0.lastPathComponent.hasPrefix("oom-8957ff80") })
        let data = try Data(contentsOf: file)
        #expect(try Self.codec.info(.data(data)).width == 256)
        #expect(throws: ImageDecodingError.self) {
            try Self.codec.decode(.data(data), options: DecodingOptions(targetSize: PixelSize(width: 64, height: 64)))
        }
    }

    @Test func theWebPFindIsAWideImageFilledToCoverItsTarget() throws {
        let file = try #require(FuzzRegressions.files("FuzzWebP").first { $0.lastPathComponent.hasPrefix("crash-b7e48b2b") })
        let image = try Self.codec.decode(.data(try Data(contentsOf: file)), options: DecodingOptions(
            targetSize: PixelSize(width: 68, height: 70), contentMode: .fill))
        // 336×80 covering 68×70 is 294×70, whose centre is cropped to the target.
        #expect(image.size == PixelSize(width: 68, height: 70))
    }
}
