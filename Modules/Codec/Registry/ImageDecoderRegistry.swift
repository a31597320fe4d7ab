import Foundation
import OspreyDomain

/// The decoders inputs are offered to, in order, built once. A decoder registered later is
/// asked before those already there, so it takes precedence over a built-in one for the
/// inputs it recognises — an app's own JPEG decoder replaces Osprey's — and a decoder of a
/// new format costs the others one look at the magic bytes (as Nuke's registry).
public struct ImageDecoderRegistry: Sendable {
    /// The decoders, in the order inputs are offered to them.
    public private(set) var decoders: [any ImageDecoding]

    /// A registry of `decoders`, asked in that order.
    public init(_ decoders: [any ImageDecoding]) { self.decoders = decoders }

    /// Puts `decoder` first: it decodes the inputs its `detectFormat(of:)` recognises.
    public mutating func register(_ decoder: any ImageDecoding) {
        decoders.insert(decoder, at: 0)
    }

    /// The first decoder that recognises `prefix`, and the format it names.
    /// - Throws: as ``FormatDetector/decodableFormat(_:expecting:)`` when none does: not an
    ///   image, or an image no decoder here reads.
    public func decoder(for prefix: Data) throws(ImageDecodingError) -> (decoder: any ImageDecoding, format: ImageFormat) {
        for decoder in decoders {
            if let format = try? decoder.detectFormat(of: prefix) { return (decoder, format) }
        }
        let format = try FormatDetector.decodableFormat(prefix)
        throw .unsupportedFormat(format)
    }
}
