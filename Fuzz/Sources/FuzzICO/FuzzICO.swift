// Fuzzes the ICO reader of our own: the directory, its PNG and bitmap entries, AND masks.
import FuzzSupport

@_cdecl("FuzzICO_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        fuzzDecoder(bytes, count, format: .ico)
        return 0
    }
}
