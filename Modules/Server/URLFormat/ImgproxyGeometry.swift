import OspreyDomain
import OspreyPixels
import OspreyProcessing

/// imgproxy's sizing of an image, in its order: trim, crop, scale (with the resizing type,
/// minimum sides, zoom, device pixel ratio and enlarging), crop to the result at the gravity,
/// extend to the size and to the aspect ratio. It works on the whole decoded image, so the
/// service uses it only for what the pipeline's own sizing cannot say; without a trim, that
/// image may be a reduced decode (a JPEG's DCT scale) as large as the result needs.
struct ImgproxyGeometry: ReducibleProcessing {
    var trim: ImageProcessors.Trim?
    var crop: ImgproxyOptions.Crop?
    var resizingType: ImgproxyOptions.ResizingType
    var width: Int
    var height: Int
    var minWidth: Int
    var minHeight: Int
    var zoom: ImgproxyOptions.Zoom
    var dpr: Double
    var enlarge: Bool
    var gravity: ImgproxyGravity
    var extend: ImgproxyGravity?
    var extendAspectRatio: ImgproxyGravity?

    var identifier: String {
        var parts = ["\(resizingType.rawValue):\(width)x\(height)", "min=\(minWidth)x\(minHeight)", "z=\(zoom.x)x\(zoom.y)",
                     "dpr=\(dpr)", "el=\(enlarge)", "g=\(gravity.identifier)"]
        if let trim { parts.append(trim.identifier) }
        if let crop { parts.append("c=\(crop.width)x\(crop.height)@\(crop.gravity.identifier)") }
        if let extend { parts.append("ex=\(extend.identifier)") }
        if let extendAspectRatio { parts.append("exar=\(extendAspectRatio.identifier)") }
        return "imgproxy(" + parts.joined(separator: ",") + ")"
    }

    /// The sizes each step makes from an image of `size`, worked out without its pixels.
    struct Layout {
        /// After `crop`.
        var cropped: PixelSize
        /// After scaling.
        var scaled: PixelSize
        /// The size asked for, with `dpr` and zoom.
        var target: PixelSize
        /// The window cut out of the scaled image at the gravity.
        var window: PixelSize
        var dprScale: Double

        /// What the window cut leaves: the window, within the scaled image.
        var windowed: PixelSize { PixelSize(width: min(window.width, scaled.width), height: min(window.height, scaled.height)) }
    }

    func layout(for size: PixelSize) -> Layout {
        var cropped = size
        if let crop { cropped = crop.size(in: size) }
        let (scaleX, scaleY, dprScale) = scales(for: cropped)
        let rounded = PixelSize(rounding: Double(cropped.width) * scaleX, Double(cropped.height) * scaleY)
        let scaled = PixelSize(width: max(1, rounded.width), height: max(1, rounded.height))
        let target = PixelSize(rounding: Double(width) * dprScale * zoom.x, Double(height) * dprScale * zoom.y)
        var window = target
        if resizingType == .fillDown, window.width > 0, window.height > 0 {
            let (overX, overY) = (Double(window.width) / Double(scaled.width), Double(window.height) / Double(scaled.height))
            if overX > overY, overX > 1 {
                window = PixelSize(width: scaled.width, height: PixelSize.length(Double(scaled.width) * Double(window.height) / Double(window.width)))
            } else if overY > overX, overY > 1 {
                window = PixelSize(width: PixelSize.length(Double(scaled.height) * Double(window.width) / Double(window.height)), height: scaled.height)
            }
        }
        window = PixelSize(width: window.width == 0 ? scaled.width : window.width, height: window.height == 0 ? scaled.height : window.height)
        return Layout(cropped: cropped, scaled: scaled, target: target, window: window, dprScale: dprScale)
    }

    /// The size after extending `size` to the target, then to the aspect ratio asked for.
    func extendedSizes(of size: PixelSize, target: PixelSize) -> (extended: PixelSize, aspect: PixelSize) {
        let extended = extend == nil ? size : PixelSize(width: max(target.width, size.width), height: max(target.height, size.height))
        guard extendAspectRatio != nil, width > 0, height > 0 else { return (extended, extended) }
        let ratio = Double(width) / Double(height)
        let aspect = ratio > Double(extended.width) / Double(extended.height)
            ? PixelSize(width: PixelSize.length(Double(extended.height) * ratio), height: extended.height)
            : PixelSize(width: extended.width, height: PixelSize.length(Double(extended.width) / ratio))
        return (extended, aspect)
    }

    /// Trim only makes the image smaller, so the untrimmed size bounds the result.
    /// Crops and resizes only move and resample pixels; trimming and extending work on 8 bits.
    var keepsHighBitDepth: Bool { trim == nil && extend == nil && extendAspectRatio == nil }

    func outputSize(for input: PixelSize) -> PixelSize {
        let layout = layout(for: input)
        return extendedSizes(of: layout.windowed, target: layout.target).aspect
    }

    func process(_ image: Image) throws(ImageProcessingError) -> Image {
        let trimmed = try trim?.process(image) ?? image
        return try process(trimmed, sourceSize: trimmed.size)
    }

