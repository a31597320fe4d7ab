import Foundation
import OspreyDomain

/// An S3 access point named by its ARN (`arn:aws:s3:REGION:ACCOUNT:accesspoint/NAME`), reached
/// as AWS's SDKs reach one: at `NAME-ACCOUNT.s3-accesspoint.REGION.amazonaws.com`, the key in
/// the path, signed for the access point's region.
package struct S3AccessPoint: Sendable, Equatable {
    let name: String
    let account: String
    let region: String
    /// `amazonaws.com`, or `amazonaws.com.cn` in AWS's China partition.
    let domain: String

    package init?(arn: String) {
        let parts = arn.split(separator: ":", maxSplits: 5, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 6, parts[0] == "arn", parts[1].hasPrefix("aws"), parts[2] == "s3", !parts[3].isEmpty, !parts[4].isEmpty else { return nil }
        let resource = parts[5]
        guard resource.hasPrefix("accesspoint/") || resource.hasPrefix("accesspoint:") else { return nil }
        let name = String(resource.dropFirst("accesspoint/".count))
        let label = { (text: String) in !text.isEmpty && text.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "-") } }
        guard label(name), label(parts[4]), label(parts[3]) else { return nil }
        self.name = name.lowercased()
        account = parts[4]
        region = parts[3]
        domain = parts[1] == "aws-cn" ? "amazonaws.com.cn" : "amazonaws.com"
    }

    /// The object at `location`'s key (and version) through the access point.
    func url(for location: S3Location) -> URL {
        var components = URLComponents()
        components.scheme = "https"
        components.percentEncodedHost = "\(name)-\(account).s3-accesspoint.\(region).\(domain)"
        components.percentEncodedPath = "/" + location.encodedKey
        components.percentEncodedQuery = location.versionQuery
        return components.url!
    }
}
