import Foundation

/// Downloads coalesce per source, per whether the bytes go to the disk cache, and per the
/// validators of a conditional request.
struct DataLoadKey: Hashable, Sendable {
    let key: CacheKey
    let storesToDisk: Bool
    let validators: HTTPValidators?
}
