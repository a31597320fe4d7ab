import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPixels
import OspreyTesting
import Testing

extension CPUBoundCodecTests {
    /// PQ and HLG images tone-mapped to SDR, against the operator of Docs/CODEC.md written again
    /// in numpy (`Tests/Scripts/hdr_reference.py`) over the samples libavif (`avifdec -d 16`) or
    /// pillow-heif decode: Debian's libavif 0.11 and libvips 8.14 have no tone mapping to compare with.
    @Suite("HDR")
    struct HDRTests {
        struct Case {
            let name: String
            let file: URL
            let transfer: Int
            let primaries: Int
            /// The 16-bit samples the reference maps: a PNG from avifdec, or the HEIC itself.
            let samples: URL
        }

        static func cases(in folder: URL) throws -> [Case] {
            func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
            // A photo's samples signalled as PQ and as HLG with BT.2020 primaries, as avifenc writes them.
            try JXLTests.tool("vipsthumbnail", [try Corpus.file("photos/craft-beer.jpg").path, "-s", "480", "-o", path("photo.png")])
            try JXLTests.tool("vips", ["colourspace", path("photo.png"), path("photo16.png"), "rgb16"])
            var cases: [Case] = []
            for (name, transfer) in [("pq", 16), ("hlg", 18)] {
                try JXLTests.tool("avifenc", ["--cicp", "9/\(transfer)/9", "-d", "10", "-s", "8", "--ignore-icc", path("photo16.png"), path(name + ".avif")])
                cases.append(Case(name: "avifenc \(name)", file: URL(fileURLWithPath: path(name + ".avif")), transfer: transfer, primaries: 9,
                                  samples: URL(fileURLWithPath: path(name + "16.png"))))
            }
            cases.append(Case(name: "libavif colors_hdr_p3", file: try Corpus.file("avif/libavif_colors_hdr_p3.avif"), transfer: 16, primaries: 12,
                              samples: URL(fileURLWithPath: path("colors16.png"))))
            for avif in cases {
                try JXLTests.tool("avifdec", ["-d", "16", avif.file.path, avif.samples.path])
            }
            let heic = try Corpus.file("heic/sdwebimage_TestHDR.heic")
            cases.append(Case(name: "SDWebImage TestHDR.heic", file: heic, transfer: 16, primaries: 9, samples: heic))
            return cases
        }

        @Test func pqAndHLGAreToneMappedAsTheReferenceMapsThem() throws {
            let folder = try TemporaryFolder.make("hdr")
            defer { try? FileManager.default.removeItem(at: folder) }
            for item in try Self.cases(in: folder) {
                let raw = folder.appendingPathComponent(item.name.replacingOccurrences(of: " ", with: "-") + ".raw")
                let size = try JXLTests.tool("python3", [Corpus.repositoryRoot.appendingPathComponent("Tests/Scripts/hdr_reference.py").path,
                                                         item.samples.path, "\(item.transfer)", "\(item.primaries)", raw.path])
                    .split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
                let reference = [UInt8](try Data(contentsOf: raw))
                let image = try CodecTestSupport.codec.decode(.file(path: item.file.path), options: DecodingOptions())
                #expect([image.width, image.height] == size, "\(item.name)")
                #expect(image.colorProfile == nil, "\(item.name): mapped to sRGB")
                let ours = CodecTestSupport.bytes(of: image, channels: 3)
                guard ours.count == reference.count else { continue }
                let psnr = ReferenceDecoder.psnr(ours, reference)
                #expect(psnr >= 30, "\(item.name): \(psnr) dB against the reference tone mapping")
                var clippedOnlyHere = 0
                for pixel in 0..<ours.count / 3 {
                    let base = pixel * 3
                    let oursClipped = ours[base..<base + 3].contains(255), referenceClipped = reference[base..<base + 3].contains(255)
                    if oursClipped && !referenceClipped { clippedOnlyHere += 1 }
                }
                #expect(Double(clippedOnlyHere) <= 0.01 * Double(ours.count / 3), "\(item.name): \(clippedOnlyHere) pixels clipped that the reference keeps")
                let info = try CodecTestSupport.codec.info(.file(path: item.file.path))
                #expect(info.convertsToSRGB && info.colorProfile?.contains(item.transfer == 16 ? "HDR PQ" : "HDR HLG") == true, "\(item.name): \(info)")
            }
        }

