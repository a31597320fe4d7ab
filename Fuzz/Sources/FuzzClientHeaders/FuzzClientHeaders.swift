// Fuzzes the headers a client sends with an image request: client hints (DPR, Width and their
// Sec-CH- forms), Accept, the conditional headers and Authorization, one `Name: value` a line.
import Foundation
import FuzzRequestSupport
import FuzzSupport
@_spi(Fuzzing) import OspreyServer

@_cdecl("FuzzClientHeaders_main")
public func fuzzerMain(_ argc: CInt, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> CInt {
    runFuzzer(argc, argv) { bytes, count in
        guard let bytes else { return 0 }
        let text = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
        var headers: [(name: String, value: String)] = []
        for line in text.split(whereSeparator: \.isNewline) {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers.append((String(line[..<colon]), String(line[line.index(after: colon)...]).trimmingCharacters(in: .whitespaces)))
        }
        for path in ["/insecure/plain/local:///public/ok.png", "/insecure/rs:fill:300:200/dpr:2/plain/https://img.example.com/a.jpg@webp"] {
            RequestSurface.read(RequestSurface.unsigned, path, headers: headers)
            // The secret is checked before anything else is read. (Header values are made legal
            // as HTTP's are: control characters become blanks, blanks at the ends go.)
            if RequestSurface.read(RequestSurface.withSecret, path, headers: headers) == nil {
                let legal = { (value: String) in
                    String(value.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : Character($0) })
                        .trimmingCharacters(in: .whitespaces)
                }
                precondition(headers.contains { $0.name.lowercased() == "authorization" && legal($0.value) == "Bearer " + RequestSurface.secret },
                             "served without the secret")
            }
        }
        return 0
    }
}
