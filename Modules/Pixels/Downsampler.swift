import OspreyDomain

/// Reduces an image to a target size as its rows arrive, so the full-size image is never held.
///
/// Rows are first averaged in integer blocks (area averaging, exact for large reductions),
/// which leaves an intermediate image at most about twice the target on each side; ``finish()``
/// then resamples that to the exact size with ``Resampler`` (Lanczos-3). With no reduction
/// the rows are copied straight into the result.
///
/// Alpha is handled premultiplied while averaging, so transparent pixels do not bleed their
/// colour; the result is not premultiplied.
package struct Downsampler {
    /// The size of the rows fed in.
    package let sourceSize: PixelSize
    /// The size ``finish()`` returns.
    package let outputSize: PixelSize
    /// The layout of the rows fed in and of the result.
    package let pixelFormat: PixelFormat

    private let factorX: Int
    private let factorY: Int
    private let reducedSize: PixelSize
    private var reduced: [UInt8]
    private var sums: [Int]          // one block row of channel sums (premultiplied colour when alpha)
    private var rowsInBlock = 0
    private var rowsSeen = 0
    private var reducedRow = 0

    /// Creates a downsampler from `sourceSize` rows to `outputSize`.
    package init(sourceSize: PixelSize, outputSize: PixelSize, pixelFormat: PixelFormat) {
        self.sourceSize = sourceSize
        self.outputSize = outputSize
        self.pixelFormat = pixelFormat
        factorX = BoxShrink.factor(source: sourceSize.width, destination: outputSize.width)
        factorY = BoxShrink.factor(source: sourceSize.height, destination: outputSize.height)
        reducedSize = PixelSize(width: (sourceSize.width + factorX - 1) / factorX, height: (sourceSize.height + factorY - 1) / factorY)
        reduced = [UInt8](repeating: 0, count: reducedSize.byteCount(bytesPerPixel: pixelFormat.bytesPerPixel))
        sums = factorX == 1 && factorY == 1 ? [] : [Int](repeating: 0, count: reducedSize.width * pixelFormat.bytesPerPixel)
    }

    /// The size the image is averaged down to before the final resample.
    package var intermediateSize: PixelSize { reducedSize }

    /// How many source rows have been fed so far.
    package var rowsConsumed: Int { rowsSeen }

    /// Feeds `count` source rows that start at `rows`, `stride` bytes apart.
    package mutating func consume(_ rows: UnsafePointer<UInt8>, count: Int, stride: Int) {
        let bpp = pixelFormat.bytesPerPixel
        let rowBytes = sourceSize.width * bpp
        let count = min(count, sourceSize.height - rowsSeen)
        guard count > 0 else { return }
        if sums.isEmpty {
            reduced.withUnsafeMutableBufferPointer { out in
                for r in 0..<count {
                    (out.baseAddress! + (rowsSeen + r) * rowBytes).update(from: rows + r * stride, count: rowBytes)
                }
            }
            rowsSeen += count
            return
        }
        for r in 0..<count {
            accumulate(rows + r * stride)
            rowsSeen += 1
            rowsInBlock += 1
            if rowsInBlock == factorY || rowsSeen == sourceSize.height { emitBlockRow() }
        }
    }

    /// The finished image at ``outputSize``. Rows never fed are left black.
    package func finish() -> Image {
        let intermediate = try! Image(width: reducedSize.width, height: reducedSize.height, pixelFormat: pixelFormat, pixels: reduced)
        return intermediate.size == outputSize ? intermediate : Resampler.resize(intermediate, to: outputSize)
    }

    private mutating func accumulate(_ row: UnsafePointer<UInt8>) {
        let bpp = pixelFormat.bytesPerPixel
        let width = sourceSize.width, fx = factorX
        let alpha = pixelFormat.hasAlpha
        sums.withUnsafeMutableBufferPointer { sums in
            for x in 0..<width {
                let cell = (x / fx) * bpp
                let p = row + x * bpp
                if alpha {
                    let a = Int(p[3])
                    sums[cell] += Int(p[0]) * a
                    sums[cell + 1] += Int(p[1]) * a
                    sums[cell + 2] += Int(p[2]) * a
                    sums[cell + 3] += a
                } else {
                    for c in 0..<bpp { sums[cell + c] += Int(p[c]) }
                }
            }
        }
    }

    private mutating func emitBlockRow() {
        let bpp = pixelFormat.bytesPerPixel
        let alpha = pixelFormat.hasAlpha
        let rows = rowsInBlock
        let outWidth = reducedSize.width
        let base = reducedRow * outWidth * bpp
        let (width, fx) = (sourceSize.width, factorX)
        reduced.withUnsafeMutableBufferPointer { out in
            sums.withUnsafeMutableBufferPointer { sums in
                for cx in 0..<outWidth {
                    let columns = min(fx, width - cx * fx)
                    let n = columns * rows
                    let s = cx * bpp
                    if alpha {
                        let a = sums[s + 3]
                        for c in 0..<3 { out[base + s + c] = a == 0 ? 0 : UInt8(min(255, (sums[s + c] + a / 2) / a)) }
                        out[base + s + 3] = UInt8((a + n / 2) / n)
                    } else {
                        for c in 0..<bpp { out[base + s + c] = UInt8((sums[s + c] + n / 2) / n) }
                    }
                    for c in 0..<bpp { sums[s + c] = 0 }
                }
            }
        }
        rowsInBlock = 0
        reducedRow += 1
    }
}
