import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPixels
import OspreyTesting
import Testing

/// The approximate decodes placeholders are made from: a camera's EXIF thumbnail and a
/// progressive JPEG's first scans, each close to the real decode of the same size, and none
/// where it would not be the same picture.
@Suite("Preview decodes")
struct PreviewDecodeTests {
    let codec = ImageCodec()
    let options = DecodingOptions(targetSize: PixelSize(width: 100, height: 100))

    /// The preview of `data` and the decode at the same options, as PSNR in dB.
    func closeness(_ data: Data) throws -> (preview: Image?, psnr: Double) {
        let decoded = try codec.decode(.data(data), options: options)
        guard let preview = try codec.decodePreview(.data(data), options: options) else { return (nil, 0) }
        #expect(preview.size == decoded.size && preview.pixelFormat == decoded.pixelFormat)
        guard preview.size == decoded.size else { return (preview, 0) }
        return (preview, ReferenceDecoder.psnr(preview.pixels, decoded.pixels))
    }

    @Test func aProgressiveFileIsPreviewedFromItsFirstScans() throws {
        // 6000×4000, progressive, no EXIF thumbnail.
        let (preview, psnr) = try closeness(Data(contentsOf: Corpus.file("photos/craft-beer.jpg")))
        #expect(preview != nil)
        #expect(psnr >= 40, "\(psnr) dB")
    }

    @Test(arguments: ["photos/olympus_e-p3_42_IndexError.jpg", "photos/canon_hdr_NO.jpg", "photos/iphone6_hdr_YES.jpg"])
    func aCameraThumbnailServes(_ photo: String) throws {
        let (preview, psnr) = try closeness(Data(contentsOf: Corpus.file(photo)))
        #expect(preview != nil)
        #expect(psnr >= 26, "\(photo): \(psnr) dB")
    }

    @Test func aBaselineFileWithoutThumbnailHasNoPreview() throws {
        #expect(try codec.decodePreview(.file(path: Corpus.file("photos/jolla.jpg").path), options: options) == nil)
        // Nor a size the thumbnail (160×120) cannot cover.
        let large = DecodingOptions(targetSize: PixelSize(width: 400, height: 400))
        #expect(try codec.decodePreview(.file(path: Corpus.file("photos/canon_hdr_NO.jpg").path), options: large) == nil)
    }

    @Test func aThumbnailOfAnotherShapeIsNotUsed() throws {
        // The camera's 4:3 thumbnail left in a file cropped to 3:2, as a letterboxed one is.
        let script = """
            import sys; from PIL import Image
            im = Image.open(sys.argv[1]); exif = im.info["exif"]
            im.crop((0, 0, 3000, 2000)).save(sys.argv[2], quality=85, exif=exif)
            """
        let output = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-preview-\(UUID().uuidString).jpg")
        defer { try? FileManager.default.removeItem(at: output) }
        let made = try ChildProcess.run("/usr/bin/env", ["python3", "-c", script, Corpus.file("photos/olympus_e-p3_42_IndexError.jpg").path, output.path])
        #expect(made.status == 0, "\(made.output)")
        #expect(try codec.decodePreview(.file(path: output.path), options: options) == nil)
    }

    @Test func theThumbnailIsTurnedAsTheImageIs() throws {
        var bytes = [UInt8](try Data(contentsOf: Corpus.file("photos/olympus_e-p3_42_IndexError.jpg")))
        // Orientation 1 → 6 (turn 90° clockwise) in the little-endian IFD0 entry.
        let entry: [UInt8] = [0x12, 0x01, 0x03, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01, 0x00]
        let at = try #require((0..<bytes.count - entry.count).first { Array(bytes[$0..<$0 + entry.count]) == entry })
        bytes[at + 8] = 6
        let (preview, psnr) = try closeness(Data(bytes))
        #expect(preview?.size == PixelSize(width: 75, height: 100))
        #expect(psnr >= 26, "\(psnr) dB")
    }

    @Test func aBrokenThumbnailFallsBackToNothingNotAnError() throws {
        let original = try Data(contentsOf: Corpus.file("photos/canon_hdr_NO.jpg"))
        var bytes = [UInt8](original)
        // The thumbnail's SOF0 marker (after its SOI) made unknown: the stream is unreadable.
        let exif = try #require((0..<4096).first { bytes[$0] == 0x45 && bytes[$0 + 1] == 0x78 && bytes[$0 + 2] == 0x69 && bytes[$0 + 3] == 0x66 })
        let soi = try #require((exif + 10..<bytes.count - 1).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xD8 })
        for index in soi + 2..<soi + 600 where bytes[index] == 0xFF && bytes[index + 1] == 0xC0 { bytes[index + 1] = 0x01 }
        #expect(try codec.decodePreview(.data(Data(bytes)), options: options) == nil)
        #expect(try codec.decode(.data(Data(bytes)), options: options).pixels == codec.decode(.data(original), options: options).pixels)
    }
}
