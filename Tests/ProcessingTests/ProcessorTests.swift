import Foundation
import OspreyDomain
import OspreyPixels
import OspreyProcessing
import Testing

/// Small images built pixel by pixel for the processor tests.
enum Pixels {
    static func solid(_ width: Int, _ height: Int, _ rgba: [UInt8]) -> Image {
        try! Image(width: width, height: height, pixelFormat: .rgba8, pixels: Array([[UInt8]](repeating: rgba, count: width * height).joined()))
    }

    static func rgb(_ width: Int, _ height: Int, _ pixel: (Int, Int) -> [UInt8]) -> Image {
        var pixels: [UInt8] = []
        for y in 0..<height { for x in 0..<width { pixels += pixel(x, y) } }
        return try! Image(width: width, height: height, pixelFormat: .rgb8, pixels: pixels)
    }

    static func at(_ image: Image, _ x: Int, _ y: Int) -> [UInt8] {
        let bpp = image.pixelFormat.bytesPerPixel, p = y * image.bytesPerRow + x * bpp
        return Array(image.pixels[p..<p + bpp])
    }

    static func alpha(_ image: Image, _ x: Int, _ y: Int) -> Int { Int(at(image, x, y)[3]) }
}

@Suite("Resize and crop")
struct ResizeAndCropTests {
    /// Left half red, right half blue.
    static let halves = Pixels.rgb(400, 200) { x, _ in x < 200 ? [255, 0, 0] : [0, 0, 255] }

    @Test func fitKeepsTheAspectRatioInsideTheSize() throws {
        let out = try ImageProcessors.Resize(size: PixelSize(width: 200, height: 200)).process(Self.halves)
        #expect(out.size == PixelSize(width: 200, height: 100))
        #expect(Pixels.at(out, 10, 50) == [255, 0, 0] && Pixels.at(out, 190, 50) == [0, 0, 255])
    }

    @Test func fillCoversTheSizeAndCropsTheCentre() throws {
        let out = try ImageProcessors.Resize(size: PixelSize(width: 100, height: 100), contentMode: .fill).process(Self.halves)
        #expect(out.size == PixelSize(width: 100, height: 100))
        // The centre 100 columns of the 200-wide scaled image: half red, half blue.
        #expect(Pixels.at(out, 10, 50) == [255, 0, 0] && Pixels.at(out, 90, 50) == [0, 0, 255])
        let uncropped = try ImageProcessors.Resize(size: PixelSize(width: 100, height: 100), contentMode: .fill, crop: false).process(Self.halves)
        #expect(uncropped.size == PixelSize(width: 200, height: 100))
    }

    @Test func staticMembersBuildTheSameProcessorsAsNukeSpellsThem() throws {
        let processors: [any ImageProcessing] = [.resize(width: 200), .roundedCorners(radius: 12), .blur(radius: 2)]
        #expect(processors.map(\.identifier) == ["resize(w=200)", ImageProcessors.RoundedCorners(radius: 12).identifier,
                                                  ImageProcessors.GaussianBlur(radius: 2).identifier])
        let wide = try ImageProcessors.Resize.resize(width: 100).process(Self.halves)
        #expect(wide.size == PixelSize(width: 100, height: 50), "the height follows the aspect ratio")
        let tall = try ImageProcessors.Resize.resize(height: 50).process(Self.halves)
        #expect(tall.size == PixelSize(width: 100, height: 50))
        let listed: [any ImageProcessing] = [.circle, .grayscale, .tint(RGBAColor(red: 1, green: 2, blue: 3)), .crop(x: 0, y: 0, width: 2, height: 2),
                                             .colorOverlay(RGBAColor(red: 0, green: 0, blue: 0)), .resize(size: PixelSize(width: 9, height: 9), contentMode: .fill),
                                             .composition([.grayscale, .blur(radius: 1)]), .resize(height: 30)]
        #expect(Set(listed.map(\.identifier)).count == listed.count, "each names itself apart")
    }

    @Test func neverUpscales() throws {
        let small = Pixels.solid(50, 40, [1, 2, 3, 255])
        #expect(try ImageProcessors.Resize(size: PixelSize(width: 200, height: 200)).process(small) == small)
    }

    @Test func cropCopiesTheRectangleAndRefusesOneOutside() throws {
        let gradient = Pixels.rgb(30, 20) { x, y in [UInt8(x), UInt8(y), 7] }
        let out = try ImageProcessors.Crop(x: 5, y: 3, width: 10, height: 4).process(gradient)
        #expect(out.size == PixelSize(width: 10, height: 4))
        #expect(Pixels.at(out, 0, 0) == [5, 3, 7] && Pixels.at(out, 9, 3) == [14, 6, 7])
        #expect(throws: ImageProcessingError.self) { try ImageProcessors.Crop(x: 25, y: 0, width: 10, height: 4).process(gradient) }
        #expect(throws: ImageProcessingError.self) { try ImageProcessors.Crop(x: 0, y: 0, width: 0, height: 4).process(gradient) }
    }
}

