import Foundation
import OspreyDomain

/// The format of an answer when the URL names none, from the client's `Accept`: AVIF when
/// accepted and enabled (it costs more to encode), else WebP, else PNG for an image with
/// alpha and JPEG otherwise. An animation stays animated as WebP where accepted.
package struct FormatNegotiation: Sendable {
    package let offersAVIF: Bool

    package init(offersAVIF: Bool) {
        self.offersAVIF = offersAVIF
    }

    package func format(accept: String?, hasAlpha: Bool, isAnimated: Bool) -> ImageFormat {
        let accepted = Self.types(in: accept ?? "")
        if isAnimated, accepted.contains("image/webp") { return .webp }
        if offersAVIF, accepted.contains("image/avif") { return .avif }
        if accepted.contains("image/webp") { return .webp }
        return hasAlpha ? .png : .jpeg
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
