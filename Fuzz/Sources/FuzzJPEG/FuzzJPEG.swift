// Fuzzes the JPEG decoder, with and without a target size (FuzzSupport.fuzzDecoder).
import FuzzSupport

@_cdecl("FuzzJPEG_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        fuzzDecoder(bytes, count, format: .jpeg)
        return 0
    }
}
