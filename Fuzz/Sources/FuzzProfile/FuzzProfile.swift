// Fuzzes ICC profile reading and conversion (Little CMS) (FuzzSupport).
import FuzzSupport

@_cdecl("FuzzProfile_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        fuzzProfile(bytes, count)
        return 0
    }
}
