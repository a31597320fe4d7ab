// Fuzzes the EXIF reader with raw APP1 payloads.
import OspreyCodec

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let payload = UnsafeBufferPointer(start: bytes, count: count)
    if let orientation = ExifReader.orientation(in: payload) { precondition((1...8).contains(orientation)) }
    return 0
}

// SwiftPM links an executable's entry point as `FuzzExif_main`; hand control to libFuzzer's driver.
@_silgen_name("LLVMFuzzerRunDriver")
func runFuzzerDriver(
    _ argc: UnsafeMutablePointer<CInt>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?>,
    _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> CInt
) -> CInt

@_cdecl("FuzzExif_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    var count = argc
    var arguments = argv
    return runFuzzerDriver(&count, &arguments) { bytes, size in
        fuzz(bytes ?? UnsafePointer(bitPattern: 1)!, size)
    }
}
