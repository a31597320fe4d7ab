/// CMYK to RGB without a colour profile, as most decoders do it.
enum CMYK {
    /// Converts `pixels` CMYK samples to RGB. Adobe writes CMYK inverted (0 = full ink);
    /// libjpeg hands the stored values through, so `inverted` says how to read them.
    static func convert(_ cmyk: [UInt8], into rgb: inout [UInt8], pixels: Int, inverted: Bool) {
        cmyk.withUnsafeBufferPointer { src in
            rgb.withUnsafeMutableBufferPointer { dst in
                for i in 0..<pixels {
                    var c = Int(src[i * 4]), m = Int(src[i * 4 + 1]), y = Int(src[i * 4 + 2]), k = Int(src[i * 4 + 3])
                    if !inverted { (c, m, y, k) = (255 - c, 255 - m, 255 - y, 255 - k) }
                    // Now 255 means no ink: channel = (255 - ink) * (255 - black) / 255.
                    dst[i * 3] = UInt8((c * k + 127) / 255)
                    dst[i * 3 + 1] = UInt8((m * k + 127) / 255)
                    dst[i * 3 + 2] = UInt8((y * k + 127) / 255)
                }
            }
        }
    }
}
