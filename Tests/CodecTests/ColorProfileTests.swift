import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPixels
import OspreyTesting
import Testing

extension CPUBoundCodecTests {
    /// ICC-tagged images (`shared/corpus/icc/`): converted to sRGB as Little CMS does for
    /// Pillow and libvips, or kept with their profile.
    @Suite("Colour profiles")
    struct ColorProfileTests {
        static func files() throws -> [URL] {
            try CodecTestSupport.images(in: "icc", extensions: ["jpg", "jpeg", "png", "webp"])
        }

        /// libvips 8.14 fails Little CMS's v4 test image (it shows the text saying the viewer does
        /// not support v4 profiles); Pillow and Osprey pass it. Docs/CODEC.md.
        static let libvipsFails: Set<String> = ["nico_stress.jpeg"]

        @Test(arguments: [ReferenceDecoder.Mode.pillow, .vips])
        func convertedImagesMatchAColourManagedReference(_ mode: ReferenceDecoder.Mode) throws {
            var files = try Self.files()
            #expect(files.count == 23)
            if case .vips = mode { files.removeAll { Self.libvipsFails.contains($0.lastPathComponent) } }
            let references = try ReferenceDecoder.decode(files, mode: mode)
            for file in files {
                let name = file.lastPathComponent
                let reference = try #require(try? references[file.path]?.get(), "no reference for \(name)")
                let image = try CodecTestSupport.codec.decode(.file(path: file.path), options: DecodingOptions())
                #expect(image.colorProfile == nil, "\(name): converted pixels carry no profile")
                let ours = CodecTestSupport.bytes(of: image, channels: reference.channels)
                let psnr = reference.channels == 4
                    ? ReferenceDecoder.psnr(AnimationTests.overWhite(ours), AnimationTests.overWhite(reference.bytes))
                    : ReferenceDecoder.psnr(ours, reference.bytes)
                #expect(psnr >= 40, "\(name): \(psnr) dB")
            }
        }

        /// Each macbeth chart is the sRGB chart converted to another space with that profile
        /// embedded: converted back, the 24 patches match the sRGB original (SOURCES.md).
        @Test func macbethChartsComeBackToTheirSRGBColours() throws {
            let reference = try Self.patches("pngicc_macbeth-indexed-sRGB-sRGB-chunk.png", .convertToSRGB)
            for (name, tolerance) in [("v2-ProPhoto", 2), ("v4-ProPhoto", 2), ("v40-DisplayP3", 2), ("v4-CIE-Lstar", 1), ("sRGB-rgswap", 4)] {
                let converted = try Self.patches("pngicc_macbeth-\(name).png", .convertToSRGB)
                let kept = try Self.patches("pngicc_macbeth-\(name).png", .preserve)
                #expect(Self.maxError(converted, reference) <= tolerance + 1, "\(name): \(Self.maxError(converted, reference))")
                #expect(Self.maxError(kept, reference) > 50, "\(name) unconverted is far off")
            }
        }

        @Test func aHueRotatingProfilePutsRedAtTwelveOClock() throws {
            for ext in ["jpg", "png"] {
                let file = try Corpus.file("icc/linku_red-at-12-oclock-with-color-profile.\(ext)")
                let image = PixelConversion.converted(try CodecTestSupport.codec.decode(.file(path: file.path), options: DecodingOptions()), to: .rgb8)
                let expected: [(Int, Int, [Int])] = [(400, 120, [254, 0, 0]), (680, 400, [119, 255, 0]), (400, 680, [0, 255, 247]), (120, 400, [108, 0, 255])]
                for (x, y, rgb) in expected {
                    let offset = (y * image.width + x) * 3
                    let actual = (0..<3).map { Int(image.pixels[offset + $0]) }
                    #expect(zip(actual, rgb).allSatisfy { abs($0 - $1) <= 3 }, "\(ext) at (\(x), \(y)): \(actual), expected \(rgb)")
                }
            }
        }

