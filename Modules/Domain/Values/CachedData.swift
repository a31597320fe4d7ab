import Foundation

/// Encoded bytes held by a ``DataCaching``, with what is known about them.
public struct CachedData: Hashable, Sendable {
    /// The encoded bytes, exactly as stored.
    public var data: Data
    /// What is known about them.
    public var metadata: CachedDataMetadata
    /// The tier that held the entry: ``ImageResponse/Tier/disk`` for a cache of this machine,
    /// ``ImageResponse/Tier/shared`` when a ``TieredDataCache`` found it in its shared tier.
    /// Responses report it.
    public var tier: ImageResponse.Tier

    /// Creates an entry.
    public init(data: Data, metadata: CachedDataMetadata = CachedDataMetadata(), tier: ImageResponse.Tier = .disk) {
        self.data = data
        self.metadata = metadata
        self.tier = tier
    }
}
