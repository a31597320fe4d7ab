import OspreyDomain
import OspreyPixels
import OspreyTesting
import Testing

@Suite("Resampler and Downsampler")
struct ResamplerTests {
    @Test(arguments: [PixelFormat.gray8, .rgb8, .rgba8])
    func solidColourStaysSolidAtEverySize(_ format: PixelFormat) {
        let image = TestImages.solid(PixelSize(width: 97, height: 61), value: 173, format: format)
        for size in [PixelSize(width: 10, height: 7), PixelSize(width: 96, height: 60), PixelSize(width: 200, height: 3)] {
            let resized = Resampler.resize(image, to: size)
            #expect(resized.size == size && resized.pixelFormat == format)
            #expect(resized.pixels.allSatisfy { $0 == 173 }, "\(format) at \(size)")
        }
    }

    @Test func transparentPixelsDoNotBleedTheirColour() throws {
        // Left half opaque red, right half fully transparent green.
        var pixels: [UInt8] = []
        for _ in 0..<8 { for x in 0..<16 { pixels += x < 8 ? [255, 0, 0, 255] : [0, 255, 0, 0] } }
        let image = try Image(width: 16, height: 8, pixelFormat: .rgba8, pixels: pixels)
        let resized = Resampler.resize(image, to: PixelSize(width: 5, height: 3))
        for p in stride(from: 0, to: resized.pixels.count, by: 4) where resized.pixels[p + 3] > 0 {
            #expect(resized.pixels[p + 1] == 0, "no green leaks into visible pixels")
        }
        var reducer = Downsampler(sourceSize: image.size, outputSize: PixelSize(width: 2, height: 1), pixelFormat: .rgba8)
        image.pixels.withUnsafeBufferPointer { reducer.consume($0.baseAddress!, count: 8, stride: 64) }
        let reduced = reducer.finish()
        #expect(Array(reduced.pixels[0..<3]) == [255, 0, 0] && reduced.pixels[3] > 200, "left stays opaque red")
        #expect(reduced.pixels[5] == 0 && reduced.pixels[7] < 40, "right stays transparent, and green never shows")
    }

    @Test func downsamplerAgreesWithResizingTheWholeImage() {
        let image = TestImages.gradient(PixelSize(width: 640, height: 480), format: .rgb8)
        let target = PixelSize(width: 64, height: 48)
        var reducer = Downsampler(sourceSize: image.size, outputSize: target, pixelFormat: .rgb8)
        #expect(reducer.intermediateSize.width < image.width, "rows are averaged as they arrive")
        image.pixels.withUnsafeBufferPointer { buffer in
            for y in stride(from: 0, to: 480, by: 16) { reducer.consume(buffer.baseAddress! + y * 1920, count: 16, stride: 1920) }
        }
        let streamed = reducer.finish()
        let whole = Resampler.resize(image, to: target)
        #expect(streamed.size == target)
        #expect(ReferenceDecoder.psnr(streamed.pixels, whole.pixels) > 25)
    }

    @Test func orientationsRoundTrip() {
        let image = TestImages.gradient(PixelSize(width: 5, height: 3), format: .rgb8)
        #expect(Orientation.right.applied(to: image).size == PixelSize(width: 3, height: 5))
        // Turning right four times, or mirroring twice, gives the original.
        var turned = image
        for _ in 0..<4 { turned = Orientation.right.applied(to: turned) }
        #expect(turned == image)
        #expect(Orientation.upMirrored.applied(to: Orientation.upMirrored.applied(to: image)) == image)
        #expect(Orientation.left.applied(to: Orientation.right.applied(to: image)) == image)
        #expect(Orientation(exifValue: 0) == .up && Orientation(exifValue: 9) == .up)
    }

    @Test func centreCropKeepsTheMiddle() throws {
        let image = try Image(width: 4, height: 1, pixelFormat: .gray8, pixels: [1, 2, 3, 4])
        #expect(GravityCrop.crop(image, to: PixelSize(width: 2, height: 1)).pixels == [2, 3])
    }
}
