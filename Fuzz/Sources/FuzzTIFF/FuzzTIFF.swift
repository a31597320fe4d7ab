// Fuzzes the TIFF decoder's glue, its CMYK reading and limits (libtiff is fuzzed upstream).
import FuzzSupport

@_cdecl("FuzzTIFF_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        fuzzDecoder(bytes, count, format: .tiff)
        return 0
    }
}