@Suite("Corners and circle")
struct CornerTests {
    @Test func roundedCornersAreTransparentAntialiasedAndSymmetric() throws {
        let out = try ImageProcessors.RoundedCorners(radius: 20).process(Pixels.solid(100, 100, [200, 100, 50, 255]))
        #expect(out.pixelFormat == .rgba8)
        #expect(Pixels.alpha(out, 0, 0) == 0 && Pixels.alpha(out, 99, 99) == 0)
        #expect(Pixels.alpha(out, 50, 0) == 255 && Pixels.alpha(out, 50, 50) == 255 && Pixels.alpha(out, 20, 20) == 255)
        let corner = (0..<20).flatMap { y in (0..<20).map { x in Pixels.alpha(out, x, y) } }
        let partial = corner.filter { $0 > 0 && $0 < 255 }.count
        #expect(partial >= 20, "pixels on the arc are partly covered (antialiased): \(partial)")
        for (x, y) in [(3, 7), (10, 2), (6, 6)] {
            #expect(Pixels.alpha(out, x, y) == Pixels.alpha(out, 99 - x, y) && Pixels.alpha(out, x, y) == Pixels.alpha(out, x, 99 - y))
        }
        #expect(Array(Pixels.at(out, 50, 50).prefix(3)) == [200, 100, 50], "colour is untouched")
    }

    @Test func circleCropsTheCentreSquareAndCoversAnInscribedDisc() throws {
        let out = try ImageProcessors.Circle().process(Pixels.solid(120, 80, [0, 0, 0, 255]))
        #expect(out.size == PixelSize(width: 80, height: 80))
        #expect(Pixels.alpha(out, 0, 0) == 0 && Pixels.alpha(out, 40, 40) == 255 && Pixels.alpha(out, 40, 1) > 0)
        var total = 0
        for y in 0..<80 { for x in 0..<80 { total += Pixels.alpha(out, x, y) } }
        let disc = Double.pi * 40 * 40 * 255
        #expect(abs(Double(total) - disc) / disc < 0.01, "coverage \(total) vs π r² \(Int(disc))")
    }
}

@Suite("Gaussian blur")
struct BlurTests {
    @Test func aUniformImageStaysUniformAndRadiusZeroIsIdentity() throws {
        let flat = Pixels.solid(20, 20, [90, 120, 30, 255])
        #expect(try ImageProcessors.GaussianBlur(radius: 5).process(flat) == flat)
        let noise = Pixels.rgb(9, 9) { x, y in [UInt8(x * 25), UInt8(y * 25), UInt8((x * y) % 256)] }
        #expect(try ImageProcessors.GaussianBlur(radius: 0).process(noise) == noise)
    }

