// Fuzzes format detection and the header reader every decode starts with.
import FuzzSupport

@_cdecl("FuzzFormat_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        fuzzFormat(bytes, count)
        return 0
    }
}
