import CResample

/// Straight RGBA rows of `source` premultiplied into int16 (value × 64) as they are asked for,
/// in a ring `depth` rows deep: the alpha path of ``FixedPointResampler``.
final class PremultipliedRows {
    private let source: any ByteRows
    private let depth: Int, count: Int
    private let ring: UnsafeMutablePointer<Int16>
    private var made = 0

    init(_ source: any ByteRows, depth: Int) {
        (self.source, self.depth, count) = (source, depth, source.width * 4)
        ring = .allocate(capacity: depth * count)
    }

    deinit { ring.deallocate() }

    func row(_ y: Int) -> UnsafePointer<Int16> {
        while made <= y {
            osp_premultiply16(source.row(made), ring + (made % depth) * count, source.width)
            made += 1
        }
        return UnsafePointer(ring + (y % depth) * count)
    }
}