    @Test func matchesADirectTwoDimensionalConvolution() throws {
        var generator = SystemRandomNumberGenerator()
        let seeds = (0..<(24 * 18)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let gray = try Image(width: 24, height: 18, pixelFormat: .gray8, pixels: seeds)
        let out = try ImageProcessors.GaussianBlur(radius: 3).process(gray)
        #expect(out.pixelFormat == .gray8)
        let sigma = 1.5, reach = 5
        for (x, y) in [(0, 0), (12, 9), (23, 17), (5, 14)] {
            var sum = 0.0, weights = 0.0
            for dy in -reach...reach {
                for dx in -reach...reach {
                    let w = exp(-Double(dx * dx + dy * dy) / (2 * sigma * sigma))
                    let sx = min(max(x + dx, 0), 23), sy = min(max(y + dy, 0), 17)
                    sum += w * Double(seeds[sy * 24 + sx])
                    weights += w
                }
            }
            #expect(abs(Int(Pixels.at(out, x, y)[0]) - Int((sum / weights).rounded())) <= 1, "pixel \(x),\(y)")
        }
    }

    @Test func aDotSpreadsSymmetricallyAndKeepsItsEnergy() throws {
        var pixels = [UInt8](repeating: 0, count: 31 * 31)
        pixels[15 * 31 + 15] = 255
        let out = try ImageProcessors.GaussianBlur(radius: 4).process(try Image(width: 31, height: 31, pixelFormat: .gray8, pixels: pixels))
        #expect(Pixels.at(out, 15, 15)[0] < 255 && Pixels.at(out, 16, 15)[0] > 0)
        #expect(Pixels.at(out, 13, 15) == Pixels.at(out, 17, 15) && Pixels.at(out, 15, 12) == Pixels.at(out, 15, 18))
        let energy = out.pixels.reduce(0) { $0 + Int($1) }
        #expect(abs(energy - 255) <= 40, "sum \(energy), rounding aside")
    }

    @Test func transparentNeighboursDoNotBleedColour() throws {
        // Opaque red beside fully transparent green: blurred colour where visible stays red.
        var pixels: [UInt8] = []
        for _ in 0..<10 { for x in 0..<20 { pixels += x < 10 ? [255, 0, 0, 255] : [0, 255, 0, 0] } }
        let out = try ImageProcessors.GaussianBlur(radius: 4).process(try Image(width: 20, height: 10, pixelFormat: .rgba8, pixels: pixels))
        let edge = Pixels.at(out, 11, 5)
        #expect(edge[3] > 0 && edge[3] < 255 && edge[0] == 255 && edge[1] == 0, "\(edge)")
    }
}

@Suite("Colour processors")
struct ColorTests {
    static let ramp = try! Image(width: 3, height: 1, pixelFormat: .rgba8, pixels: [255, 255, 255, 255, 0, 0, 0, 128, 128, 128, 128, 200])

    @Test func tintScalesTheColourByLuma() throws {
        let out = try ImageProcessors.Tint(color: RGBAColor(hex: "#ff8000")!).process(Self.ramp)
        #expect(Pixels.at(out, 0, 0) == [255, 128, 0, 255])
        #expect(Pixels.at(out, 1, 0) == [0, 0, 0, 128])
        #expect(Pixels.at(out, 2, 0) == [128, 64, 0, 200])
    }

    @Test func overlayBlendsAtItsFractionAndKeepsAlpha() throws {
        let blue = RGBAColor(red: 0, green: 0, blue: 255)
        #expect(try ImageProcessors.ColorOverlay(color: blue, fraction: 0).process(Self.ramp) == Self.ramp)
        #expect(Pixels.at(try ImageProcessors.ColorOverlay(color: blue, fraction: 1).process(Self.ramp), 1, 0) == [0, 0, 255, 128])
        #expect(Pixels.at(try ImageProcessors.ColorOverlay(color: blue, fraction: 0.5).process(Self.ramp), 0, 0) == [127, 127, 255, 255])
    }

    @Test func grayscaleUsesRec601AndKeepsAlpha() throws {
        let opaque = Pixels.rgb(2, 1) { x, _ in x == 0 ? [255, 0, 0] : [10, 200, 30] }
        let gray = try ImageProcessors.Grayscale().process(opaque)
        #expect(gray.pixelFormat == .gray8 && gray.pixels == [76, 124])
        let withAlpha = try ImageProcessors.Grayscale().process(Self.ramp)
        #expect(withAlpha.pixelFormat == .rgba8 && Pixels.at(withAlpha, 2, 0) == [128, 128, 128, 200])
    }

