// Fuzzes format detection and the header reader every decode starts with.
import Foundation
import OspreyCodec
import OspreyDomain

let codec = ImageCodec(limits: DecodingLimits(maxPixels: 16_000_000, maxInputBytes: 64_000_000))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    _ = FormatDetector.detect(data)
    _ = try? FormatDetector.decodableFormat(data)
    _ = try? codec.detectFormat(of: data.prefix(64))
    _ = try? codec.info(.data(data))
    return 0
}

// SwiftPM links an executable's entry point as `FuzzFormat_main`; hand control to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("FuzzFormat_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { bytes, size in
        fuzz(bytes ?? UnsafePointer(bitPattern: 1)!, size)
    }
}
