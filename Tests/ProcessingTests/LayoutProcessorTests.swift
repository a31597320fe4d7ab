import Foundation
import OspreyDomain
import OspreyProcessing
import Testing

/// The processors imgproxy's `rotate`, `padding` and `background` run on.
@Suite("Rotate, padding and background")
struct LayoutProcessorTests {
    /// 3×2: red, green, blue on the top row; white, black, grey below.
    static let corners = Pixels.rgb(3, 2) { x, y in
        [[[255, 0, 0], [0, 255, 0], [0, 0, 255]], [[255, 255, 255], [0, 0, 0], [128, 128, 128]]][y][x]
    }

    @Test func quarterTurnsAreClockwise() throws {
        let right = try ImageProcessors.Rotate(quarterTurns: 1).process(Self.corners)
        #expect(right.size == PixelSize(width: 2, height: 3))
        #expect(Pixels.at(right, 1, 0) == [255, 0, 0] && Pixels.at(right, 0, 0) == [255, 255, 255], "the top row is now the right column")
        #expect(Pixels.at(right, 1, 2) == [0, 0, 255])
        let half = try ImageProcessors.Rotate(quarterTurns: 2).process(Self.corners)
        #expect(Pixels.at(half, 2, 1) == [255, 0, 0] && Pixels.at(half, 0, 0) == [128, 128, 128])
        let left = try ImageProcessors.Rotate(quarterTurns: -1).process(Self.corners)
        #expect(left.size == PixelSize(width: 2, height: 3) && Pixels.at(left, 0, 2) == [255, 0, 0], "−90° is 270°")
        #expect(ImageProcessors.Rotate(quarterTurns: 5).identifier == "rotate(90)")
        #expect(try ImageProcessors.Rotate(quarterTurns: 4).process(Self.corners) == Self.corners)
    }

    @Test func flipsMirrorAcrossDownOrBoth() throws {
        let across = try ImageProcessors.Flip(horizontal: true, vertical: false).process(Self.corners)
        #expect(Pixels.at(across, 0, 0) == [0, 0, 255] && Pixels.at(across, 2, 1) == [255, 255, 255], "left and right exchanged")
        let down = try ImageProcessors.Flip(horizontal: false, vertical: true).process(Self.corners)
        #expect(Pixels.at(down, 0, 0) == [255, 255, 255] && Pixels.at(down, 2, 1) == [0, 0, 255], "top and bottom exchanged")
        let both = try ImageProcessors.Flip(horizontal: true, vertical: true).process(Self.corners)
        #expect(both == (try ImageProcessors.Rotate(quarterTurns: 2).process(Self.corners)), "both is a half turn")
        #expect(try ImageProcessors.Flip(horizontal: false, vertical: false).process(Self.corners) == Self.corners)
        #expect(Set([across, down, both].map(\.size)) == [Self.corners.size])
        #expect(ImageProcessors.Flip(horizontal: true, vertical: true).identifier == "flip(hv)")
    }

    @Test func paddingGrowsTheImageInItsColourOrTransparent() throws {
        let teal = RGBAColor(red: 0, green: 128, blue: 128)
        let padded = try ImageProcessors.Padding(top: 1, right: 2, bottom: 3, left: 4, color: teal).process(Self.corners)
        #expect(padded.size == PixelSize(width: 9, height: 6) && padded.pixelFormat == .rgb8, "an opaque colour keeps RGB")
        #expect(Pixels.at(padded, 0, 0) == [0, 128, 128] && Pixels.at(padded, 8, 5) == [0, 128, 128])
        #expect(Pixels.at(padded, 4, 1) == [255, 0, 0] && Pixels.at(padded, 6, 2) == [128, 128, 128], "the image at (left, top)")
        let clear = try ImageProcessors.Padding(top: 2, right: 2, bottom: 2, left: 2).process(Self.corners)
        #expect(clear.pixelFormat == .rgba8 && Pixels.alpha(clear, 0, 0) == 0 && Pixels.alpha(clear, 2, 2) == 255)
        #expect(throws: ImageProcessingError.self) { try ImageProcessors.Padding(top: -1, right: 0, bottom: 0, left: 0).process(Self.corners) }
    }

    @Test func backgroundFlattensAlphaOntoTheColour() throws {
        let half = Pixels.solid(2, 2, [255, 0, 0, 128])
        let flat = try ImageProcessors.Background(color: RGBAColor(red: 0, green: 0, blue: 255)).process(half)
        #expect(flat.pixelFormat == .rgb8 && Pixels.at(flat, 1, 1) == [128, 0, 127])
        #expect(try ImageProcessors.Background(color: RGBAColor(red: 1, green: 2, blue: 3)).process(Self.corners) == Self.corners)
    }
}

/// The processors imgproxy's `sharpen` and `pixelate` run on.
@Suite("Sharpen and pixelate")
struct SharpenAndPixelateTests {
    /// A dark left half and a light right half: one vertical edge.
    static let edge = Pixels.rgb(8, 4) { x, _ in x < 4 ? [60, 60, 60] : [200, 200, 200] }

    @Test func sharpeningRaisesTheContrastAtAnEdgeAndLeavesFlatAreas() throws {
        let sharp = try ImageProcessors.Sharpen(radius: 2).process(Self.edge)
        #expect(Pixels.at(sharp, 3, 1)[0] < 60 && Pixels.at(sharp, 4, 1)[0] > 200, "each side of the edge moves away from the other")
        let flat = Pixels.rgb(5, 5) { _, _ in [90, 120, 150] }
        #expect(try ImageProcessors.Sharpen(radius: 3).process(flat) == flat)
        let clear = try ImageProcessors.Sharpen(radius: 2).process(Pixels.solid(4, 4, [10, 20, 30, 77]))
        #expect(Pixels.alpha(clear, 2, 2) == 77, "alpha is kept")
    }

    @Test func pixelationFillsEachSquareWithItsAverage() throws {
        let squares = try ImageProcessors.Pixelate(size: 3).process(Self.edge)
        #expect(Pixels.at(squares, 0, 0) == [60, 60, 60] && Pixels.at(squares, 2, 2) == [60, 60, 60])
        #expect(Pixels.at(squares, 3, 0) == [153, 153, 153] && Pixels.at(squares, 5, 2) == [153, 153, 153], "(60 + 2 × 200) / 3")
        #expect(Pixels.at(squares, 6, 3) == [200, 200, 200], "a square cut short at the edge")
        #expect(try ImageProcessors.Pixelate(size: 1).process(Self.edge) == Self.edge)
    }
}
