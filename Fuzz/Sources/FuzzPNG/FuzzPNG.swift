// Fuzzes the PNG decoder, at full size and at a target size the input's length picks (so seeds stay intact).
import Foundation
import OspreyCodec
import OspreyDomain

/// Small limits keep each run quick; what matters is that no input crashes or overreads.
let codec = ImageCodec(limits: DecodingLimits(maxPixels: 16_000_000, maxInputBytes: 64_000_000))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let choice = count & 0xFF
    let data = Data(bytes: bytes, count: count)
    let options = choice % 3 == 0 ? DecodingOptions()
        : DecodingOptions(targetSize: PixelSize(width: 1 + choice, height: 1 + (choice * 7) % 200), contentMode: choice % 2 == 0 ? .fit : .fill)
    _ = try? FormatDetector.decodableFormat(data.prefix(64), expecting: .png)
    if let image = try? codec.decode(.data(data), options: options) {
        precondition(image.pixels.count == image.bytesPerRow * image.height)
        // fit stays inside the target; fill covers it, so one side at least is the target's.
        if let target = options.targetSize {
            if options.contentMode == .fit {
                precondition(image.width <= target.width + 1 && image.height <= target.height + 1)
            } else {
                precondition(image.width <= target.width + 1 || image.height <= target.height + 1)
            }
        }
    }
    return 0
}

// SwiftPM links an executable's entry point as `FuzzPNG_main`; hand control to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("FuzzPNG_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { bytes, size in
        fuzz(bytes ?? UnsafePointer(bitPattern: 1)!, size)
    }
}
