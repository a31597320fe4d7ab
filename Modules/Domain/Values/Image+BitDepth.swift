import Foundation

extension Image {
    /// The image at 8 bits a sample, each 16-bit sample rounded (as libvips casts); itself
    /// when it is 8-bit already. Profile and metadata are kept.
    public var narrowedToEightBits: Image {
        guard pixelFormat.isHighBitDepth else { return self }
        let samples = width * pixelFormat.channels
        var narrowed = [UInt8](repeating: 0, count: samples * height)
        pixels.withUnsafeBytes { raw in
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
