import OspreyDomain
import OspreyPixels

/// A collage: photos in a grid of `columns` × `rows` cells inside a frame, such as the
/// photo-booth "four-cut" card (2 × 2) the demo makes.
///
/// The collage has the frame's size. A margin of 6% of the frame's shorter side is left around
/// the grid and half of it between cells; each photo is scaled to cover its cell and its
/// centre is cropped to it, then laid over the frame (photos with alpha blend with it).
public enum Collage {
    /// The collage of `frame` and exactly `columns × rows` `photos`, in reading order.
    /// - Throws: `ImageProcessingError/invalidParameters(processor:reason:)` for another
    ///   number of photos or a frame too small to hold the grid.
    public static func compose(frame: Image, photos: [Image], columns: Int = 2, rows: Int = 2) throws(ImageProcessingError) -> Image {
        guard columns > 0, rows > 0, photos.count == columns * rows else {
            throw .invalidParameters(processor: "collage", reason: "a \(columns)x\(rows) grid needs \(max(0, columns * rows)) photos, got \(photos.count)")
        }
        let margin = max(1, min(frame.width, frame.height) * 6 / 100), gap = max(1, margin / 2)
        let cell = PixelSize(width: (frame.width - 2 * margin - (columns - 1) * gap) / columns,
                             height: (frame.height - 2 * margin - (rows - 1) * gap) / rows)
        guard !cell.isEmpty else {
            throw .invalidParameters(processor: "collage", reason: "the \(frame.size) frame is too small for a \(columns)x\(rows) grid")
        }
        var card = RGBABuffer(frame)
        for (index, photo) in photos.enumerated() {
            let scaled = Resampler.resize(photo, to: coverSize(of: photo.size, for: cell))
            let fitted = RGBABuffer(GravityCrop.crop(scaled, to: cell))
            let left = margin + (index % columns) * (cell.width + gap), top = margin + (index / columns) * (cell.height + gap)
            for y in 0..<fitted.height {
                for x in 0..<fitted.width {
                    let p = (y * fitted.width + x) * 4, q = ((top + y) * card.width + left + x) * 4
                    let a = Int(fitted.pixels[p + 3])
                    for c in 0..<3 {
                        card.pixels[q + c] = UInt8((Int(fitted.pixels[p + c]) * a + Int(card.pixels[q + c]) * (255 - a) + 127) / 255)
                    }
                    card.pixels[q + 3] = UInt8(a + Int(card.pixels[q + 3]) * (255 - a) / 255)
                }
            }
        }
        return card.image(like: frame)
    }

    /// The size that covers `cell`, upscaling when the photo is smaller (a card must be full).
    static func coverSize(of size: PixelSize, for cell: PixelSize) -> PixelSize {
        let scale = max(Double(cell.width) / Double(size.width), Double(cell.height) / Double(size.height))
        return PixelSize(width: max(cell.width, Int((Double(size.width) * scale).rounded(.up))),
                         height: max(cell.height, Int((Double(size.height) * scale).rounded(.up))))
    }
}
