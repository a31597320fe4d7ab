// In-process codec figures: how many 640 px thumbnails of a 24-megapixel JPEG one core
// makes per second, decoding from memory (no file I/O, no process start-up).
import Foundation
import OspreyCodec
import OspreyDomain

let arguments = CommandLine.arguments
guard arguments.count >= 2 else {
    print("usage: CodecBenchmark BIG.jpg [seconds]")
    exit(64)
}
let data = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
let seconds = arguments.count > 2 ? Double(arguments[2]) ?? 10 : 10
let codec = ImageCodec()
let options = DecodingOptions(targetSize: PixelSize(width: 640, height: 640))
let source = try codec.info(.data(data))

// One warm-up, then as many as fit in the time, on this thread only.
_ = try codec.decode(.data(data), options: options)
let clock = ContinuousClock()
let start = clock.now
var count = 0
var last: Image?
while clock.now - start < .seconds(seconds) {
    last = try codec.decode(.data(data), options: options)
    count += 1
}
let elapsed = clock.now - start
let perSecond = Double(count) / (Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18)
print(String(format: "%@ %dx%d -> %@: %d thumbnails in %.1f s = %.1f per second on one core",
             arguments[1], source.width, source.height, last.map { "\($0.width)x\($0.height)" } ?? "?", count, seconds, perSecond))
