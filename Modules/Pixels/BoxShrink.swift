import OspreyDomain

/// Averaging in integer blocks: the cheap first step of a large reduction, which leaves the
/// Lanczos filter a ratio under 4 (libvips' reduce gap of 2).
package enum BoxShrink {
    /// The block size on a side of `source` samples resampled to `destination`: the largest
    /// that leaves at least twice the destination, 1 below a reduction by 4, at most 256 (a
    /// column of sums stays in 16 bits).
    package static func factor(source: Int, destination: Int) -> Int {
        min(256, max(1, source / max(1, 2 * destination)))
    }

    /// `image` averaged in blocks of `factorX` × `factorY` pixels (the last ones at each edge
    /// smaller), as ``Resampler`` averages it on the way, but whole. Straight alpha is
    /// averaged weighted by alpha, so no colour of a transparent pixel shows.
    package static func shrink(_ image: Image, factorX: Int, factorY: Int) -> Image {
        let channels = image.pixelFormat.bytesPerPixel
        let (width, height) = ((image.width + factorX - 1) / factorX, (image.height + factorY - 1) / factorY)
        let rowBytes = width * channels
        let pixels = image.pixels.withUnsafeBufferPointer { source in
            let rows = BoxedRows(ImageRows(source.baseAddress!, width: image.width, height: image.height, bytesPerRow: image.bytesPerRow),
                                 channels: channels, straightAlpha: image.pixelFormat == .rgba8, factorX: factorX, factorY: factorY, depth: 1)
            return [UInt8](unsafeUninitializedCapacity: rowBytes * height) { out, initialized in
                for y in 0..<height { (out.baseAddress! + y * rowBytes).update(from: rows.row(y), count: rowBytes) }
                initialized = rowBytes * height
            }
        }
        return try! Image(width: width, height: height, pixelFormat: image.pixelFormat, pixels: pixels)
    }
}
