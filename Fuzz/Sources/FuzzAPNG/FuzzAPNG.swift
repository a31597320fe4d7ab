// Fuzzes the PNG decoder on animated PNGs, every frame (FuzzSupport).
import FuzzSupport

@_cdecl("FuzzAPNG_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        fuzzDecoder(bytes, count, format: .png)
        return 0
    }
}
