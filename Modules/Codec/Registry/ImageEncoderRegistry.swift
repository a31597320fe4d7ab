import Foundation
import OspreyDomain

/// The encoder of each format, with what each declares it can carry, built once. A registered
/// encoder writes the formats its `ImageEncoding.capabilities` name, in place
/// of the one there before.
public struct ImageEncoderRegistry: Sendable {
    /// The encoder of each format.
    public private(set) var encoders: [ImageFormat: any ImageEncoding] = [:]
    /// What each format's encoder declares, in a stable order.
    public private(set) var capabilities: [EncoderCapabilities] = []

    /// A registry of `encoders`, each for the formats it declares.
    public init(_ encoders: [any ImageEncoding]) {
        for encoder in encoders { register(encoder) }
    }

    /// Makes `encoder` the encoder of every format it declares.
    public mutating func register(_ encoder: any ImageEncoding) {
        for capability in encoder.capabilities { encoders[capability.format] = encoder }
        capabilities = encoders.sorted { $0.key.rawValue < $1.key.rawValue }.compactMap { $0.value.capabilities(for: $0.key) }
    }
}
