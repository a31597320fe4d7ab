import Foundation

/// imgproxy's security options: a URL's own, tighter limits on its source and result. A
/// server allows them only when configured to (`IMGPROXY_ALLOW_SECURITY_OPTIONS`); they never
/// loosen the server's limits, which apply first.
package struct ImgproxySecurityOptions: Hashable, Sendable {
    /// `max_src_resolution`, in pixels (the URL gives megapixels).
    package var maxSourcePixels: Int?
    /// `max_src_file_size`, in bytes.
    package var maxSourceBytes: Int?
    /// `max_animation_frames`: 1 answers the first frame only.
    package var maxAnimationFrames: Int?
    /// `max_animation_frame_resolution`, in pixels a frame (the URL gives megapixels).
    package var maxAnimationFramePixels: Int?
    /// `max_result_dimension`: the longest side of the result, in pixels.
    package var maxResultDimension: Int?

    package init() {}

    /// Whether the URL gave none.
    package var isEmpty: Bool { self == ImgproxySecurityOptions() }

    /// Applies the option `name` if it is one of these; `false` if it is not.
    mutating func apply(_ name: String, _ args: [String]) throws(ImgproxyError) -> Bool {
        switch name {
        case "msr", "max_src_resolution": maxSourcePixels = try Self.megapixels(args, name)
        case "msfs", "max_src_file_size": maxSourceBytes = try Self.count(args, name, least: 0)
        case "maf", "max_animation_frames": maxAnimationFrames = try Self.count(args, name, least: 1)
        case "mafr", "max_animation_frame_resolution": maxAnimationFramePixels = try Self.megapixels(args, name)
        case "mrd", "max_result_dimension": maxResultDimension = try Self.count(args, name, least: 0)
        default: return false
        }
        return true
    }

    /// Why a source of `bytes` bytes, `width` × `height` a frame and `frames` frames is past
    /// these limits, as imgproxy checks them (an animation's frame against the frame limit
    /// when one is given, else all its frames against the resolution); `nil` within them.
    package func refusal(bytes: Int, width: Int, height: Int, frames: Int) -> String? {
        if let maxSourceBytes, maxSourceBytes > 0, bytes > maxSourceBytes { return "the source is over \(maxSourceBytes) bytes" }
        let frames = min(max(frames, 1), maxAnimationFrames ?? .max)
        if frames > 1, let maxAnimationFramePixels, maxAnimationFramePixels > 0 {
            if width * height > maxAnimationFramePixels { return "a frame is over \(maxAnimationFramePixels) pixels" }
        } else if let maxSourcePixels, width * height * frames > maxSourcePixels {
            return "the source is over \(maxSourcePixels) pixels"
        }
        return nil
    }

    private static func megapixels(_ args: [String], _ name: String) throws(ImgproxyError) -> Int {
        guard let value = Double(try ImgproxyOptions.single(args, name)), value > 0 else { throw .malformed("\(name) must be above 0") }
        return Int(value * 1_000_000)
    }

    private static func count(_ args: [String], _ name: String, least: Int) throws(ImgproxyError) -> Int {
        guard let value = Int(try ImgproxyOptions.single(args, name)), value >= least else { throw .malformed("\(name) must be \(least) or more") }
        return value
    }
}
