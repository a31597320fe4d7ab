import Foundation
import OspreyCodec
import OspreyDomain
import OspreyTesting
import Testing

extension CPUBoundCodecTests {
    /// Animated GIFs written through libimagequant and cgif, read back by Osprey, Pillow and
    /// libvips, against what libvips writes of the same frames.
    @Suite("GIF encoder")
    struct GIFEncoderTests {
        static let animations = ["kingfisher_dancing-banana", "nuke_cat", "thumbor_Rotating_earth_large", "sdwebimage_TestLoopCount"]

        /// Frame count, each delay in milliseconds and the loop count Pillow reads.
        static func pillow(_ file: URL) throws -> (frames: Int, delays: [Int], loop: Int?) {
            let script = """
            import sys; from PIL import Image
            im = Image.open(sys.argv[1]); d = []
            for i in range(getattr(im, "n_frames", 1)):
                im.seek(i); im.convert("RGBA"); d.append(im.info.get("duration", 0))
            print(len(d), ",".join(map(str, d)), im.info.get("loop", "none"))
            """
            let outcome = try ChildProcess.run("/usr/bin/env", ["python3", "-c", script, file.path])
            try #require(outcome.status == 0, "Pillow: \(outcome.output)")
            let fields = outcome.output.split(separator: " ").map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }
            return (Int(fields[0]) ?? -1, fields[1].split(separator: ",").compactMap { Int($0) }, Int(fields[2]))
        }

        static func vips(_ arguments: [String]) throws -> String {
            let outcome = try ChildProcess.run("/usr/bin/env", arguments)
            try #require(outcome.status == 0, "\(arguments[0]): \(outcome.output)")
            return outcome.output.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        @Test(arguments: animations)
        func animationsKeepFramesDelaysAndLoopsAtLibvipsSize(_ name: String) throws {
            let folder = try TemporaryFolder.make("gif")
            defer { try? FileManager.default.removeItem(at: folder) }
            let source = try Corpus.file("gif/\(name).gif")
            let codec = ImageCodec()
            var all = DecodingOptions()
            all.frames = .all
            let decoded = try codec.decode(.file(path: source.path), options: all)
            let ours = folder.appendingPathComponent("osprey.gif"), theirs = folder.appendingPathComponent("vips.gif")
            try codec.encode(decoded, options: EncodingOptions(format: .gif)).write(to: ours)
            _ = try Self.vips(["vips", "copy", source.path + "[n=-1]", theirs.path])

            let back = try codec.decode(.file(path: ours.path), options: all)
            let frames = decoded.animation?.frames ?? []
            #expect(back.animation?.frames.count == frames.count, "\(name): Osprey reads every frame back")
            #expect(back.animation?.loopCount == decoded.animation?.loopCount, "\(name): the loop count is kept")
            let (source_, written) = (try Self.pillow(source), try Self.pillow(ours))
            #expect(written.frames == source_.frames && written.loop == source_.loop, "\(name): Pillow reads \(written) of \(source_)")
            #expect(zip(written.delays, source_.delays).allSatisfy { abs($0 - $1) <= 10 } && written.delays.count == source_.delays.count,
                    "\(name): each delay within 10 ms: \(written.delays) for \(source_.delays)")
            #expect(try Self.vips(["vipsheader", "-f", "n-pages", ours.path]) == String(frames.count), "\(name): libvips reads every frame")
            let (size, peer) = (try Data(contentsOf: ours).count, try Data(contentsOf: theirs).count)
            #expect(Double(size) <= 1.2 * Double(peer), "\(name): \(size) bytes against libvips' \(peer)")
            for (index, frame) in frames.enumerated() where index < (back.animation?.frames.count ?? 0) {
                let psnr = ReferenceDecoder.psnr(CodecTestSupport.bytes(of: frame.image, channels: 3),
                                                 CodecTestSupport.bytes(of: back.animation!.frames[index].image, channels: 3))
                #expect(psnr > 28, "\(name) frame \(index): \(psnr) dB")
            }
        }

        @Test func transparencyIsKeptAtOneBit() throws {
            // A 16×16 square whose left half is transparent, in two frames that move a dot.
            func frame(_ dot: Int) throws -> Image {
                var pixels: [UInt8] = []
                for y in 0..<16 {
                    for x in 0..<16 { pixels += x < 8 ? [0, 0, 0, 0] : (x == dot && y == 4 ? [255, 0, 0, 255] : [0, 0, 255, 200]) }
                }
                return try Image(width: 16, height: 16, pixelFormat: .rgba8, pixels: pixels)
            }
            let animation = ImageAnimation(frames: [.init(image: try frame(10), duration: .milliseconds(200)),
                                                    .init(image: try frame(12), duration: .milliseconds(300))], loopCount: 3)
            let image = Image(animation: animation)
            let codec = ImageCodec()
            var all = DecodingOptions()
            all.frames = .all
            let back = try codec.decode(.data(try codec.encode(image, options: EncodingOptions(format: .gif))), options: all)
            let second = try #require(back.animation?.frames.last?.image)
            #expect(back.animation?.loopCount == 3 && back.animation?.frames.map(\.duration) == [.milliseconds(200), .milliseconds(300)])
            let pixel = { (image: Image, x: Int, y: Int) in Array(CodecTestSupport.bytes(of: image, channels: 4)[(y * 16 + x) * 4..<(y * 16 + x) * 4 + 4]) }
            #expect(pixel(second, 2, 2)[3] == 0, "the left half stays transparent")
            #expect(pixel(second, 12, 4) == [255, 0, 0, 255] && pixel(second, 10, 4) == [0, 0, 255, 255], "the dot moved; alpha 200 is opaque")
        }
    }
}
