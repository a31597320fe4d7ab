import Foundation
import OspreyServer
import Testing

@Suite("SVG sanitizer")
struct SVGSanitizerTests {
    private func sanitized(_ text: String) -> String? {
        SVGSanitizer.sanitized(Data(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func localReferencesAndDrawingStayOutsideOnesGo() throws {
        let text = try #require(sanitized("""
            <?xml version="1.0"?>
            <!DOCTYPE svg [<!ENTITY leak SYSTEM "file:///etc/passwd">]>
            <?xml-stylesheet href="http://evil.example/x.css"?>
            <!-- a comment before the root -->
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="20">
              <defs><linearGradient id="g"><stop offset="0" stop-color="#0c0"/></linearGradient></defs>
              <style>@import url(http://evil.example/a.css); rect { fill: red }</style>
              <style>.b { fill: url(#g) }</style>
              <rect width="40" height="20" fill="url(#g)" ONCLICK="alert(1)"/>
              <use xlink:href="#g"/>
              <image href="data:image/png;base64,iVBORw0KGgo=" width="1" height="1"/>
              <image xlink:href="HTTP://evil.example/t.png"/>
              <text>&leak;</text>
              <Script>alert(2)</Script>
            </svg>
            """))
        for kept in ["<rect", "fill=\"url(#g)\"", ".b { fill: url(#g) }", "xlink:href=\"#g\"", "data:image/png"] {
            #expect(text.contains(kept), "\(kept) stays: \(text)")
        }
        for gone in ["DOCTYPE", "ENTITY", "leak", "xml-stylesheet", "comment", "@import", "ONCLICK", "evil.example", "Script"] {
            #expect(!text.contains(gone), "\(gone) goes: \(text)")
        }
    }

    @Test func anythingButWellFormedSVGIsRefused() {
        for refused in ["", "<html><body/></html>", "<svg><rect></svg>", "not xml at all", "<svg:x xmlns:svg=\"a\"/>x<"] {
            #expect(sanitized(refused) == nil, "\(refused)")
        }
    }
}
