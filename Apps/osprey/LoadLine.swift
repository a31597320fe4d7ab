import ArgumentParser
import Foundation
import Osprey

/// One loaded image, as `osprey load --json` prints it.
struct LoadLine: Codable {
    let url: String
    let tier: String
    let width: Int
    let height: Int
    let ms: Double
}
