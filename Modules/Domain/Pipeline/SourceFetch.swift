import Foundation

/// What a download produced: new bytes, or "not modified" for a conditional request.
struct SourceFetch: Sendable {
    let data: Data
    let metadata: CachedDataMetadata
    let notModified: Bool
    let noStore: Bool
}
