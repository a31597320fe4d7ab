import Foundation
import OspreyDomain

/// The format of an answer when the URL names none, from the client's `Accept`: JPEG XL, then
/// AVIF, when accepted and enabled (each opt-in: few browsers take JPEG XL, and AVIF costs
/// more to encode), else WebP, else PNG for an image with
/// alpha and JPEG otherwise. An animation stays animated as WebP where accepted.
package struct FormatNegotiation: Sendable {
    package let offersAVIF: Bool
    package let offersJXL: Bool
    /// The formats answered when none is offered, most preferred first: the source's own
    /// when listed, else the first that can carry the image. Empty: PNG or JPEG.
    package let preferred: [ImageFormat]

    package init(offersAVIF: Bool, offersJXL: Bool = false, preferred: [ImageFormat] = []) {
        self.offersAVIF = offersAVIF
        self.offersJXL = offersJXL
        self.preferred = preferred
    }

    package func format(accept: String?, hasAlpha: Bool, isAnimated: Bool) -> ImageFormat {
        format(offers: offers(accept: accept), hasAlpha: hasAlpha, isAnimated: isAnimated)
    }

    /// Whether a URL may name `format`: AVIF and JPEG XL only where the server offers them.
    package func writes(_ format: ImageFormat) -> Bool {
        switch format {
        case .avif: offersAVIF
        case .jxl: offersJXL
        default: true
        }
    }

    /// The formats beyond JPEG and PNG that this server would answer a client sending
    /// `accept`: with the image, they decide the answer, so they are part of its cache key.
    package func offers(accept: String?) -> [ImageFormat] {
        let accepted = Self.types(in: accept ?? "")
        return [offersJXL ? ImageFormat.jxl : nil, offersAVIF ? .avif : nil, .webp].compactMap { $0 }.filter { accepted.contains($0.mimeType) }
    }

    /// The format of the answer, from the formats `offers(accept:)` chose and the image.
    package func format(offers: [ImageFormat], hasAlpha: Bool, isAnimated: Bool, source: ImageFormat? = nil) -> ImageFormat {
        if isAnimated, offers.contains(.webp) { return .webp }
        if let offer = offers.first { return offer }
        let fitting = preferred.filter { !hasAlpha || $0 != .jpeg }
        if let source, fitting.contains(source) { return source }
        return fitting.first ?? (hasAlpha ? .png : .jpeg)
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
