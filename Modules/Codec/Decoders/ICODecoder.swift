import Foundation
import OspreyDomain

/// Decodes ICO (and CUR) files: the entry nearest the size asked — the smallest at least as
/// large as the target, else the largest — or the largest without a target. PNG entries go
/// through ``PNGDecoder``, bitmap entries through ``BMPDecoder``'s reader with their AND mask
/// (or their own alpha at 32 bits). Sizes are read from the entries' own headers, not the
/// directory's bytes, which cannot say 256 or more.
public struct ICODecoder: ImageDecoding {
    /// The limits checked from each entry's header before decoding.
    public var limits: DecodingLimits

    /// Creates a decoder.
    public init(limits: DecodingLimits = .default) { self.limits = limits }

    public func detectFormat(of prefix: Data) throws(ImageDecodingError) -> ImageFormat {
        try FormatDetector.decodableFormat(prefix, expecting: .ico)
    }

    public func decode(_ input: ImageInput, options: DecodingOptions) throws(ImageDecodingError) -> Image {
        try InputReader.checkLength(of: input, limits: limits)
        let bytes = [UInt8](try InputReader.allBytes(of: input))
        let entries = try Self.entries(bytes, limits: limits)
        let target = options.targetSize.map { max($0.width, $0.height) } ?? .max
        let fitting = entries.filter { max($0.size.width, $0.size.height) >= target }
        let chosen = fitting.min { $0.size.area < $1.size.area } ?? entries.max { $0.size.area < $1.size.area }!
        let data = Array(bytes[chosen.range])
        let image: Image
        if chosen.isPNG {
            image = try PNGDecoder(limits: limits).decode(.data(Data(data)), options: DecodingOptions(colorHandling: options.colorHandling))
        } else {
            image = try BMPDecoder.dib(data, at: 0, pixelOffset: nil, limits: limits, format: .ico, iconMask: true)
        }
        return Rescaling.rescale(image, options: options)
    }

    /// The largest entry's size.
    public func info(_ input: ImageInput) throws(ImageDecodingError) -> ImageInfo {
        try InputReader.checkLength(of: input, limits: limits)
        let entries = try Self.entries([UInt8](try InputReader.allBytes(of: input)), limits: limits)
        let largest = entries.max { $0.size.area < $1.size.area }!
        return ImageInfo(format: .ico, width: largest.size.width, height: largest.size.height, orientation: 1, hasAlpha: true, frameCount: 1)
    }

    struct Entry {
        var range: Range<Int>
        var isPNG: Bool
        var size: PixelSize
    }

    /// The directory's entries whose data lies inside the file, each sized from its own header.
    static func entries(_ b: [UInt8], limits: DecodingLimits) throws(ImageDecodingError) -> [Entry] {
        guard b.count >= 6 else { throw .corrupt(.ico, detail: "the file is shorter than its directory") }
        let count = Int(BMPDecoder.u16(b, 4))
        var entries: [Entry] = []
        for i in 0..<count {
            let at = 6 + 16 * i
            guard at + 16 <= b.count else { break }
            let (length, offset) = (Int(BMPDecoder.u32(b, at + 8)), Int(BMPDecoder.u32(b, at + 12)))
            guard length > 0, offset >= 6, offset <= b.count, length <= b.count - offset else { continue }
            let range = offset..<offset + length
            let isPNG = b[range].starts(with: [0x89, 0x50, 0x4E, 0x47])
            let size: PixelSize
            if isPNG {
                guard length >= 24 else { continue }
                size = PixelSize(width: Int(bigEndian(b, offset + 16)), height: Int(bigEndian(b, offset + 20)))
            } else {
                // Read in place: a directory may point thousands of entries at one large range.
                guard let header = try? BMPDecoder.Header(b, at: offset, format: .ico) else { continue }
                size = PixelSize(width: header.width, height: header.height / 2)
            }
            // PNG and BMP allow at most 2³¹−1 a side; larger ones would overflow an area.
            guard (1...Int(Int32.max)).contains(size.width), (1...Int(Int32.max)).contains(size.height) else { continue }
            entries.append(Entry(range: range, isPNG: isPNG, size: size))
        }
        guard !entries.isEmpty else { throw .corrupt(.ico, detail: "no entry with its data inside the file") }
        return entries
    }

    private static func bigEndian(_ b: [UInt8], _ at: Int) -> UInt32 {
        UInt32(b[at]) << 24 | UInt32(b[at + 1]) << 16 | UInt32(b[at + 2]) << 8 | UInt32(b[at + 3])
    }
}
