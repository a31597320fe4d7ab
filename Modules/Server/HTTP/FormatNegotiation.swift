import Foundation
import OspreyCodec
import OspreyDomain

/// The format of an answer. A URL may name one; else the client's `Accept` decides among
/// the formats the server offers — JPEG XL, then AVIF, when enabled (each opt-in: few
/// browsers take JPEG XL, and AVIF costs more to encode), then WebP — the first that carries
/// the image (an animation stays animated where one can); with none accepted, the server's
/// preferred formats (the source's own first when listed), then JPEG, or PNG for an image
/// with alpha. Which format carries what is the encoders' declaration.
package struct FormatNegotiation: Sendable {
    let offersAVIF: Bool
    let offersJXL: Bool
    /// Formats answered to clients that accept them, even over the URL's.
    let enforced: [ImageFormat]
    /// The formats answered when none is offered, most preferred first.
    let preferred: [ImageFormat]
    /// The formats the server's encoder writes.
    let written: Set<ImageFormat>

    package init(offersAVIF: Bool, offersJXL: Bool = false, enforced: [ImageFormat] = [], preferred: [ImageFormat] = [],
                 written: Set<ImageFormat> = Set(ImageCodec().encoders.keys)) {
        (self.offersAVIF, self.offersJXL, self.enforced, self.preferred, self.written) = (offersAVIF, offersJXL, enforced, preferred, written)
    }

    /// The format a client sending `accept` gets for an image with or without alpha and
    /// frames, written by the built-in codec.
    package func format(accept: String?, hasAlpha: Bool, isAnimated: Bool) -> ImageFormat {
        let pixel = try! Image(width: 1, height: 1, pixelFormat: hasAlpha ? .rgba8 : .rgb8, pixels: hasAlpha ? [0, 0, 0, 0] : [0, 0, 0])
        let image = isAnimated ? Image(animation: ImageAnimation(frames: [.init(image: pixel, duration: .milliseconds(100)),
                                                                          .init(image: pixel, duration: .milliseconds(100))], loopCount: 0)) : pixel
        let codec = ImageCodec()
        return OutputEncoding(format: choice(named: nil, accept: accept).format)
            .format(for: image, source: nil, capabilities: { codec.encoders[$0]?.capabilities(for: $0) })
    }

    /// Whether a URL may name `format`: one the server writes, and AVIF and JPEG XL only
    /// where the server offers them (they cost far more to encode).
    func writes(_ format: ImageFormat) -> Bool {
        switch format {
        case .avif: offersAVIF && written.contains(.avif)
        case .jxl: offersJXL && written.contains(.jxl)
        default: written.contains(format)
        }
    }

    /// The formats beyond JPEG and PNG that this server would answer a client sending
    /// `accept`: with the image, they decide the answer, so they are part of its cache key.
    func offers(accept: String?) -> [ImageFormat] {
        let accepted = Self.types(in: accept ?? "")
        return [offersJXL ? ImageFormat.jxl : nil, offersAVIF ? .avif : nil, .webp].compactMap { $0 }
            .filter { accepted.contains($0.mediaType) && written.contains($0) }
    }

    /// How the answer's format is chosen for a URL naming `named` (or none) and a client
    /// sending `accept`. A named format the server does not offer is answered as if none
    /// were named.
    func choice(named: ImageFormat?, accept: String?) -> AnswerChoice {
        let offers = offers(accept: accept)
        let named = named.flatMap { writes($0) ? $0 : nil }
        if let format = enforced.first(where: offers.contains) ?? named {
            return AnswerChoice(format: .fixed(format), varies: named == nil || !enforced.isEmpty)
        }
        let formats = offers.isEmpty ? preferred + [.jpeg, .png] : offers + [.jpeg, .png]
        return AnswerChoice(format: .firstFitting(formats, keepingSource: offers.isEmpty ? preferred : []), varies: true)
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
