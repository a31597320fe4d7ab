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
