// Fuzzes the EXIF reader with raw APP1 payloads.
import OspreyCodec

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let payload = UnsafeBufferPointer(start: bytes, count: count)
    if let orientation = ExifReader.orientation(in: payload) { precondition((1...8).contains(orientation)) }
    return 0
}
