import CResample
import OspreyDomain

/// Lanczos-3 in fixed point through the C kernels (`CResample`): each destination row is the
/// vertical pass over the source rows under its window, into a row of int16 (value × 64), then
/// the horizontal pass back to bytes. Source rows are averaged in blocks first when asked
/// (``BoxedRows``), as they are needed. Straight alpha is premultiplied into int16 rows
/// (``PremultipliedRows``), kept at that scale through both passes and divided back out.
package enum FixedPointResampler {
    /// The kernels' path in this process: the CPU's fastest, or `OSPREY_RESAMPLE_PATH`'s.
    package static var path: Int32 { osp_resample_path() }

    /// The pixels of `image`, averaged in blocks of `box` first when it is more than 1×1,
    /// resampled to `size` on `path` (packed rows, `image`'s format); `nil` when the task is
    /// cancelled.
    package static func resize(_ image: Image, to size: PixelSize, box: (x: Int, y: Int) = (1, 1), path: Int32 = path) -> [UInt8]? {
        let channels = image.pixelFormat.bytesPerPixel
        let straightAlpha = image.pixelFormat == .rgba8
        let source = PixelSize(width: (image.width + box.x - 1) / box.x, height: (image.height + box.y - 1) / box.y)
        let across = FixedPointContributions(source: source.width, destination: size.width)
        let down = FixedPointContributions(source: source.height, destination: size.height)
        let depth = Int(down.counts.max() ?? 1)
        let rowCount = source.width * channels
        let padded = rowCount + Int(osp_resample_row_padding(Int32(across.stride))) * channels
        let row = UnsafeMutablePointer<Int16>.allocate(capacity: padded)
        row.initialize(repeating: 0, count: padded)
        defer { row.deallocate() }
        let window = UnsafeMutableRawPointer.allocate(byteCount: depth * MemoryLayout<UnsafeRawPointer>.stride,
                                                     alignment: MemoryLayout<UnsafeRawPointer>.alignment)
        defer { window.deallocate() }
        let filtered = UnsafeMutablePointer<Int16>.allocate(capacity: straightAlpha ? size.width * 4 : 0)
        defer { filtered.deallocate() }
        guard let plan = osp_horizontal_plan_make(path, Int32(channels), across.starts, across.counts, across.weights,
                                                  Int32(across.stride), Int32(size.width))
        else { fatalError("out of memory for a resample plan") }
        defer { osp_horizontal_plan_free(plan) }

        var cancelled = false
        let pixels = image.pixels.withUnsafeBufferPointer { pixels in
            var rows: any ByteRows = ImageRows(pixels.baseAddress!, width: image.width, height: image.height, bytesPerRow: image.bytesPerRow)
            if box != (1, 1) {
                rows = BoxedRows(rows, channels: channels, straightAlpha: straightAlpha, factorX: box.x, factorY: box.y, depth: depth)
            }
            let premultiplied = straightAlpha ? PremultipliedRows(rows, depth: depth) : nil
            return [UInt8](unsafeUninitializedCapacity: size.byteCount(bytesPerPixel: channels)) { out, initialized in
                down.weights.withUnsafeBufferPointer { weights in
                    for y in 0..<size.height {
                        if y & 15 == 0, Task.isCancelled { cancelled = true; break }
                        let start = Int(down.starts[y]), count = Int32(down.counts[y])
                        let w = weights.baseAddress! + y * down.stride
                        let target = out.baseAddress! + y * size.width * channels
                        if let premultiplied {
                            let sources = window.bindMemory(to: UnsafePointer<Int16>?.self, capacity: depth)
                            for i in 0..<Int(count) { sources[i] = premultiplied.row(start + i) }
                            osp_resample_vertical16(path, sources, w, count, row, rowCount)
                            osp_resample_horizontal16(plan, row, filtered)
                            osp_unpremultiply16(filtered, target, size.width)
                        } else {
                            let sources = window.bindMemory(to: UnsafePointer<UInt8>?.self, capacity: depth)
                            for i in 0..<Int(count) { sources[i] = rows.row(start + i) }
                            osp_resample_vertical(path, sources, w, count, row, rowCount)
                            osp_resample_horizontal(plan, row, target)
                        }
                    }
                }
                initialized = cancelled ? 0 : size.byteCount(bytesPerPixel: channels)
            }
        }
        return cancelled ? nil : pixels
    }
}
