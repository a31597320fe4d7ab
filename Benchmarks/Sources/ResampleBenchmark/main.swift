// One contender of the in-process resample comparison (compare_resample.py): Osprey's
// `Resampler.resize` ("new") or the float resampler it replaced ("float"), on raw RGB
// photographs decoded beforehand, on this thread only. A warm-up photo is resized first, then
// the measured one RUNS times; each run's milliseconds are printed on one line.
@_spi(Reference) import OspreyPixels
import Foundation
import OspreyDomain

let arguments = CommandLine.arguments
guard arguments.count == 10, let runs = Int(arguments[9]), let ratio = Double(arguments[8]),
      let sizes = Optional([arguments[3], arguments[4], arguments[6], arguments[7]].compactMap { Int($0) }), sizes.count == 4
else {
    print("usage: ResampleBenchmark new|float WARMUP.rgb WIDTH HEIGHT PHOTO.rgb WIDTH HEIGHT RATIO RUNS")
    exit(64)
}
func photo(_ path: String, _ width: Int, _ height: Int) throws -> Image {
    try Image(width: width, height: height, pixelFormat: .rgb8, pixels: [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
}
let float = arguments[1] == "float"
func resize(_ image: Image, _ size: PixelSize) -> Image {
    float ? FloatResampler.resize(image, to: size) : Resampler.resize(image, to: size)
}
func target(_ image: Image) -> PixelSize {
    PixelSize(width: Int((Double(image.width) / ratio).rounded()), height: Int((Double(image.height) / ratio).rounded()))
}
let warmup = try photo(arguments[2], sizes[0], sizes[1])
_ = resize(warmup, target(warmup))
let measured = try photo(arguments[5], sizes[2], sizes[3])
let clock = ContinuousClock()
var times: [String] = []
for _ in 0..<runs {
    let start = clock.now
    let out = resize(measured, target(measured))
    let elapsed = clock.now - start
    precondition(out.size == target(measured))
    times.append(String(format: "%.2f", Double(elapsed.components.attoseconds) / 1e15 + Double(elapsed.components.seconds) * 1000))
}
print(times.joined(separator: " "))
