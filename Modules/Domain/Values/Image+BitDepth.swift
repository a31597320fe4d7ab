import Foundation

extension Image {
    /// The image at 8 bits a sample, each 16-bit sample rounded (as libvips casts); itself
    /// when it is 8-bit already. Profile and metadata are kept. An HDR signal
    /// (``colorCodePoints``) is tone-mapped to sRGB instead, as decoders map it by default.
    public var narrowedToEightBits: Image {
        guard pixelFormat.isHighBitDepth else { return self }
        let samples = width * pixelFormat.channels
        var narrowed = [UInt8](repeating: 0, count: samples * height)
        let hdr = colorCodePoints.flatMap { $0.isHDR && pixelFormat.channels >= 3 ? $0 : nil }
        pixels.withUnsafeBytes { raw in
            if let hdr {
                var wide = [UInt16](repeating: 0, count: samples * height)
                for y in 0..<height {
                    wide.withUnsafeMutableBytes { ($0.baseAddress! + y * samples * 2).copyMemory(from: raw.baseAddress! + y * bytesPerRow, byteCount: samples * 2) }
                }
                wide.withUnsafeBufferPointer { source in
                    narrowed.withUnsafeMutableBufferPointer { hdr.toneMapped(source, channels: pixelFormat.channels, into: $0) }
                }
                return
            }
            for y in 0..<height {
                let row = raw.baseAddress! + y * bytesPerRow
                for i in 0..<samples {
                    let value = UInt32(row.loadUnaligned(fromByteOffset: i * 2, as: UInt16.self))
                    narrowed[y * samples + i] = UInt8((value * 255 + 32_767) / 65_535)
                }
            }
        }
        var result = try! Image(width: width, height: height, pixelFormat: pixelFormat.eightBit, pixels: narrowed)
        result.colorProfile = colorProfile
        result.metadata = metadata
        return result
    }
}
