import Foundation
import OspreyDomain
import OspreyProcessing
import OspreyContracts
import OspreyTesting
import Testing

/// Every processor of OspreyProcessing passes the ImageProcessing contract the fakes pass.
@Suite("The real processors")
struct ProcessorContractTests {
    static let red = RGBAColor(red: 255, green: 0, blue: 0)
    static let blue = RGBAColor(red: 0, green: 0, blue: 255)

    /// Each processor twice with other parameters (the parameterless ones once), with the size
    /// each makes of a 40×30 gradient.
    static func processors() -> [(any ImageProcessing, PixelSize)] {
        let input = PixelSize(width: 40, height: 30)
        let mark = TestImages.solid(PixelSize(width: 6, height: 4), value: 0x20)
        return [
            (ImageProcessors.Resize(size: PixelSize(width: 20, height: 20)), PixelSize(width: 20, height: 15)),
            (ImageProcessors.Resize(size: PixelSize(width: 20, height: 20), contentMode: .fill), PixelSize(width: 20, height: 20)),
            (ImageProcessors.Crop(x: 1, y: 2, width: 10, height: 8), PixelSize(width: 10, height: 8)),
            (ImageProcessors.Crop(x: 0, y: 0, width: 5, height: 5), PixelSize(width: 5, height: 5)),
            (ImageProcessors.Trim(threshold: 255), input),  // all border: kept whole
            (ImageProcessors.Trim(threshold: 0, color: RGBAColor(red: 1, green: 2, blue: 3, alpha: 4)), input),  // no border
            (ImageProcessors.Rotate(quarterTurns: 1), PixelSize(width: 30, height: 40)),
            (ImageProcessors.Rotate(quarterTurns: 2), input),
            (ImageProcessors.Padding(top: 1, right: 2, bottom: 3, left: 4), PixelSize(width: 46, height: 34)),
            (ImageProcessors.Padding(top: 5, right: 5, bottom: 5, left: 5, color: red), PixelSize(width: 50, height: 40)),
            (ImageProcessors.Background(color: red), input),
            (ImageProcessors.Background(color: blue), input),
            (ImageProcessors.RoundedCorners(radius: 4), input),
            (ImageProcessors.RoundedCorners(radius: 8), input),
            (ImageProcessors.Circle(), PixelSize(width: 30, height: 30)),
            (ImageProcessors.GaussianBlur(radius: 2), input),
            (ImageProcessors.GaussianBlur(radius: 4), input),
            (ImageProcessors.Sharpen(radius: 1), input),
            (ImageProcessors.Sharpen(radius: 2), input),
            (ImageProcessors.Pixelate(size: 4), input),
            (ImageProcessors.Pixelate(size: 8), input),
            (ImageProcessors.Grayscale(), input),
            (ImageProcessors.Tint(color: red), input),
            (ImageProcessors.Tint(color: blue), input),
            (ImageProcessors.ColorOverlay(color: red, fraction: 0.5), input),
            (ImageProcessors.ColorOverlay(color: red, fraction: 0.25), input),
            (ImageProcessors.Overlay(mark, name: "mark", placement: .at(x: 2, y: 2), opacity: 0.5), input),
            (ImageProcessors.Overlay(mark, name: "mark", placement: .tiled(spacingX: 1, spacingY: 1)), input),
            (ImageProcessors.Composition([ImageProcessors.Resize(size: PixelSize(width: 20, height: 20)), ImageProcessors.Grayscale()]),
             PixelSize(width: 20, height: 15)),
        ]
    }

    @Test("OspreyProcessing's processors pass the ImageProcessing contract", arguments: ImageProcessingContract.Check.allCases)
    func contract(_ check: ImageProcessingContract.Check) throws {
        let (made, remade) = (Self.processors(), Self.processors())
        try ImageProcessingContract(fixture: .init(variants: made.map(\.0), remade: remade.map(\.0),
                                                   input: TestImages.gradient(PixelSize(width: 40, height: 30)),
                                                   expectedSizes: made.map(\.1))).run(check)
    }
}
