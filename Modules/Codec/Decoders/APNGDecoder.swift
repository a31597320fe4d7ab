import CCodecShims
import Foundation
import OspreyDomain
import OspreyPixels

/// Decodes every frame of an animated PNG. Debian's libpng has no APNG support, so the
/// chunks are read here: each frame's `fdAT` data (or the `IDAT` image, when the first
/// `fcTL` precedes it) is made into a PNG stream of its own for libpng, then drawn on the
/// canvas with its blend operation, kept at the output size, and disposed of as its `fcTL` says.
///
/// A default image that precedes the first `fcTL` is not part of the animation (browsers
/// skip it). Frames whose sequence numbers are out of order, or that reach past the canvas,
/// end the animation at the last whole frame, as a truncated file does.
struct APNGDecoder {
    /// An `fcTL` chunk: one frame's region, delay and operations.
    struct FrameControl {
        var sequence: UInt32
        var width: Int, height: Int, x: Int, y: Int
        var milliseconds: Int
        var dispose: UInt8   // 0 none, 1 background, 2 previous
        var blend: UInt8     // 0 source, 1 over
        var data: [Range<Int>] = []  // the compressed data, from IDAT or fdAT (after its sequence number)
    }

    /// What the chunks say.
    struct Structure {
        var size: PixelSize
        var ihdr: Range<Int>
        var declaredFrames: Int
        var plays: Int
        var preamble: [Range<Int>] = []  // whole PLTE and tRNS chunks, copied into every frame
        var frames: [FrameControl] = []
    }

    let bytes: [UInt8]

    /// The structure of an APNG file, or `nil` when the file has no `acTL` before its image data.
    func structure() -> Structure? {
        guard bytes.count > 8 else { return nil }
        var offset = 8
        var result: Structure?
        var ihdr: Range<Int>?
        var current: FrameControl?
        var expectedSequence: UInt32 = 0
        var seenIDAT = false
        func finishFrame() {
            if let frame = current, !frame.data.isEmpty { result?.frames.append(frame) }
            current = nil
        }
        while offset + 12 <= bytes.count {
            let length = Int(read32(offset))
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            let body = offset + 8
            guard length <= bytes.count - body - 4 else { break }  // truncated: keep what is whole
            let data = body..<body + length
            switch type {
            case "IHDR": ihdr = offset..<body + length + 4
            case "acTL" where !seenIDAT && length >= 8:
                guard let ihdr, ihdr.count >= 25 else { return nil }
                result = Structure(size: PixelSize(width: Int(read32(ihdr.lowerBound + 8)), height: Int(read32(ihdr.lowerBound + 12))),
                                   ihdr: ihdr, declaredFrames: Int(read32(body)), plays: Int(read32(body + 4)))
            case "PLTE", "tRNS": if !seenIDAT { result?.preamble.append(offset..<body + length + 4) }
            case "fcTL" where length >= 26:
                finishFrame()
                guard read32(body) == expectedSequence else { return result }
                expectedSequence += 1
                current = FrameControl(sequence: read32(body), width: Int(read32(body + 4)), height: Int(read32(body + 8)),
                                       x: Int(read32(body + 12)), y: Int(read32(body + 16)),
                                       milliseconds: Self.milliseconds(numerator: read16(body + 20), denominator: read16(body + 22)),
                                       dispose: bytes[body + 24], blend: bytes[body + 25])
            case "IDAT":
                seenIDAT = true
                current?.data.append(data)
            case "fdAT" where length > 4:
                guard current != nil, read32(body) == expectedSequence else { finishFrame(); return result }
                expectedSequence += 1
                current?.data.append(body + 4..<body + length)
            case "IEND":
                finishFrame()
                return result
            default: break
            }
            offset = body + length + 4
        }
        finishFrame()
        return result
    }

