import Foundation

/// A processed image and the tier it came from, shared by coalesced callers.
struct LoadedImage: Sendable {
    let image: Image
    let tier: ImageResponse.Tier
    /// The source bytes' metadata when they were read (not for memory hits; for a file, its
    /// format alone).
    var source: CachedDataMetadata?
}
