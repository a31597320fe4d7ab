// The bare work of an osprey-server answer made from a kept reduction, with nothing around
// it: the photo's reduced decode made once and held, then each box of the server benchmark
// resampled from it and encoded as JPEG at quality 80, on this thread only. Beside libvips
// doing the same (compare_server.py), it says how far the server is from its own core work.
import Foundation
import OspreyCodec
import OspreyDomain
import OspreyPixels

let arguments = CommandLine.arguments
guard arguments.count >= 3, let denominator = Int(arguments[2]) else {
    print("usage: ResampleEncode PHOTO.jpg SCALE_DENOMINATOR [seconds]")
    exit(64)
}
let data = try Data(contentsOf: URL(fileURLWithPath: arguments[1]))
let seconds = arguments.count > 3 ? Double(arguments[3]) ?? 10 : 10
let codec = ImageCodec()
let source = try codec.info(.data(data))
let covered = PixelSize(width: (source.width + denominator - 1) / denominator, height: (source.height + denominator - 1) / denominator)
guard let reduction = try codec.decodeReduction(.data(data), options: DecodingOptions(targetSize: covered)) else {
    print("no reduced decode at 1/\(denominator)")
    exit(1)
}

var boxes: [PixelSize] = []
// Every width before the next height: a run cut short by its time still asks the server's
// spread of sizes (its output width decides the cost), not only the narrowest.
for height in stride(from: 400, through: 600, by: 7) { for width in 400...600 { boxes.append(PixelSize(width: width, height: height)) } }
let clock = ContinuousClock()
var (resampling, encoding) = (Duration.zero, Duration.zero)
var count = 0
var bytes = 0
let start = clock.now
for box in boxes where clock.now - start < .seconds(seconds) {
    let size = reduction.size.scaled(toFit: box, mode: .fit)
    let resampled = clock.now
    let image = Resampler.resize(reduction, to: size)
    let encoded = clock.now
    bytes += try codec.encode(image, options: EncodingOptions(format: .jpeg, quality: 0.8)).count
    encoding += clock.now - encoded
    resampling += encoded - resampled
    count += 1
}
let milliseconds = { (duration: Duration) in Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15 }
print(String(format: "%@ at 1/%d (%dx%d): %d answers, per answer %.2f ms resampling + %.2f ms encoding = %.2f ms (%d bytes)",
             arguments[1], denominator, reduction.width, reduction.height, count, milliseconds(resampling) / Double(count),
             milliseconds(encoding) / Double(count), milliseconds(resampling + encoding) / Double(count), bytes / max(count, 1)))