    /// The scale the crop is resampled at decides how small a decode serves: the cropped
    /// region must keep at least the pixels it is scaled to. A trim needs every pixel.
    func sufficientSize(forSource size: PixelSize) -> PixelSize {
        guard trim == nil else { return size }
        let layout = layout(for: size)
        let scale = max(Double(layout.scaled.width) / Double(layout.cropped.width), Double(layout.scaled.height) / Double(layout.cropped.height))
        guard scale < 1 else { return size }
        return PixelSize(rounding: Double(size.width) * scale, Double(size.height) * scale, rule: .up)
    }

    /// The layout is the full source's; the crop and its gravity's offsets are scaled to
    /// `image`, a decode of the source at a smaller size.
    func process(_ image: Image, sourceSize: PixelSize) throws(ImageProcessingError) -> Image {
        guard trim == nil || image.size == sourceSize else { return try process(image) }
        var image = image
        let layout = layout(for: sourceSize)
        if layout.cropped != sourceSize, let crop {
            let (scaleX, scaleY) = (Double(image.width) / Double(sourceSize.width), Double(image.height) / Double(sourceSize.height))
            let side = { (cropped: Int, scale: Double, whole: Int) in min(whole, max(1, PixelSize.length(Double(cropped) * scale))) }
            let region = PixelSize(width: side(layout.cropped.width, scaleX, image.width), height: side(layout.cropped.height, scaleY, image.height))
            image = crop.gravity.crop(image, to: region, scale: scaleX)
        }
        guard max(layout.scaled.width, layout.scaled.height) <= 16_384 else {
            throw .invalidParameters(processor: identifier, reason: "the result would be \(layout.scaled)")
        }
        image = Resampler.resize(image, to: layout.scaled)
        try ImageProcessingError.checkCancellation()  // the resampler stops early when cancelled
        image = gravity.crop(image, to: layout.window, scale: layout.dprScale)
        let sizes = extendedSizes(of: image.size, target: layout.target)
        if let extend { image = try Self.extended(image, to: sizes.extended, gravity: extend, scale: layout.dprScale) }
        if let extendAspectRatio { image = try Self.extended(image, to: sizes.aspect, gravity: extendAspectRatio, scale: layout.dprScale) }
        return image
    }

    /// imgproxy's scale factors across and down, and the device pixel ratio left in them
    /// (lowered so that it never enlarges unless `enlarge`).
    func scales(for source: PixelSize) -> (Double, Double, Double) {
        let (sourceWidth, sourceHeight) = (Double(source.width), Double(source.height))
        let (targetWidth, targetHeight) = (width == 0 ? sourceWidth : Double(width), height == 0 ? sourceHeight : Double(height))
        var shrinkX = targetWidth == sourceWidth ? 1 : sourceWidth / targetWidth
        var shrinkY = targetHeight == sourceHeight ? 1 : sourceHeight / targetHeight
        if shrinkX != 1 || shrinkY != 1 {
            var type = resizingType
            if type == .auto {
                let sameOrientation = (sourceWidth >= sourceHeight) == (targetWidth >= targetHeight)
                type = sameOrientation ? .fill : .fit
            }
            switch type {
            case _ where width == 0 && type != .force: shrinkX = shrinkY
            case _ where height == 0 && type != .force: shrinkY = shrinkX
            case .fit: (shrinkX, shrinkY) = (max(shrinkX, shrinkY), max(shrinkX, shrinkY))
            case .fill, .fillDown: (shrinkX, shrinkY) = (min(shrinkX, shrinkY), min(shrinkX, shrinkY))
            default: break
            }
        }
        shrinkX /= zoom.x
        shrinkY /= zoom.y
        var dprScale = dpr
        if !enlarge {
            let least = min(shrinkX, shrinkY)
            if least < 1 {
                shrinkX /= least
                shrinkY /= least
                if extend == nil { dprScale /= least }
            }
            dprScale = min(dprScale, min(shrinkX, shrinkY))
        }
        if minWidth > 0, sourceWidth / Double(minWidth) < shrinkX {
            let least = sourceWidth / Double(minWidth)
            shrinkY /= shrinkX / least
            shrinkX = least
        }
        if minHeight > 0, sourceHeight / Double(minHeight) < shrinkY {
            let least = sourceHeight / Double(minHeight)
            shrinkX /= shrinkY / least
            shrinkY = least
        }
        shrinkX = min(shrinkX / dprScale, sourceWidth)
        shrinkY = min(shrinkY / dprScale, sourceHeight)
        return (1 / shrinkX, 1 / shrinkY, dprScale)
    }

    /// `image` in the middle of a transparent `size`, placed by `gravity`.
    static func extended(_ image: Image, to size: PixelSize, gravity: ImgproxyGravity, scale: Double) throws(ImageProcessingError) -> Image {
        guard size.width > image.width || size.height > image.height else { return image }
        let size = PixelSize(width: max(size.width, image.width), height: max(size.height, image.height))
        let origin = gravity.origin(outer: size, inner: image.size, scale: scale)
        return try ImageProcessors.Padding(top: origin.y, right: size.width - image.width - origin.x,
                                           bottom: size.height - image.height - origin.y, left: origin.x).process(image)
    }
}
