// Fuzzes the imgproxy path as a client sends it: unsigned, signed (so that the options are
// read), behind a wrong signature (nothing may be read: 403), in presets-only mode, and as
// an /info path.
import Foundation
import FuzzRequestSupport
import FuzzSupport
@_spi(Fuzzing) import OspreyServer

@_cdecl("FuzzImgproxyPath_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        guard let bytes else { return 0 }
        // The path after the signature, as the seeds are written: `/rs:fill:300:400/plain/…`.
        let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        let path = text.hasPrefix("/") ? text : "/" + text
        RequestSurface.read(RequestSurface.unsigned, "/insecure" + path)
        RequestSurface.read(RequestSurface.presetsOnly, "/_" + path)
        RequestSurface.read(RequestSurface.signed, RequestSurface.keys.signed(path))
        // The same as /info's options and source (`s:0/bh:4:3/c:0.5:0.5:sm/pg:2/plain/…`).
        if let read = try? RequestSurface.unsigned.readInfoRequest(path: "/insecure" + path) { RequestSurface.checkSource(read.source) }
        // Verified before anything is read: a wrong signature is 403 whatever follows it.
        let refusal = RequestSurface.read(RequestSurface.signed, "/AAAA" + path)
        precondition(refusal?.kind == .forbidden, "\(refusal.map { "\($0)" } ?? "an answer") behind a wrong signature")
        return 0
    }
}
