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

    /// The longest side a size computed from a client's numbers or a file's header is given
    /// (2³¹ − 1): products of two sides and a pixel's bytes then always fit an `Int`.
    public static let maxSide = Int(Int32.max)

    /// The number of pixels, `width × height`; `Int.max` when that does not fit, so that a
    /// header's sides can be compared with a limit without trapping.
    public var area: Int {
        let (pixels, overflow) = width.multipliedReportingOverflow(by: height)
        return overflow ? .max : pixels
    }

    /// The pixels of `frames` frames of this size; `Int.max` when that does not fit.
    public func area(frames: Int) -> Int {
        let (pixels, overflow) = area.multipliedReportingOverflow(by: max(1, frames))
        return overflow ? .max : pixels
    }

    /// The bytes of an image of this size at `bytesPerPixel` (and `frames` frames); `Int.max`
    /// when that does not fit. What estimates, limits and allocations count.
    public func byteCount(bytesPerPixel: Int, frames: Int = 1) -> Int {
        let (bytes, overflow) = area(frames: frames).multipliedReportingOverflow(by: max(0, bytesPerPixel))
        return overflow ? .max : bytes
    }

    /// A size from computed sides, each rounded by `rule` and held to `0…maxSide` (not a
    /// number is 0), so no arithmetic on client numbers traps converting to `Int`.
    public init(rounding width: Double, _ height: Double, rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero) {
        self.init(width: Self.length(width, rule: rule, least: 0), height: Self.length(height, rule: rule, least: 0))
    }

    /// `value` rounded by `rule` and held to `least…maxSide` (not a number is 0 held the same
    /// way): a side or a signed offset in pixels from a computed `Double`.
    public static func length(_ value: Double, rule: FloatingPointRoundingRule = .toNearestOrAwayFromZero, least: Int = -maxSide) -> Int {
        guard !value.isNaN else { return max(least, 0) }
        let bound = Double(maxSide)
        return max(least, Int(min(bound, max(-bound, value.rounded(rule)))))
    }

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
        let factor = min(1, scale)
        let scaled = PixelSize(rounding: Double(width) * factor, Double(height) * factor)
        return PixelSize(width: max(1, scaled.width), height: max(1, scaled.height))
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
