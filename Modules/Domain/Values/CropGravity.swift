/// Which part of an image a `fill` keeps when it crops to the target size.
public enum CropGravity: Hashable, Sendable {
    /// The centre (the default).
    case centre
    /// The window centred on a point given as fractions of the width and height (0…1 from
    /// the top left), moved inward where it would pass an edge: `(0.5, 0)` keeps the top,
    /// `(1, 1)` the bottom right corner, as imgproxy's gravities and focal points do.
    case point(x: Double, y: Double)
    /// The most interesting window, by edges, skin tones and saturation, as libvips'
    /// `attention` smart crop finds it.
    case attention

    /// How the gravity reads in a cache key; empty for the centre.
    package var identifier: String {
        switch self {
        case .centre: ""
        case let .point(x, y): "g=\(x),\(y)"
        case .attention: "g=attention"
        }
    }
}
