import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPixels
import OspreyTesting
import Testing

extension CPUBoundCodecTests {
    /// Damaged GIFs drawn as browsers draw them (Docs/CODEC.md), on files crafted for each case.
    @Suite("Damaged GIFs")
    struct GIFDamageTests {
        static let palette: [UInt8] = [255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 0]
        static let all = DecodingOptions(frames: .all)

        static func rgba(_ image: Image) -> [UInt8] { PixelConversion.converted(image, to: .rgba8).pixels }

        static func pixel(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
            let pixels = rgba(image)
            let at = (y * image.width + x) * 4
            return Array(pixels[at..<at + 4])
        }

        @Test func aFrameCutMidwayKeepsTheRowsThatArrived() throws {
            // Row r in colour r % 4; the file ends 160 bytes into the pixel data (its first
            // sub-block is 255 long), so about eight rows arrive.
            let rows = (0..<16).flatMap { row in [UInt8](repeating: UInt8(row % 4), count: 16) }
            let whole = CraftedImages.gif(width: 16, height: 16, palette: Self.palette,
                                          frames: [.init(width: 16, height: 16, indices: rows)])
            let dataStart = 13 + 12 + 10 + 1 + 1
            let image = try CodecTestSupport.codec.decode(.data(whole.prefix(dataStart + 160)), options: Self.all)
            #expect(image.size == PixelSize(width: 16, height: 16) && image.animation == nil)
            for row in 0..<8 {
                let color = Array(Self.palette[row % 4 * 3..<row % 4 * 3 + 3]) + [255]
                #expect(Self.pixel(image, 0, row) == color && Self.pixel(image, 15, row) == color, "row \(row) arrived")
            }
            for row in 9..<16 { #expect(Self.pixel(image, 7, row) == [0, 0, 0, 0], "row \(row) did not arrive") }
            #expect(try CodecTestSupport.codec.info(.data(whole.prefix(dataStart + 160))).frameCount == 1)
        }

        @Test func aFileWithoutAnyColourTableIsDrawnInGrey() throws {
            let gif = CraftedImages.gif(width: 4, height: 1, palette: nil, frames: [.init(width: 4, height: 1, indices: [0, 64, 128, 255])])
            let image = try CodecTestSupport.codec.decode(.data(gif), options: DecodingOptions())
            #expect((0..<4).map { Self.pixel(image, $0, 0) } == [[0, 0, 0, 255], [64, 64, 64, 255], [128, 128, 128, 255], [255, 255, 255, 255]])
            // A frame without a table of its own takes the global one.
            let global = CraftedImages.gif(width: 2, height: 1, palette: Self.palette, frames: [.init(width: 2, height: 1, indices: [2, 3])])
            let drawn = try CodecTestSupport.codec.decode(.data(global), options: DecodingOptions())
            #expect(Self.pixel(drawn, 0, 0) == [0, 0, 255, 255] && Self.pixel(drawn, 1, 0) == [255, 255, 0, 255])
        }

        @Test func aZeroWidthFrameIsSkipped() throws {
            let gif = CraftedImages.gif(width: 4, height: 2, palette: Self.palette, frames: [
                .init(width: 0, height: 2, indices: []),
                .init(width: 4, height: 2, indices: [UInt8](repeating: 1, count: 8)),
            ])
            let image = try CodecTestSupport.codec.decode(.data(gif), options: Self.all)
            #expect(image.animation == nil && image.size == PixelSize(width: 4, height: 2))
            #expect(Self.pixel(image, 3, 1) == [0, 255, 0, 255])
            #expect(try CodecTestSupport.codec.info(.data(gif)).frameCount == 1)
        }

        @Test func aZeroHeightScreenTakesTheFirstFramesSize() throws {
            let gif = CraftedImages.gif(width: 4, height: 0, palette: Self.palette, frames: [.init(width: 4, height: 2, indices: [UInt8](repeating: 2, count: 8))])
            let image = try CodecTestSupport.codec.decode(.data(gif), options: DecodingOptions())
            #expect(image.size == PixelSize(width: 4, height: 2))
            #expect(Self.pixel(image, 0, 1) == [0, 0, 255, 255])
            let info = try CodecTestSupport.codec.info(.data(gif))
            #expect(info.width == 4 && info.height == 2)
        }

        @Test func aFrameWithNoDataEndsTheAnimationAtTheFrameBefore() throws {
            let gif = CraftedImages.gif(width: 4, height: 2, palette: Self.palette, frames: [
                .init(width: 4, height: 2, indices: [UInt8](repeating: 0, count: 8)),
                .init(width: 4, height: 2, indices: nil),
            ])
            let image = try CodecTestSupport.codec.decode(.data(gif), options: Self.all)
            #expect(image.animation == nil && Self.pixel(image, 0, 0) == [255, 0, 0, 255])
        }

        @Test func onlyAFileWithNoDrawableFrameIsAnError() throws {
            let empty = CraftedImages.gif(width: 4, height: 2, palette: Self.palette, frames: [])
            let onlyZeroWidth = CraftedImages.gif(width: 4, height: 2, palette: Self.palette, frames: [.init(width: 0, height: 2, indices: [])])
            for (name, gif) in [("no frame", empty), ("only a zero-width frame", onlyZeroWidth)] {
                #expect(throws: ImageDecodingError.corrupt(.gif, detail: "no drawable frame in the file"), "\(name)") {
                    try CodecTestSupport.codec.decode(.data(gif), options: Self.all)
                }
            }
        }
    }
}
