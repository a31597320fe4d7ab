// Fuzzes the HEIC decoder's glue and limits (libavif and libheif are fuzzed upstream).
import FuzzSupport

@_cdecl("FuzzHEIC_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        fuzzDecoder(bytes, count, format: .heic)
        return 0
    }
}
