// Fuzzes the source a URL names — local://, s3:// and http(s) in any encoding — plain,
// percent-encoded and base64: whatever resolves lies under the allow-list and the root.
import Foundation
import FuzzRequestSupport
import FuzzSupport
@_spi(Fuzzing) import OspreyServer

@_cdecl("FuzzSourceURL_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        guard let bytes else { return 0 }
        let source = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        let base64 = Data(source.utf8).base64EncodedString().replacingOccurrences(of: "+", with: "-")
            .replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
        let encoded = source.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed) ?? source
        for path in ["/insecure/plain/" + source, "/insecure/plain/" + encoded, "/insecure/w:10/" + base64 + ".png"] {
            RequestSurface.read(RequestSurface.unsigned, path)
        }
        return 0
    }
}
