// Fuzzes the JPEG XL decoder's glue, limits and tone mapping (libjxl is fuzzed upstream).
import FuzzSupport

@_cdecl("FuzzJXL_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        fuzzDecoder(bytes, count, format: .jxl)
        return 0
    }
}
