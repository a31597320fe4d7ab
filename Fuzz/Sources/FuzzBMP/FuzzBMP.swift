// Fuzzes the BMP reader of our own: headers, masks, palettes, RLE and limits.
import FuzzSupport

@_cdecl("FuzzBMP_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        fuzzDecoder(bytes, count, format: .bmp)
        return 0
    }
}