    @Test func colorsParseFromHex() {
        #expect(RGBAColor(hex: "#0a0B0c") == RGBAColor(red: 10, green: 11, blue: 12))
        #expect(RGBAColor(hex: "01020380")?.alpha == 128 && RGBAColor(hex: "#01020380")?.description == "#01020380")
        #expect(RGBAColor(hex: "#12345") == nil && RGBAColor(hex: "zzzzzz") == nil)
    }
}

@Suite("Composition, lists and identifiers")
struct CompositionTests {
    @Test func aCompositionAppliesInOrderAndNamesItsParts() throws {
        let image = Pixels.rgb(40, 30) { x, y in [UInt8(x * 6), UInt8(y * 8), 90] }
        let parts: [any ImageProcessing] = [ImageProcessors.Grayscale(), ImageProcessors.Crop(x: 2, y: 2, width: 10, height: 10)]
        let composed = ImageProcessors.Composition(parts)
        #expect(try composed.process(image) == (try parts[1].process(try parts[0].process(image))))
        #expect(composed.identifier == "[grayscale|crop(2,2,10,10)]")
    }

    @Test func everyVariantHasItsOwnIdentifier() {
        let identifiers = [
            ImageProcessors.Resize(size: PixelSize(width: 10, height: 10)).identifier,
            ImageProcessors.Resize(size: PixelSize(width: 10, height: 10), contentMode: .fill).identifier,
            ImageProcessors.GaussianBlur(radius: 4).identifier, ImageProcessors.GaussianBlur(radius: 5).identifier,
            ImageProcessors.RoundedCorners(radius: 4).identifier, ImageProcessors.Circle().identifier,
            ImageProcessors.Tint(color: RGBAColor(red: 1, green: 2, blue: 3)).identifier,
            ImageProcessors.ColorOverlay(color: RGBAColor(red: 1, green: 2, blue: 3), fraction: 0.4).identifier,
            ImageProcessors.ColorOverlay(color: RGBAColor(red: 1, green: 2, blue: 3), fraction: 0.5).identifier,
            ImageProcessors.Grayscale().identifier,
        ]
        #expect(Set(identifiers).count == identifiers.count, "\(identifiers)")
    }

    @Test func listsParseIntoProcessorsAndBadItemsAreTypedErrors() throws {
        let list = try ProcessorList.parse("blur=4, round=12,grayscale,circle,tint=#ff0000,overlay=#000000:0.25,crop=1:2:3:4,resize=20x10:fill")
        #expect(list.map(\.identifier) == ["blur(4)", "round(12)", "grayscale", "circle", "tint(#ff0000ff)",
                                           "overlay(#000000ff,250)", "crop(1,2,3,4)", "resize(20x10,fill)"])
        #expect(try ProcessorList.parse("").isEmpty)
        #expect(throws: ProcessorList.ParseError.unknownProcessor("sparkle")) { try ProcessorList.parse("sparkle") }
        #expect(throws: ProcessorList.ParseError.self) { try ProcessorList.parse("blur=x") }
        #expect(throws: ProcessorList.ParseError.self) { try ProcessorList.parse("overlay=#000000:2") }
        #expect(throws: ProcessorList.ParseError.self) { try ProcessorList.parse("crop=1:2:3") }
    }

    @Test func collagesPlacePhotosInTheirCellsInsideTheFrame() throws {
        let frame = Pixels.solid(200, 300, [255, 255, 255, 255])
        let colours: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255], [0, 0, 0, 255]]
        let photos = colours.enumerated().map { Pixels.solid(40 + $0.offset * 30, 90, $0.element) }
        let card = try Collage.compose(frame: frame, photos: photos)
        #expect(card.size == frame.size)
        #expect(Pixels.at(card, 2, 2) == [255, 255, 255, 255], "the margin shows the frame")
        let centres = [(55, 80), (145, 80), (55, 220), (145, 220)]
        for (index, (x, y)) in centres.enumerated() { #expect(Pixels.at(card, x, y) == colours[index], "cell \(index)") }
        #expect(throws: ImageProcessingError.self) { try Collage.compose(frame: frame, photos: Array(photos.prefix(3))) }
        let row = try Collage.compose(frame: frame, photos: Array(photos.prefix(3)), columns: 3, rows: 1)
        #expect(row.size == frame.size)
        let rowCentres = [(39, 150), (100, 150), (161, 150)]  // three cells of 55 between margins of 12 and gaps of 6
        for (index, (x, y)) in rowCentres.enumerated() { #expect(Pixels.at(row, x, y) == colours[index], "row cell \(index)") }
    }
}
