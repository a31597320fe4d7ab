import Foundation
import OspreyCodec
import OspreyDomain
import OspreyTesting
import Testing

extension CPUBoundCodecTests {
    /// Decode-time thumbnails against a Lanczos resize of the reference decoder's full output.
    @Suite("Thumbnail quality")
    struct ThumbnailQualityTests {
        @Test func cameraPhotoThumbnailsAt640MatchALanczosResizeOfTheReference() throws {
            let photos = try CodecTestSupport.images(in: "photos", extensions: ["jpg"])
            #expect(photos.count == 8)
            let references = try ReferenceDecoder.decode(photos, mode: .pillowThumbnail(640))
            for photo in photos {
                let reference = try #require(try references[photo.path]?.get(), "reference for \(photo.lastPathComponent)")
                let image = try CodecTestSupport.codec.decode(.file(path: photo.path), options: DecodingOptions(targetSize: PixelSize(width: 640, height: 640)))
                #expect(abs(image.width - reference.width) <= 1 && abs(image.height - reference.height) <= 1, "\(photo.lastPathComponent)")
                guard image.width == reference.width, image.height == reference.height else { continue }
                let psnr = ReferenceDecoder.psnr(CodecTestSupport.bytes(of: image, channels: 3), reference.bytes)
                #expect(psnr >= 32, "\(photo.lastPathComponent): PSNR \(psnr) dB")
            }
        }

        @Test func pngThumbnailsMatchALanczosResizeOfTheReference() throws {
            let files = try ["pngsuite/basn2c08.png", "pngsuite/basn6a08.png", "webp/libwebp-test-data/reference/grid.png"].map(Corpus.file)
            let references = try ReferenceDecoder.decode(files, mode: .pillowThumbnail(16))
            for file in files {
                let reference = try #require(try references[file.path]?.get())
                let image = try CodecTestSupport.codec.decode(.file(path: file.path), options: DecodingOptions(targetSize: PixelSize(width: 16, height: 16)))
                #expect(image.width == reference.width && image.height == reference.height, "\(file.lastPathComponent)")
                guard image.width == reference.width, image.height == reference.height else { continue }
                let psnr = ReferenceDecoder.psnr(CodecTestSupport.bytes(of: image, channels: reference.channels), reference.bytes)
                #expect(psnr >= 28, "\(file.lastPathComponent): PSNR \(psnr) dB")
            }
        }
    }
}
