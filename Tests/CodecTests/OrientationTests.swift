import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPixels
import OspreyTesting
import Testing

extension CPUBoundCodecTests {
    /// Every EXIF orientation comes out upright, the size of orientation 1.
    @Suite("EXIF orientation")
    struct OrientationTests {
        static let thumb = DecodingOptions(targetSize: PixelSize(width: 120, height: 120))

        @Test(arguments: ["Landscape", "Portrait"])
        func recurserExamplesComeOutUpright(_ kind: String) throws {
            let upright = try decode("exif-orientation/\(kind)_1.jpg", options: DecodingOptions())
            let uprightThumb = try decode("exif-orientation/\(kind)_1.jpg", options: Self.thumb)
            for value in 0...8 {
                let name = "exif-orientation/\(kind)_\(value).jpg"
                #expect(try decode(name, options: DecodingOptions()).size == upright.size, "\(name)")
                let thumb = try decode(name, options: Self.thumb)
                #expect(thumb.size == uprightThumb.size, "\(name)")
                let psnr = ReferenceDecoder.psnr(thumb.pixels, uprightThumb.pixels)
                #expect(psnr > 25, "\(name) looks like orientation 1: PSNR \(psnr) dB")
                let info = try CodecTestSupport.codec.info(.file(path: try Corpus.file(name).path))
                // `_0` carries the invalid value 0, which reads as 1 (upright), as ImageInfo says.
                #expect(info.orientation == max(value, 1), "\(name)")
            }
        }

        @Test(arguments: ["jpg", "webp"])
        func pillowHopperExamplesComeOutUpright(_ ext: String) throws {
            let upright = try decode("exif-orientation/pillow-hopper/hopper.\(ext)", options: DecodingOptions())
            for value in 2...8 {
                let name = "exif-orientation/pillow-hopper/hopper_orientation_\(value).\(ext)"
                let image = try decode(name, options: DecodingOptions())
                #expect(image.size == upright.size, "\(name)")
                let psnr = ReferenceDecoder.psnr(CodecTestSupport.bytes(of: image, channels: 3), CodecTestSupport.bytes(of: upright, channels: 3))
                #expect(psnr > 25, "\(name): PSNR \(psnr) dB against hopper.\(ext)")
            }
        }

        @Test func targetSizeAppliesToTheDisplayedOrientation() throws {
            // Landscape_6 is stored 1200x1800 and shown 1800x1200: a 300x100 box gives 150x100.
            let image = try decode("exif-orientation/Landscape_6.jpg", options: DecodingOptions(targetSize: PixelSize(width: 300, height: 100)))
            #expect(image.size == PixelSize(width: 150, height: 100))
        }

        @Test(arguments: ["jpg", "webp"])
        func keptAsStoredTheyAreNotTurned(_ ext: String) throws {
            var stored = DecodingOptions()
            stored.appliesOrientation = false
            for value in [3, 6, 8] {
                let name = "exif-orientation/pillow-hopper/hopper_orientation_\(value).\(ext)"
                let asStored = try decode(name, options: stored)
                let upright = try decode(name, options: DecodingOptions())
                let bytes = { (image: Image) in CodecTestSupport.bytes(of: image, channels: 3) }
                let psnr = asStored.size == upright.size ? ReferenceDecoder.psnr(bytes(asStored), bytes(upright)) : 0
                #expect(psnr < 20, "\(name): orientation \(value) is not applied (PSNR \(psnr) dB against upright)")
                let turnedBack = Orientation(exifValue: value).applied(to: asStored)
                #expect(ReferenceDecoder.psnr(bytes(turnedBack), bytes(upright)) > 40, "\(name): the stored pixels, turned, are the upright ones")
            }
        }

        private func decode(_ name: String, options: DecodingOptions) throws -> Image {
            try CodecTestSupport.codec.decode(.file(path: Corpus.file(name).path), options: options)
        }
    }
}
