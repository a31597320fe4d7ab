import Foundation
import OspreyDomain
import OspreyPixels
import OspreyProcessing

/// imgproxy's `watermark`: the server's watermark image laid over the result, scaled to a
/// fraction of its width if asked, at a gravity with offsets (which may let it hang over an
/// edge) or tiled across the image with the offsets as spacing.
struct ImgproxyWatermark: ImageProcessing {
    let option: ImgproxyOptions.Watermark
    let mark: Image
    /// Names `mark` in the identifier: a digest of its pixels.
    let name: String
    /// Multiplies pixel offsets, as the device pixel ratio does.
    let scale: Double

    var identifier: String {
        "watermark(\(name),\(option.opacity),\(option.position?.identifier ?? "re"),\(option.offsetX),\(option.offsetY),\(option.scale),\(scale))"
    }

    func process(_ image: Image) throws(ImageProcessingError) -> Image {
        var mark = self.mark
        if option.scale > 0 {
            let width = max(1, PixelSize.length(Double(image.width) * option.scale))
            let height = max(1, PixelSize.length(Double(mark.height) * Double(width) / Double(mark.width)))
            mark = Resampler.resize(mark, to: PixelSize(width: width, height: height))
        }
        let placement: ImageProcessors.Overlay.Placement
        if let position = option.position {
            let gravity = ImgproxyGravity(position.anchor, x: option.offsetX, y: option.offsetY)
            let origin = gravity.origin(outer: image.size, inner: mark.size, scale: scale, overflow: true)
            placement = .at(x: origin.x, y: origin.y)
        } else {
            placement = .tiled(spacingX: PixelSize.length(option.offsetX * scale), spacingY: PixelSize.length(option.offsetY * scale))
        }
        return try ImageProcessors.Overlay(mark, name: name, placement: placement, opacity: option.opacity).process(image)
    }
}
