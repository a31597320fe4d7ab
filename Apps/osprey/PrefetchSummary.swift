import ArgumentParser
import Foundation
import Osprey

/// `osprey prefetch`'s summary.
struct PrefetchSummary: Codable {
    let completed: Int
    let failed: Int
    let skipped: Int
    let total: Int
}
