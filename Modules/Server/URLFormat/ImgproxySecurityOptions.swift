import Foundation
import OspreyDomain

/// imgproxy's security options: a URL's own, tighter limits on its source and result. A
/// server allows them only when configured to; they never
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

    /// Why a source of `bytes` bytes, `width` × `height` a frame and `frames` frames is past
    /// these limits, as imgproxy checks them (an animation's frame against the frame limit
    /// when one is given, else all its frames against the resolution); `nil` within them.
    package func refusal(bytes: Int, width: Int, height: Int, frames: Int) -> String? {
        if let maxSourceBytes, maxSourceBytes > 0, bytes > maxSourceBytes { return "the source is over \(maxSourceBytes) bytes" }
        let frames = min(max(frames, 1), maxAnimationFrames ?? .max)
        if frames > 1, let maxAnimationFramePixels, maxAnimationFramePixels > 0 {
            if PixelSize(width: width, height: height).area > maxAnimationFramePixels { return "a frame is over \(maxAnimationFramePixels) pixels" }
        } else if let maxSourcePixels, PixelSize(width: width, height: height).area(frames: frames) > maxSourcePixels {
            return "the source is over \(maxSourcePixels) pixels"
        }
        return nil
    }
}
