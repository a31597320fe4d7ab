import Foundation
import OspreyDomain
import OspreyProcessing

extension ImgproxyOptions {
    /// The pipeline request these options ask for, of `source`. A side of 0 follows from the
    /// other; `auto` fills when both sides are given.
    func imageRequest(source: URL) -> ImageRequest {
        let unbounded = 1 << 30
        let size: PixelSize? = switch (width, height) {
        case (0, 0): nil
        case (let w, 0): PixelSize(width: w, height: unbounded)
        case (0, let h): PixelSize(width: unbounded, height: h)
        case (let w, let h): PixelSize(width: w, height: h)
        }
        let fills = resizingType != .fit && width > 0 && height > 0
        var processors: [any ImageProcessing] = []
        if let sigma = blur { processors.append(.blur(radius: max(1, Int(sigma.rounded())))) }
        var request = ImageRequest(url: source, targetSize: size, contentMode: fills ? .fill : .fit, processors: processors)
        request.gravity = gravity
        return request
    }
}