    /// Decodes every frame at `output`, converting or keeping `profile` as `handling` says.
    func decode(_ structure: Structure, output: PixelSize, profile: ColorProfile?, handling: ColorHandling) throws(ImageDecodingError) -> Image {
        let size = structure.size
        var assembler = AnimationAssembler(canvasSize: size, outputSize: output)
        var canvas = [UInt8](repeating: 0, count: size.byteCount(bytesPerPixel: 4))
        var saved: [UInt8] = []
        for (index, control) in structure.frames.enumerated() {
            try ImageDecodingError.checkCancellation()
            guard control.width > 0, control.height > 0, control.x + control.width <= size.width,
                  control.y + control.height <= size.height else { break }
            var pixels = [UInt8](repeating: 0, count: control.width * control.height * 4)
            let stream = frameStream(structure, control)
            var message = [CChar](repeating: 0, count: 256)
            let status = stream.withUnsafeBufferPointer { png in
                pixels.withUnsafeMutableBufferPointer { out in
                    osp_png_decode_rgba(png.baseAddress, png.count, out.baseAddress, UInt32(control.width), UInt32(control.height),
                                        &message, message.count)
                }
            }
            guard status == 0 else {
                if assembler.frames.isEmpty { throw .corrupt(.png, detail: String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)) }
                break
            }
            let dispose = index == 0 && control.dispose == 2 ? 1 : control.dispose
            if dispose == 2 { saved = canvas }
            canvas.withUnsafeMutableBufferPointer { dst in
                pixels.withUnsafeBufferPointer { src in
                    osp_rgba_blend(dst.baseAddress, UInt32(size.width), src.baseAddress, UInt32(control.width), UInt32(control.height),
                                   UInt32(control.x), UInt32(control.y), index > 0 && control.blend == 1 ? 1 : 0)
                }
            }
            canvas.withUnsafeBufferPointer { assembler.add(canvas: $0.baseAddress!, milliseconds: control.milliseconds) }
            if dispose == 1 {
                for row in control.y..<control.y + control.height {
                    let start = (row * size.width + control.x) * 4
                    canvas.replaceSubrange(start..<start + control.width * 4, with: repeatElement(0, count: control.width * 4))
                }
            } else if dispose == 2 {
                canvas = saved
            }
        }
        guard !assembler.frames.isEmpty else { throw .corrupt(.png, detail: "no whole animation frame") }
        return ColorManagement.apply(profile, to: assembler.finish(loopCount: structure.plays), handling: handling)
    }

    /// A PNG stream of one frame: the signature, IHDR at the frame's size, PLTE and tRNS,
    /// the frame's data as IDAT, IEND. CRCs are left zero; the reader does not check them.
    private func frameStream(_ structure: Structure, _ control: FrameControl) -> [UInt8] {
        var out = Array(bytes[0..<8])
        var ihdr = Array(bytes[structure.ihdr])
        write32(&ihdr, 8, UInt32(control.width))
        write32(&ihdr, 12, UInt32(control.height))
        out += ihdr
        for chunk in structure.preamble { out += bytes[chunk] }
        for range in control.data {
            out += be32(UInt32(range.count)) + Array("IDAT".utf8)
            out += bytes[range]
            out += [0, 0, 0, 0]
        }
        out += [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        return out
    }

    static func milliseconds(numerator: UInt16, denominator: UInt16) -> Int {
        Int(numerator) * 1000 / Int(denominator == 0 ? 100 : denominator)
    }

    private func read32(_ offset: Int) -> UInt32 {
        UInt32(bytes[offset]) << 24 | UInt32(bytes[offset + 1]) << 16 | UInt32(bytes[offset + 2]) << 8 | UInt32(bytes[offset + 3])
    }

    private func read16(_ offset: Int) -> UInt16 { UInt16(bytes[offset]) << 8 | UInt16(bytes[offset + 1]) }

    private func be32(_ value: UInt32) -> [UInt8] { [UInt8(value >> 24), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)] }

    private func write32(_ chunk: inout [UInt8], _ offset: Int, _ value: UInt32) {
        chunk.replaceSubrange(offset..<offset + 4, with: be32(value))
    }
}