        @Test func preservedImagesKeepTheirPixelsAndTheProfileReachesEveryEncoder() throws {
            for name in ["nuke_image-p3.jpg", "pngicc_macbeth-v40-DisplayP3.png", "exiv2_exiv2-bug1199.webp"] {
                let file = try Corpus.file("icc/\(name)")
                let kept = try CodecTestSupport.codec.decode(.file(path: file.path), options: DecodingOptions(colorHandling: .preserve))
                let profile = try #require(kept.colorProfile, "\(name)")
                #expect(try profile.name == CodecTestSupport.codec.info(.file(path: file.path)).colorProfile)
                // Unconverted pixels: what the raw decode gives, the same as with the profile stripped.
                var untagged = kept
                untagged.colorProfile = nil
                #expect(try Self.rawPixels(of: file) == PixelConversion.converted(untagged, to: .rgb8).pixels, "\(name)")
                for format in [ImageFormat.jpeg, .png, .webp] {
                    let data = try CodecTestSupport.codec.encode(kept, options: EncodingOptions(format: format, quality: 0.9))
                    #expect(try PillowProfile.bytes(in: data) == profile.data, "\(name) as \(format): Pillow reads the profile back")
                    let back = try CodecTestSupport.codec.decode(.data(data), options: DecodingOptions(colorHandling: .preserve))
                    #expect(back.colorProfile == profile)
                }
            }
        }

        @Test func grayAndCMYKProfilesConvert() throws {
            let gray = try CodecTestSupport.codec.decode(.file(path: Corpus.file("icc/nuke_grayscale.jpeg").path), options: DecodingOptions())
            #expect(gray.pixelFormat == .gray8, "gray stays one channel, on sRGB's curve")
            let info = try CodecTestSupport.codec.info(.file(path: Corpus.file("icc/thumbor_cmyk-icc.jpg").path))
            #expect(info.colorProfile == "U.S. Web Coated (SWOP) v2" && info.convertsToSRGB)
        }

        @Test func aDamagedProfileIsIgnoredAndTheImageStillDecodes() throws {
            // The Display P3 JPEG with bytes of its profile's tag table overwritten.
            var bytes = [UInt8](try Data(contentsOf: Corpus.file("icc/nuke_image-p3.jpg")))
            let marker = try #require(bytes.firstRange(of: Array("ICC_PROFILE".utf8)))
            let tagTable = marker.upperBound + 3 + 128
            for i in tagTable..<tagTable + 64 { bytes[i] = 0xFF }
            let damaged = Data(bytes)
            let info = try CodecTestSupport.codec.info(.data(damaged))
            #expect(!info.convertsToSRGB)
            let image = try CodecTestSupport.codec.decode(.data(damaged), options: DecodingOptions())
            let untagged = try CodecTestSupport.codec.decode(.file(path: Corpus.file("icc/nuke_image-p3.jpg").path), options: DecodingOptions(colorHandling: .preserve))
            #expect(image.pixels == untagged.pixels, "decoded as if untagged")
        }

        /// Mean RGB of the 24 patches (20×20 blocks at 60 + 110·i, 60 + 110·j).
        static func patches(_ name: String, _ handling: ColorHandling) throws -> [Int] {
            let image = PixelConversion.converted(
                try CodecTestSupport.codec.decode(.file(path: Corpus.file("icc/\(name)").path), options: DecodingOptions(colorHandling: handling)), to: .rgb8)
            var means: [Int] = []
            for j in 0..<4 {
                for i in 0..<6 {
                    var sums = [0, 0, 0]
                    for y in (50 + 110 * j)..<(70 + 110 * j) {
                        for x in (50 + 110 * i)..<(70 + 110 * i) {
                            for c in 0..<3 { sums[c] += Int(image.pixels[(y * image.width + x) * 3 + c]) }
                        }
                    }
                    means += sums.map { ($0 + 200) / 400 }
                }
            }
            return means
        }

        static func maxError(_ a: [Int], _ b: [Int]) -> Int { zip(a, b).map { abs($0 - $1) }.max() ?? 0 }

        /// Pixels of `file` as libjpeg, libpng or libwebp give them, with no colour management (Pillow).
        static func rawPixels(of file: URL) throws -> [UInt8] {
            try PillowProfile.run(["raw", file.path])
        }
    }
}

/// Asks Pillow what it reads from encoded bytes: the embedded profile, or raw RGB pixels.
enum PillowProfile {
    static let script = """
        import sys
        from PIL import Image
        mode, path = sys.argv[1], sys.argv[2]
        im = Image.open(path)
        if mode == "icc":
            sys.stdout.buffer.write(im.info.get("icc_profile") or b"")
        else:
            sys.stdout.buffer.write(im.convert("RGB").tobytes())
        """

    static func bytes(in data: Data) throws -> Data {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-icc-\(UUID().uuidString)")
        try data.write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        return Data(try run(["icc", file.path]))
    }

    static func run(_ arguments: [String]) throws -> [UInt8] {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", script] + arguments
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let bytes = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return [UInt8](bytes)
    }
}
