import Foundation
import OspreyCodec
import OspreyDomain
import OspreyTesting
import Testing

extension CPUBoundCodecTests {
    /// SVG through librsvg: recognised by its text, drawn at the size asked, within limits.
    @Suite("SVG")
    struct SVGDecoderTests {
        static let drawing = Data("""
            <?xml version="1.0" encoding="UTF-8"?>
            <!-- a flag -->
            <svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 40 20" width="40" height="20">
              <rect width="40" height="20" fill="#1e50a0"/>
              <circle cx="20" cy="10" r="7" fill="#ffd700"/>
              <path d="M2 2 L38 18" stroke="white" stroke-width="2"/>
            </svg>
            """.utf8)

        @Test func svgIsRecognisedByItsTextOnly() {
            for svg in ["<svg xmlns='http://www.w3.org/2000/svg'/>", "\u{FEFF}  <svg>", "<?xml version='1.0'?>\n<!-- c -->\n<!DOCTYPE svg PUBLIC \"-//W3C//DTD SVG 1.1//EN\" \"x\">\n<svg width='1'>"] {
                #expect(FormatDetector.detect(Data(svg.utf8)) == .svg, "\(svg)")
            }
            for other in ["<html><svg></svg></html>", "<?xml version='1.0'?><feed/>", "<svgfoo/>", "<!-- <svg> never closed"] {
                #expect(FormatDetector.detect(Data(other.utf8)) == nil, "\(other)")
            }
        }

        @Test func drawnAtTheSizeAskedLargerOrSmaller() throws {
            let codec = ImageCodec()
            #expect(try codec.info(.data(Self.drawing)).width == 40)
            let large = try codec.decode(.data(Self.drawing), options: DecodingOptions(targetSize: PixelSize(width: 400, height: 400)))
            #expect(large.size == PixelSize(width: 400, height: 200), "a vector is drawn past its own size")
            let filled = try codec.decode(.data(Self.drawing), options: DecodingOptions(targetSize: PixelSize(width: 50, height: 50), contentMode: .fill))
            #expect(filled.size == PixelSize(width: 50, height: 50))
            #expect(try codec.decode(.data(Self.drawing), options: DecodingOptions()).size == PixelSize(width: 40, height: 20))
        }

        @Test func drawnAsLibvipsDrawsIt() throws {
            let folder = try TemporaryFolder.make("svg")
            defer { try? FileManager.default.removeItem(at: folder) }
            let svg = folder.appendingPathComponent("flag.svg"), png = folder.appendingPathComponent("vips.png")
            try Self.drawing.write(to: svg)
            let vips = try ChildProcess.run("/usr/bin/env", ["vips", "svgload", svg.path, png.path, "--scale", "10"])
            try #require(vips.status == 0, "vips: \(vips.output)")
            let theirs = try #require(try ReferenceDecoder.decode([png], mode: .pillow)[png.path]?.get())
            let ours = try ImageCodec().decode(.data(Self.drawing), options: DecodingOptions(targetSize: PixelSize(width: 400, height: 200)))
            #expect(ours.size == PixelSize(width: theirs.width, height: theirs.height))
            let psnr = ReferenceDecoder.psnr(CodecTestSupport.bytes(of: ours, channels: theirs.channels), theirs.bytes)
            #expect(psnr >= 35, "PSNR \(psnr) dB against libvips' svgload at the same size")
        }

        @Test func limitsAndBrokenDocumentsAreTypedErrors() throws {
            let small = ImageCodec(limits: DecodingLimits(maxPixels: 10_000))
            #expect(throws: ImageDecodingError.tooManyPixels(width: 400, height: 200, limit: 10_000)) {
                try small.decode(.data(Self.drawing), options: DecodingOptions(targetSize: PixelSize(width: 400, height: 400)))
            }
            for broken in ["<svg xmlns='http://www.w3.org/2000/svg'><rect", "<svg xmlns='http://www.w3.org/2000/svg' width='0' height='0'/>",
                           "<svg xmlns='http://www.w3.org/2000/svg' width='1e30' height='1e30'/>"] {
                #expect(throws: ImageDecodingError.self, "\(broken)") {
                    try ImageCodec().decode(.data(Data(broken.utf8)), options: DecodingOptions(targetSize: PixelSize(width: 10, height: 10)))
                }
            }
        }
    }
}
