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
    public func scaled(toFit target: PixelSize, mode: ContentMode) -> PixelSize {
        guard !isEmpty, !target.isEmpty else { return self }
        let sx = Double(target.width) / Double(width)
        let sy = Double(target.height) / Double(height)
        let scale = min(1, mode == .fit ? min(sx, sy) : max(sx, sy))
        return PixelSize(
            width: max(1, Int((Double(width) * scale).rounded())),
            height: max(1, Int((Double(height) * scale).rounded()))
        )
    }
}
