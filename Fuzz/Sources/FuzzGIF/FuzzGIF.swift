// Fuzzes the GIF decoder, stills and every frame (FuzzSupport).
import FuzzSupport

@_cdecl("FuzzGIF_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        fuzzDecoder(bytes, count, format: .gif)
        return 0
    }
}
