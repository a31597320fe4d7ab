import ArgumentParser
import Foundation
import OspreyDomain
import OspreyNetwork

/// `osprey fetch --json`'s report.
struct FetchReport: Codable {
    let url: String
    let finalURL: String
    let status: Int
    let bytes: Int
    let output: String
}
