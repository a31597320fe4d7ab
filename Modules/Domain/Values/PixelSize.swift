/// A size in pixels.
public struct PixelSize: Hashable, Sendable, CustomStringConvertible {
    /// Width in pixels.
    public var width: Int
    /// Height in pixels.
    public var height: Int

    /// Creates a size of `width` × `height` pixels.
    public init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// The number of pixels, `width × height`.
    public var area: Int { width * height }

    /// `true` when either side is zero or negative.
    public var isEmpty: Bool { width <= 0 || height <= 0 }

    /// `200x100`.
    public var description: String { "\(width)x\(height)" }

    /// The size an image of this size takes when scaled to `target` with `mode`,
    /// never larger than this size and never smaller than 1×1.
    ///
    /// - `fit`: the largest size inside `target` that keeps the aspect ratio.
    /// - `fill`: the smallest size that covers `target` and keeps the aspect ratio
    ///   (a processor may then crop it to `target`).
    ///
    /// A side of `target` that is 0 is free: the other side alone decides, for either mode
    /// (`200x0` is 200 pixels wide, whatever the height). With both sides 0, the size stays.
    public func scaled(toFit target: PixelSize, mode: ContentMode) -> PixelSize {
        guard !isEmpty, target.width > 0 || target.height > 0 else { return self }
        let scale = scale(toFit: target, mode: mode)
        return PixelSize(
            width: max(1, Int((Double(width) * min(1, scale)).rounded())),
            height: max(1, Int((Double(height) * min(1, scale)).rounded()))
        )
    }

    /// The factor ``scaled(toFit:mode:)`` applies before it stops at 1: above 1 when this size
    /// is smaller than `target` asks for (a vector is drawn at it, larger or smaller).
    public func scale(toFit target: PixelSize, mode: ContentMode) -> Double {
        let sx = target.width > 0 ? Double(target.width) / Double(width) : nil
        let sy = target.height > 0 ? Double(target.height) / Double(height) : nil
        return switch (sx, sy) {
        case let (x?, y?): mode == .fit ? min(x, y) : max(x, y)
        case let (x?, nil): x
        case let (nil, y?): y
        case (nil, nil): 1
        }
    }

    /// This size within `target` on each side `target` bounds (a side of 0 bounds nothing).
    public func clamped(to target: PixelSize) -> PixelSize {
        PixelSize(width: target.width > 0 ? min(width, target.width) : width,
                  height: target.height > 0 ? min(height, target.height) : height)
    }
}
