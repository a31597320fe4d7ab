import CResample

/// Rows of `source` averaged in blocks of `factorX` × `factorY` pixels (the last ones at each
/// edge smaller), made as they are asked for into a ring `depth` rows deep: a large reduction
/// never holds the averaged image whole. Straight alpha is averaged weighted by alpha.
final class BoxedRows: ByteRows {
    let width: Int, height: Int
    private let source: any ByteRows
    private let channels: Int, factorX: Int, factorY: Int, depth: Int, straightAlpha: Bool
    private let ring: UnsafeMutablePointer<UInt8>
    /// One block row's column sums: 16 bits a channel, or 32 for alpha-weighted colour.
    private let sums: UnsafeMutableRawPointer
    private let rows: UnsafeMutablePointer<UnsafePointer<UInt8>?>
    private var made = 0

    init(_ source: any ByteRows, channels: Int, straightAlpha: Bool, factorX: Int, factorY: Int, depth: Int) {
        (self.source, self.channels, self.straightAlpha) = (source, channels, straightAlpha)
        (self.factorX, self.factorY, self.depth) = (factorX, factorY, depth)
        width = (source.width + factorX - 1) / factorX
        height = (source.height + factorY - 1) / factorY
        ring = .allocate(capacity: depth * width * channels)
        let sumBytes = source.width * channels * 4
        sums = .allocate(byteCount: sumBytes, alignment: 16)
        sums.initializeMemory(as: UInt8.self, repeating: 0, count: sumBytes)
        rows = .allocate(capacity: factorY)
    }

    deinit {
        ring.deallocate()
        sums.deallocate()
        rows.deallocate()
    }

    func row(_ y: Int) -> UnsafePointer<UInt8> {
        while made <= y {
            make(made)
            made += 1
        }
        return UnsafePointer(ring + (y % depth) * width * channels)
    }

    private func make(_ block: Int) {
        let first = block * factorY, count = min(factorY, source.height - first)
        let out = ring + (block % depth) * width * channels
        let (sourceWidth, factorX) = (Int32(source.width), Int32(factorX))
        if straightAlpha {
            let wide = sums.assumingMemoryBound(to: UInt32.self)
            for y in first..<first + count { osp_box_accumulate_alpha(source.row(y), wide, source.width) }
            osp_box_emit_alpha(wide, sourceWidth, factorX, Int32(count), out)
        } else {
            let narrow = sums.assumingMemoryBound(to: UInt16.self)
            for k in 0..<count { rows[k] = source.row(first + k) }
            osp_box_sum_rows(rows, Int32(count), narrow, source.width * channels)
            osp_box_emit(narrow, Int32(channels), sourceWidth, factorX, Int32(count), out)
        }
    }
}
