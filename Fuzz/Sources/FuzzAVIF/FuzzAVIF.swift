// Fuzzes the AVIF decoder's glue and limits (libavif and libheif are fuzzed upstream).
import FuzzSupport

@_cdecl("FuzzAVIF_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        fuzzDecoder(bytes, count, format: .avif)
        return 0
    }
}
