import OspreyDomain

// The built-in processors as static members, as Nuke spells them:
// `processors: [.resize(width: 200), .roundedCorners(radius: 12), .blur(radius: 2)]`.

extension ImageProcessing where Self == ImageProcessors.Resize {
    /// ``ImageProcessors/Resize``: to `size`, fitting inside it or filling it (and cropping the centre).
    public static func resize(size: PixelSize, contentMode: ContentMode = .fit, crop: Bool = true, gravity: CropGravity = .centre) -> Self {
        ImageProcessors.Resize(size: size, contentMode: contentMode, crop: crop, gravity: gravity)
    }

    /// ``ImageProcessors/Resize`` filling `size` and keeping its most interesting window.
    public static func smartCrop(to size: PixelSize) -> Self {
        ImageProcessors.Resize(size: size, contentMode: .fill, gravity: .attention)
    }

    /// ``ImageProcessors/Resize`` to `width`, the height following the aspect ratio.
    public static func resize(width: Int) -> Self {
        ImageProcessors.Resize(size: PixelSize(width: width, height: ImageProcessors.Resize.unbounded), contentMode: .fit)
    }

    /// ``ImageProcessors/Resize`` to `height`, the width following the aspect ratio.
    public static func resize(height: Int) -> Self {
        ImageProcessors.Resize(size: PixelSize(width: ImageProcessors.Resize.unbounded, height: height), contentMode: .fit)
    }
}

extension ImageProcessing where Self == ImageProcessors.RoundedCorners {
    /// ``ImageProcessors/RoundedCorners`` of `radius` pixels.
    public static func roundedCorners(radius: Int) -> Self { ImageProcessors.RoundedCorners(radius: radius) }
}

extension ImageProcessing where Self == ImageProcessors.Circle {
    /// ``ImageProcessors/Circle``: the centre square, masked to a circle.
    public static var circle: Self { ImageProcessors.Circle() }
}

extension ImageProcessing where Self == ImageProcessors.GaussianBlur {
    /// ``ImageProcessors/GaussianBlur`` of `radius` pixels.
    public static func blur(radius: Int) -> Self { ImageProcessors.GaussianBlur(radius: radius) }
}

extension ImageProcessing where Self == ImageProcessors.Grayscale {
    /// ``ImageProcessors/Grayscale``.
    public static var grayscale: Self { ImageProcessors.Grayscale() }
}

extension ImageProcessing where Self == ImageProcessors.Tint {
    /// ``ImageProcessors/Tint`` with `color`.
    public static func tint(_ color: RGBAColor) -> Self { ImageProcessors.Tint(color: color) }
}

extension ImageProcessing where Self == ImageProcessors.ColorOverlay {
    /// ``ImageProcessors/ColorOverlay`` of `color` at `fraction`.
    public static func colorOverlay(_ color: RGBAColor, fraction: Double = 0.5) -> Self {
        ImageProcessors.ColorOverlay(color: color, fraction: fraction)
    }
}

extension ImageProcessing where Self == ImageProcessors.Crop {
    /// ``ImageProcessors/Crop`` of the rectangle at (`x`, `y`).
    public static func crop(x: Int, y: Int, width: Int, height: Int) -> Self {
        ImageProcessors.Crop(x: x, y: y, width: width, height: height)
    }
}

extension ImageProcessing where Self == ImageProcessors.Composition {
    /// ``ImageProcessors/Composition`` of `processors`, applied in order as one.
    public static func composition(_ processors: [any ImageProcessing]) -> Self { ImageProcessors.Composition(processors) }
}

extension ImageProcessing where Self == ImageProcessors.Rotate {
    /// ``ImageProcessors/Rotate`` by `quarterTurns` × 90° clockwise.
    public static func rotate(quarterTurns: Int) -> Self { ImageProcessors.Rotate(quarterTurns: quarterTurns) }
}

extension ImageProcessing where Self == ImageProcessors.Flip {
    /// ``ImageProcessors/Flip`` across (`horizontal`), down (`vertical`) or both.
    public static func flip(horizontal: Bool, vertical: Bool) -> Self { ImageProcessors.Flip(horizontal: horizontal, vertical: vertical) }
}

extension ImageProcessing where Self == ImageProcessors.Padding {
    /// ``ImageProcessors/Padding`` of the given widths, in `color` (transparent without one).
    public static func padding(top: Int, right: Int, bottom: Int, left: Int, color: RGBAColor? = nil) -> Self {
        ImageProcessors.Padding(top: top, right: right, bottom: bottom, left: left, color: color)
    }
}

extension ImageProcessing where Self == ImageProcessors.Background {
    /// ``ImageProcessors/Background`` of `color`.
    public static func background(_ color: RGBAColor) -> Self { ImageProcessors.Background(color: color) }
}

extension ImageProcessing where Self == ImageProcessors.Sharpen {
    /// ``ImageProcessors/Sharpen`` with a blur of `radius` pixels.
    public static func sharpen(radius: Int) -> Self { ImageProcessors.Sharpen(radius: radius) }
}

extension ImageProcessing where Self == ImageProcessors.Pixelate {
    /// ``ImageProcessors/Pixelate`` in squares of `size` pixels.
    public static func pixelate(size: Int) -> Self { ImageProcessors.Pixelate(size: size) }
}

extension ImageProcessing where Self == ImageProcessors.Trim {
    /// ``ImageProcessors/Trim`` of the border within `threshold` of `color` (the top left
    /// pixel's without one).
    public static func trim(threshold: Int = 10, color: RGBAColor? = nil) -> Self {
        ImageProcessors.Trim(threshold: threshold, color: color)
    }
}
