import Foundation

/// RFC 3986's percent-encoding with only the unreserved characters left as they are, as
/// object stores' signatures, their object names and form bodies want it.
package enum URIEncoding {
    package static let unreserved = CharacterSet(charactersIn: "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-._~")

    /// `text` with every character but the unreserved ones percent-encoded.
    package static func encode(_ text: some StringProtocol) -> String { text.addingPercentEncoding(withAllowedCharacters: unreserved)! }
}
