import Foundation
import OspreyDomain
import OspreyProcessing

extension ImgproxyOptions {
    /// The pipeline request these options ask for, of `source`. A side of 0 is free: it
    /// follows from the other (`PixelSize`'s rule too).
    /// The box is the rotated result's, as imgproxy reads it, so a quarter turn decodes into
    /// the box turned and with its gravity flipped and turned back. After the resize come the
    /// turn, the flip, the
    /// blur, sharpening and pixelation, the padding (scaled by `dpr`) and the background, in
    /// imgproxy's order.
    /// What only imgproxy says (trim, crop, minimum sides, zoom, enlarging, extending, offsets,
    /// `auto`, `force`, `fill-down`) is done by `ImgproxyGeometry` on the whole decoded image,
    /// after the turn. The watermark, given the server's image, goes on last.
    /// The processed image is not kept in memory: the service keeps the encoded answer, and
    /// memory is left for the source's reduction, which serves every other size.
    /// With `animates`, every frame is asked for (within the decoder's frame and pixel limits).
    func imageRequest(source: ImageSource, watermark: (image: Image, name: String, opacity: Double)? = nil, animates: Bool = false) -> ImageRequest {
        let scaled = { (side: Int) in PixelSize.length(Double(side) * dpr) }
        // The blur's radius is twice its sigma.
        let radius = { (sigma: Double) in max(1, Int((2 * sigma).rounded())) }
        var processors: [any ImageProcessing] = []
        if rotation != 0 { processors.append(.rotate(quarterTurns: rotation / 90)) }
        if flipsHorizontally || flipsVertically { processors.append(.flip(horizontal: flipsHorizontally, vertical: flipsVertically)) }
        var request: ImageRequest
        if needsGeometry {
            processors.append(ImgproxyGeometry(trim: trim, crop: crop, resizingType: resizingType, width: width, height: height,
                                               minWidth: minWidth, minHeight: minHeight, zoom: zoom, dpr: dpr, enlarge: enlarge,
                                               gravity: gravity, extend: extend, extendAspectRatio: extendAspectRatio))
            request = ImageRequest(source: source)
        } else {
            let turned = rotation == 90 || rotation == 270
            let (width, height) = turned ? (scaled(height), scaled(width)) : (scaled(width), scaled(height))
            let size: PixelSize? = width == 0 && height == 0 ? nil : PixelSize(width: width, height: height)
            let fills = resizingType == .fill && width > 0 && height > 0
            request = ImageRequest(source: source, targetSize: size, contentMode: fills ? .fill : .fit)
            request.gravity = Self.turnedBack(flippedBack(gravity.cropGravity ?? .centre), degrees: rotation)
        }
        if let blur { processors.append(.blur(radius: radius(blur))) }
        if let sharpen { processors.append(.sharpen(radius: radius(sharpen))) }
        if let pixelate { processors.append(.pixelate(size: scaled(pixelate))) }
        if let padding {
            let sides = padding.map(scaled)
            processors.append(.padding(top: sides[0], right: sides[1], bottom: sides[2], left: sides[3], color: background))
        }
        if let background { processors.append(.background(background)) }
        if var option = self.watermark, let watermark {
            option.opacity *= watermark.opacity
            processors.append(ImgproxyWatermark(option: option, mark: watermark.image, name: watermark.name, scale: dpr))
        }
        // A result over the longest side allowed is scaled down to fit, everything on it with it.
        let bounds = [serverMaxResultDimension, security.maxResultDimension].compactMap { $0 }.filter { $0 > 0 }
        if let side = bounds.min() { processors.append(.resize(size: PixelSize(width: side, height: side), contentMode: .fit)) }
        request.processors = processors
        if animates && !disablesAnimation { request.frames = .all }
        request.colorHandling = keepsColorProfile ? .preserve : .convertToSRGB
        request.appliesOrientation = autoRotates
        request.keepsHighBitDepth = preservesHighBitDepth
        request.options.insert(.disableMemoryCacheWrites)
        return request
    }

    /// The gravity in the unflipped image that lands at `gravity` after the flip.
    private func flippedBack(_ gravity: CropGravity) -> CropGravity {
        guard case .point(let x, let y) = gravity else { return gravity }
        return .point(x: flipsHorizontally ? 1 - x : x, y: flipsVertically ? 1 - y : y)
    }

    /// The gravity in the unturned image that lands at `gravity` after a clockwise turn.
    static func turnedBack(_ gravity: CropGravity, degrees: Int) -> CropGravity {
        guard case .point(let x, let y) = gravity else { return gravity }
        return switch degrees {
        case 90: .point(x: y, y: 1 - x)
        case 180: .point(x: 1 - x, y: 1 - y)
        case 270: .point(x: 1 - y, y: x)
        default: gravity
        }
    }
}

extension ImgproxyOptions {
    /// How the answer is encoded: its format chosen as `format` says; the URL's quality, else
    /// its quality for the format, else the server's for the format, else `defaultQuality`
    /// (imgproxy's precedence); its byte budget and cache buster.
    func encoding(_ format: OutputEncoding.FormatChoice, defaultQuality: Int, serverQualities: [ImageFormat: Int] = [:]) -> OutputEncoding {
        var encoding = OutputEncoding(format: format, quality: quality ?? defaultQuality,
                                      qualities: quality == nil ? serverQualities.merging(formatQuality) { $1 } : [:],
                                      maxBytes: maxBytes, variant: cacheBuster)
        encoding.metadata = !stripsMetadata ? .all : keepsCopyright ? .copyright : .strip
        return encoding
    }
}
