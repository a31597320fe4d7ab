// Fuzzes the SVG decoder's glue, its text detection and limits (librsvg is fuzzed upstream).
import FuzzSupport

@_cdecl("FuzzSVG_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        fuzzDecoder(bytes, count, format: .svg)
        return 0
    }
}