        @Test func aJPEGXLInPQIsToneMappedToo() throws {
            let folder = try TemporaryFolder.make("hdr-jxl")
            defer { try? FileManager.default.removeItem(at: folder) }
            func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
            try JXLTests.tool("vipsthumbnail", [try Corpus.file("photos/craft-beer.jpg").path, "-s", "320", "-o", path("photo.png")])
            try JXLTests.tool("vips", ["colourspace", path("photo.png"), path("tagged16.png"), "rgb16"])
            try JXLTests.tool("vips", ["copy", path("tagged16.png"), path("photo16.png") + "[strip]"])  // else cjxl keeps its sRGB profile
            // Lossless, so the reference can map the PNG's own samples.
            try JXLTests.tool("cjxl", [path("photo16.png"), path("pq.jxl"), "-d", "0", "-e", "1", "-x", "color_space=RGB_D65_202_Rel_PeQ"])
            let size = try JXLTests.tool("python3", [Corpus.repositoryRoot.appendingPathComponent("Tests/Scripts/hdr_reference.py").path,
                                                     path("photo16.png"), "16", "9", path("ref.raw")])
                .split(whereSeparator: \.isWhitespace).compactMap { Int($0) }
            let image = try CodecTestSupport.codec.decode(.file(path: path("pq.jxl")), options: DecodingOptions())
            #expect([image.width, image.height] == size)
            let psnr = ReferenceDecoder.psnr(CodecTestSupport.bytes(of: image, channels: 3), [UInt8](try Data(contentsOf: URL(fileURLWithPath: path("ref.raw")))))
            #expect(psnr >= 30, "\(psnr) dB against the reference tone mapping")
            // Lossy (XYB): the reference maps the PQ samples djxl decodes.
            try JXLTests.tool("cjxl", [path("photo16.png"), path("pq-lossy.jxl"), "-d", "1", "-e", "3", "-x", "color_space=RGB_D65_202_Rel_PeQ"])
            try JXLTests.tool("djxl", [path("pq-lossy.jxl"), path("pq-lossy16.png"), "--bits_per_sample=16"])
            try JXLTests.tool("python3", [Corpus.repositoryRoot.appendingPathComponent("Tests/Scripts/hdr_reference.py").path,
                                          path("pq-lossy16.png"), "16", "9", path("ref-lossy.raw")])
            let lossy = try CodecTestSupport.codec.decode(.file(path: path("pq-lossy.jxl")), options: DecodingOptions())
            let lossyPSNR = ReferenceDecoder.psnr(CodecTestSupport.bytes(of: lossy, channels: 3),
                                                  [UInt8](try Data(contentsOf: URL(fileURLWithPath: path("ref-lossy.raw")))))
            #expect(lossyPSNR >= 30, "lossy: \(lossyPSNR) dB against the reference tone mapping of djxl's samples")
        }

        @Test func anHDRImageWithAlphaKeepsItsAlpha() throws {
            let folder = try TemporaryFolder.make("hdr-alpha")
            defer { try? FileManager.default.removeItem(at: folder) }
            func path(_ name: String) -> String { folder.appendingPathComponent(name).path }
            try JXLTests.tool("vipsthumbnail", [try Corpus.file("photos/craft-beer.jpg").path, "-s", "240", "-o", path("photo.png")])
            // Alpha rising from left to right, at 16 bits, signalled as PQ.
            try JXLTests.tool("python3", ["-c", """
                from PIL import Image
                im = Image.open('\(path("photo.png"))').convert('RGBA')
                im.putalpha(Image.linear_gradient('L').rotate(90).resize(im.size))
                im.save('\(path("alpha.png"))')
                """])
            try JXLTests.tool("vips", ["colourspace", path("alpha.png"), path("alpha16-tagged.png"), "rgb16"])
            try JXLTests.tool("vips", ["copy", path("alpha16-tagged.png"), path("alpha16.png") + "[strip]"])
            try JXLTests.tool("avifenc", ["--cicp", "9/16/9", "-d", "10", "-s", "8", "--ignore-icc", path("alpha16.png"), path("pq-alpha.avif")])
            let image = try CodecTestSupport.codec.decode(.file(path: path("pq-alpha.avif")), options: DecodingOptions())
            #expect(image.pixelFormat.hasAlpha)
            let rgba = CodecTestSupport.bytes(of: image, channels: 4)
            let row = image.height / 2 * image.width * 4
            #expect(rgba[row + 3] < 10 && rgba[row + (image.width - 1) * 4 + 3] > 245, "alpha kept, not tone-mapped")
        }
    }
}
