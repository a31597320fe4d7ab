// What every fuzz target shares: handing control to libFuzzer, and the decoder check.
import Foundation
import OspreyCodec
import OspreyDomain

@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

/// Runs libFuzzer's driver with `callback` as the input handler. SwiftPM links an
/// executable's entry point as `<Target>_main`, so each target exports that name and calls this.
public func runFuzzer(
    _ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments, callback)
}

/// Small limits keep each run quick; what matters is that no input crashes or overreads.
let codec = ImageCodec(limits: DecodingLimits(maxPixels: 16_000_000, maxInputBytes: 64_000_000, maxFrames: 200, maxAnimationPixels: 32_000_000))

/// Decodes `count` bytes expected to be `format`, at full size or at a fit or fill target
/// size the input's length picks (so seeds stay intact), and checks the output's geometry.
public func fuzzDecoder(_ bytes: UnsafePointer<UInt8>?, _ count: Int, format: ImageFormat) {
    let choice = count & 0xFF
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    var options = choice % 3 == 0 ? DecodingOptions()
        : DecodingOptions(targetSize: PixelSize(width: 1 + choice, height: 1 + (choice * 7) % 200), contentMode: choice % 2 == 0 ? .fit : .fill)
    if choice & 0x10 != 0 { options.frames = .all }
    if choice & 0x20 != 0 { options.colorHandling = .preserve }
    if choice & 0x80 != 0 { options.keepsHighBitDepth = true }
    _ = try? FormatDetector.decodableFormat(data.prefix(64), expecting: format)
    // Half the sized cases also ask for the placeholder's preview (a JPEG's EXIF thumbnail).
    if choice & 0x40 != 0, options.targetSize != nil, let preview = (try? codec.decodePreview(.data(data), options: options)) ?? nil {
        checkDecoded(preview, options: options)
    }
    guard let image = try? codec.decode(.data(data), options: options) else { return }
    checkDecoded(image, options: options)
}

/// What every decode of fuzzed bytes must hold: whole rows, frames of the image's size, and
/// the size the options ask for.
private func checkDecoded(_ image: Image, options: DecodingOptions) {
    precondition(image.pixels.count == image.bytesPerRow * image.height)
    if let animation = image.animation {
        precondition(animation.frames.allSatisfy { $0.image.size == image.size && $0.duration > .zero })
    }
    // fit stays inside the target; fill covers it, so one side at least is the target's.
    if let target = options.targetSize {
        if options.contentMode == .fit {
            precondition(image.width <= target.width + 1 && image.height <= target.height + 1)
        } else {
            precondition(image.width <= target.width + 1 || image.height <= target.height + 1)
        }
    }
}

/// Any bytes as an embedded ICC profile, converted to sRGB on small images of each layout.
public func fuzzProfile(_ bytes: UnsafePointer<UInt8>?, _ count: Int) {
    let profile = ColorProfile(data: bytes.map { Data(bytes: $0, count: count) } ?? Data())
    for format in PixelFormat.allCases {
        var image = try! Image(width: 4, height: 3, pixelFormat: format, pixels: (0..<12 * format.bytesPerPixel).map { UInt8(truncatingIfNeeded: $0 * 37) })
        image.colorProfile = profile
        let converted = ImageCodec.convertedToSRGB(image)
        precondition(converted.size == image.size && converted.pixelFormat == format && converted.colorProfile == nil)
    }
}

/// Format detection and header reading on any bytes.
public func fuzzFormat(_ bytes: UnsafePointer<UInt8>?, _ count: Int) {
    let data = bytes.map { Data(bytes: $0, count: count) } ?? Data()
    _ = FormatDetector.detect(data)
    _ = try? FormatDetector.decodableFormat(data)
    _ = try? codec.detectFormat(of: data.prefix(64))
    _ = try? codec.info(.data(data))
}

/// libFuzzer's runtime refers to this symbol; the targets hand their callback to the driver
/// instead, so it is never called.
@_cdecl("LLVMFuzzerTestOneInput")
public func unusedTestOneInput(_ bytes: UnsafePointer<UInt8>?, _ count: Int) -> CInt {
    fatalError("fuzz targets pass their callback to LLVMFuzzerRunDriver")
}
