// Fuzzes the EXIF reader (orientation, thumbnail) with raw APP1 payloads.
import FuzzSupport
import OspreyCodec

@_cdecl("FuzzExif_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        let payload = UnsafeBufferPointer(start: bytes, count: bytes == nil ? 0 : count)
        if let orientation = ExifReader.orientation(in: payload) { precondition((1...8).contains(orientation)) }
        if let thumbnail = ExifReader.thumbnailRange(in: payload) { precondition(thumbnail.upperBound <= count && thumbnail.count > 4) }
        return 0
    }
}
