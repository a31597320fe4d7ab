import Foundation
import Hummingbird
import OspreyDomain

/// The answers the servers share: short text, and the validator of an encoded image.
package enum Answers {
    package static func text(_ status: HTTPResponse.Status, _ message: String) -> Response {
        Response(status: status, headers: [.contentType: "text/plain; charset=utf-8"],
                 body: .init(byteBuffer: ByteBuffer(string: message + "\n")))
    }

    /// The refusal a pipeline failure carries, if it is one.
    package static func refusal(in error: any Error) -> SourceRefusal? {
        guard case .dataLoadingFailed(.refused(let reason, _))? = error as? ImagePipeline.Error else { return nil }
        return reason
    }

    /// FNV-1a over the bytes: a stable validator for an encoded answer.
    package static func fingerprint(_ data: Data) -> String {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in data { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return String(hash, radix: 16)
    }
}
