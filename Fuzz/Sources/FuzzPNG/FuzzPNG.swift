// Fuzzes the PNG decoder, with and without a target size (FuzzSupport.fuzzDecoder).
import FuzzSupport

@_cdecl("FuzzPNG_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        fuzzDecoder(bytes, count, format: .png)
        return 0
    }
}
