import Foundation
import OspreyCodec
import OspreyDomain

/// The format of an answer, as imgproxy chooses it. A URL naming a format gets it, unless
/// the server enforces one the client's `Accept` takes and that carries the image. A URL
/// naming none gets the first automatic or enforced format the client takes — JPEG XL, then
/// AVIF, then WebP — whose encoder carries the image (an animation stays animated where one
/// can); else the source's own format when it is a preferred one, else the first preferred
/// format that carries the image, else JPEG, or PNG for an image with alpha. Which format
/// carries what is the encoders' declaration.
package struct FormatNegotiation: Sendable {
    /// Formats answered to clients that accept them when the URL names none.
    let auto: [ImageFormat]
    /// Formats answered to clients that accept them, even over the URL's.
    let enforced: [ImageFormat]
    /// The formats answered when none is offered, most preferred first.
    let preferred: [ImageFormat]
    /// The codec answers are encoded with, and what each of its encoders carries.
    let codec: ImageCodec
    /// The formats the codec writes.
    let written: Set<ImageFormat>
    /// Formats a URL may name only when they are automatic or enforced.
    let namedOnlyWhenOffered: Set<ImageFormat>

    /// imgproxy's order of preference among the formats a client's `Accept` decides.
    static let negotiable: [ImageFormat] = [.jxl, .avif, .webp]

    package init(auto: [ImageFormat], enforced: [ImageFormat] = [], preferred: [ImageFormat] = [.jpeg, .png, .gif],
                 codec: ImageCodec, namedOnlyWhenOffered: Set<ImageFormat> = []) {
        (self.auto, self.enforced, self.preferred, self.codec, self.namedOnlyWhenOffered) = (auto, enforced, preferred, codec, namedOnlyWhenOffered)
        written = Set(codec.encoders.keys)
    }

    /// The format a client sending `accept` gets for an image with or without alpha and
    /// frames.
    package func format(accept: String?, hasAlpha: Bool, isAnimated: Bool) -> ImageFormat {
        let pixel = try! Image(width: 1, height: 1, pixelFormat: hasAlpha ? .rgba8 : .rgb8, pixels: hasAlpha ? [0, 0, 0, 0] : [0, 0, 0])
        let image = isAnimated ? Image(animation: ImageAnimation(frames: [.init(image: pixel, duration: .milliseconds(100)),
                                                                          .init(image: pixel, duration: .milliseconds(100))], loopCount: 0)) : pixel
        return OutputEncoding(format: choice(named: nil, accept: accept).format)
            .format(for: image, source: nil, capabilities: { codec.encoders[$0]?.capabilities(for: $0) })
    }

    /// Whether a URL may name `format`: one the server writes, and one of
    /// ``namedOnlyWhenOffered`` only where the server offers it.
    func writes(_ format: ImageFormat) -> Bool {
        written.contains(format) && (!namedOnlyWhenOffered.contains(format) || auto.contains(format) || enforced.contains(format))
    }

    /// The formats of `candidates` a client sending `accept` takes and the server writes, in
    /// imgproxy's order.
    func accepted(_ candidates: [ImageFormat], accept: String?) -> [ImageFormat] {
        let types = Self.types(in: accept ?? "")
        return Self.negotiable.filter { candidates.contains($0) && written.contains($0) && types.contains($0.mediaType) }
    }

    /// How the answer's format is chosen for a URL naming `named` (or none) and a client
    /// sending `accept`, and whether answers vary with `Accept`: wherever the server offers or
    /// enforces a format, as imgproxy says.
    func choice(named: ImageFormat?, accept: String?) -> AnswerChoice {
        let varies = !auto.isEmpty || !enforced.isEmpty
        let enforced = accepted(self.enforced, accept: accept)
        if let named, writes(named) {
            return AnswerChoice(format: enforced.isEmpty ? .fixed(named) : .firstFitting(enforced + [named]), varies: varies)
        }
        let offers = accepted(auto + self.enforced, accept: accept)
        if !offers.isEmpty { return AnswerChoice(format: .firstFitting(offers + [.jpeg, .png]), varies: varies) }
        return AnswerChoice(format: .firstFitting(preferred + [.jpeg, .png], keepingSource: preferred), varies: varies)
    }

    /// The media types `accept` names with a quality above zero.
    static func types(in accept: String) -> Set<String> {
        Set(accept.split(separator: ",").compactMap { item in
            let parts = item.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces) }
            guard let type = parts.first?.lowercased(), !type.isEmpty else { return nil }
            let refused = parts.dropFirst().contains { $0.replacingOccurrences(of: " ", with: "").lowercased() == "q=0" }
            return refused ? nil : type
        })
    }
}
