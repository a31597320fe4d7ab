import Foundation

/// Reading what AWS's credential services answer: the XML of STS, the JSON of the container
/// and instance endpoints and of a credential process, the ISO 8601 times in both.
enum AWSAnswer {
    /// The text of the first `<tag>…</tag>` in `xml`, its five predefined entities decoded.
    /// STS's answers are flat enough that no parser is needed for the few values read.
    static func xmlValue(_ tag: String, in xml: String) -> String? {
        guard let open = xml.range(of: "<\(tag)>"), let close = xml.range(of: "</\(tag)>", range: open.upperBound..<xml.endIndex) else {
            return nil
        }
        return xml[open.upperBound..<close.lowerBound]
            .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
            .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&apos;", with: "'")
            .replacingOccurrences(of: "&amp;", with: "&")
    }

    /// An ISO 8601 time, with or without fractional seconds.
    static func date(_ text: String) -> Date? {
        (try? Date.ISO8601FormatStyle().parse(text)) ?? (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(text))
    }

    /// Credentials from a JSON object with `AccessKeyId`, `SecretAccessKey`, `Token` or
    /// `SessionToken`, and `Expiration`, as the container and instance endpoints and a
    /// credential process give them.
    static func credentials(json data: Data, from service: String) throws(AWSCredentialError) -> AWSCredentials {
        guard let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            throw .serviceFailed(service: service, reason: "the answer is not a JSON object")
        }
        if let code = object["Code"] as? String, code != "Success" {
            throw .serviceFailed(service: service, reason: "\(code): \(object["Message"] as? String ?? "")")
        }
        guard let key = object["AccessKeyId"] as? String, let secret = object["SecretAccessKey"] as? String, !key.isEmpty, !secret.isEmpty else {
            throw .serviceFailed(service: service, reason: "the answer has no AccessKeyId and SecretAccessKey")
        }
        let token = object["Token"] as? String ?? object["SessionToken"] as? String
        return AWSCredentials(accessKeyID: key, secretAccessKey: secret, sessionToken: token,
                              expiration: (object["Expiration"] as? String).flatMap(date))
    }
}
