import Foundation
import OspreyDomain
import OspreyProcessing

extension ImgproxyOptions {
    /// The pipeline request these options ask for, of `source`. A side of 0 is free: it
    /// follows from the other (`PixelSize`'s rule too); `auto` fills when both sides are given.
    /// The processed image is not kept in memory: the service keeps the encoded answer, and
    /// memory is left for the source's reduction, which serves every other size.
    func imageRequest(source: URL) -> ImageRequest {
        let (width, height) = (Int((Double(width) * dpr).rounded()), Int((Double(height) * dpr).rounded()))
        let size: PixelSize? = width == 0 && height == 0 ? nil : PixelSize(width: width, height: height)
        let fills = resizingType != .fit && width > 0 && height > 0
        var processors: [any ImageProcessing] = []
        if let sigma = blur { processors.append(.blur(radius: max(1, Int(sigma.rounded())))) }
        var request = ImageRequest(url: source, targetSize: size, contentMode: fills ? .fill : .fit, processors: processors)
        request.gravity = gravity
        request.options.insert(.disableMemoryCacheWrites)
        return request
    }
}
