import Foundation
import OspreyCodec
import OspreyDomain
import OspreyTesting
import Testing

/// The SVG sanitiser's allow-list: what draws stays; active content, references outside the
/// document and embedded images past the limits do not, in any spelling.
@Suite("SVG sanitizer")
struct SVGSanitizerTests {
    private func sanitized(_ text: String, limits: DecodingLimits = .default) throws -> String {
        String(decoding: try SVGSanitizer.sanitized(Data(text.utf8), limits: limits).data, as: UTF8.self)
    }

    private static func svg(_ body: String) -> String {
        "<svg xmlns=\"http://www.w3.org/2000/svg\" xmlns:xlink=\"http://www.w3.org/1999/xlink\" width=\"40\" height=\"20\">\(body)</svg>"
    }

    private static func png(_ data: Data) -> String { "data:image/png;base64," + data.base64EncodedString() }

    @Test func localReferencesAndDrawingStayOutsideOnesGo() throws {
        let text = try sanitized("""
            <?xml version="1.0"?>
            <!DOCTYPE svg [<!ENTITY leak SYSTEM "file:///etc/passwd">]>
            <?xml-stylesheet href="http://evil.example/x.css"?>
            <!-- a comment before the root -->
            <svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" width="40" height="20">
              <defs><linearGradient id="g"><stop offset="0" stop-color="#0c0"/></linearGradient></defs>
              <style>@import url(http://evil.example/a.css); rect { fill: red }</style>
              <style>.b { fill: url(#g) }</style>
              <rect width="40" height="20" fill="url(#g)" ONCLICK="alert(1)" transform="rotate(5) translate(1 2)"/>
              <use xlink:href="#g"/>
              <image href="\(Self.png(try Data(contentsOf: Corpus.file("pngsuite/basn6a08.png"))))" width="1" height="1"/>
              <image xlink:href="HTTP://evil.example/t.png"/>
              <text>&leak;</text>
              <Script>alert(2)</Script>
            </svg>
            """)
        for kept in ["<rect", "fill=\"url(#g)\"", ".b { fill: url(#g) }", "xlink:href=\"#g\"", "data:image/png", "rotate(5)"] {
            #expect(text.contains(kept), "\(kept) stays: \(text)")
        }
        for gone in ["DOCTYPE", "ENTITY", "leak", "xml-stylesheet", "comment", "@import", "ONCLICK", "evil.example", "Script"] {
            #expect(!text.contains(gone), "\(gone) goes: \(text)")
        }
    }

    @Test func anythingButWellFormedSVGIsRefused() {
        for refused in ["", "<html><body/></html>", "<svg><rect></svg>", "not xml at all", "<svg:x xmlns:svg=\"a\"/>x<",
                        "<svg xmlns=\"http://www.w3.org/1999/xhtml\"><form/></svg>",
                        "<html xmlns=\"http://www.w3.org/1999/xhtml\"><svg xmlns=\"http://www.w3.org/2000/svg\"/></html>"] {
            #expect(throws: ImageDecodingError.corrupt(.svg, detail: "not well-formed XML with an svg root"), "\(refused)") {
                try SVGSanitizer.sanitized(Data(refused.utf8))
            }
        }
    }

    /// What survived the block-list it replaces: other namespaces' elements, SMIL, links out,
    /// CSS that says `url`, `@import` or `image-set` through escapes.
    @Test func activeContentGoesInEverySpelling() throws {
        let attacks = [
            "<html:form xmlns:html=\"http://www.w3.org/1999/xhtml\" action=\"https://evil.example/\"><html:input name=\"p\"/></html:form>",
            "<meta xmlns=\"http://www.w3.org/1999/xhtml\" http-equiv=\"refresh\" content=\"0;url=https://evil.example/\"/>",
            "<a href=\"#x\"><set attributeName=\"href\" to=\"https://evil.example/\"/></a>",
            "<a xlink:href=\"#x\"><animate attributeName=\"xlink:href\" values=\"https://evil.example/\"/></a>",
            "<a href=\"java&#9;script:alert(1)\">x</a>", "<a xlink:href=\" javascript:alert(1)\">x</a>",
            "<rect style=\"fill: u\\72l(https://evil.example/a)\"/>", "<style>@\\69mport 'https://evil.example/a.css';</style>",
            "<style>rect { fill: image-set(\"https://evil.example/a.png\" 1x) }</style>",
            "<style>rect { background: -webkit-image-set(url(https://evil.example/a.png) 1x) }</style>",
            "<rect fill=\"url(&quot;https://evil.example/a&quot;)\"/>", "<rect style=\"behavior: u\\rl(https://evil.example/x.htc)\"/>",
            "<rect style=\"fill:url( 'https://evil.example/a' )\"/>", "<style>@font-face { src: url(https://evil.example/f.woff) }</style>",
            "<use href=\"https://evil.example/s.svg#a\"/>", "<image href=\"data:image/svg+xml;base64,PHN2Zy8+\"/>",
            "<xi:include xmlns:xi=\"http://www.w3.org/2001/XInclude\" href=\"data:text/plain,https://evil.example/\"/>",
            "<foreignObject><div xmlns=\"http://www.w3.org/1999/xhtml\">https://evil.example/</div></foreignObject>",
            "<animateMotion dur=\"1s\"><mpath href=\"#p\"/></animateMotion><feImage href=\"https://evil.example/a.png\"/>",
        ]
        for attack in attacks {
            let text = try sanitized(Self.svg("<g id=\"x\"/>" + attack))
            for gone in ["evil.example", "javascript", "set ", "animate", "form", "meta", "script"] {
                #expect(!text.lowercased().contains(gone), "\(attack) → \(text)")
            }
            #expect(text.contains("<g id=\"x\"/>"), "the drawing stays: \(text)")
        }
        // What draws, in its usual spellings, stays.
        let drawing = try sanitized(Self.svg("""
            <style>@media (prefers-color-scheme: dark) { .a { fill: rgb(255 255 255) } }</style>
            <rect class="a" style="fill: hsl(120 50% 50%); stroke: var(--s); transform: scale(2)" clip-path="url(#c)"/>
            """))
        for kept in ["@media", "hsl(120", "clip-path=\"url(#c)\"", "var(--s)"] { #expect(drawing.contains(kept), "\(kept): \(drawing)") }
    }

    /// Embedded rasters are read from their headers and bounded as sources are: alone, and all
    /// together; anything but PNG, JPEG, GIF or WebP loses its reference.
    @Test func embeddedImagesAreBoundedByTheLimits() throws {
        let small = try Data(contentsOf: Corpus.file("pngsuite/basn6a08.png"))  // 32×32
        let twice = Self.svg("<image href=\"\(Self.png(small))\"/><image xlink:href=\"\(Self.png(small))\"/>")
        let both = try SVGSanitizer.sanitized(Data(twice.utf8), limits: DecodingLimits(maxPixels: 2_048))
        #expect(both.embeddedPixels == 2_048)
        #expect(throws: ImageDecodingError.tooManyPixels(width: 32, height: 32, limit: 2_047)) {
            try SVGSanitizer.sanitized(Data(twice.utf8), limits: DecodingLimits(maxPixels: 2_047))
        }
        let bomb = Self.svg("<image href=\"\(Self.png(CraftedImages.png(width: 65_000, height: 65_000)))\"/>")
        #expect(throws: ImageDecodingError.tooManyPixels(width: 65_000, height: 65_000, limit: DecodingLimits.default.maxPixels)) {
            try SVGSanitizer.sanitized(Data(bomb.utf8))
        }
        #expect(throws: ImageDecodingError.self, "the decoder refuses it too, before librsvg sees it") {
            try ImageCodec().decode(.data(Data(bomb.utf8)), options: DecodingOptions())
        }
        let notImage = try sanitized(Self.svg("<image href=\"data:image/png;base64,\(Data("<svg/>".utf8).base64EncodedString())\"/>"))
        #expect(!notImage.contains("data:"), "\(notImage)")
    }

    @Test func aCancelledTaskStopsTheParse() async throws {
        let big = Data(Self.svg(String(repeating: "<rect width=\"1\" height=\"1\"/>", count: 50_000)).utf8)
        let outcome = await Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return Result { () throws(ImageDecodingError) in try SVGSanitizer.sanitized(big) }
        }.value
        #expect(throws: ImageDecodingError.cancelled) { try outcome.get() }
    }
}

extension SVGSanitizerTests {
    /// The root's size for the decode's estimate, read as librsvg reads it, without its tree.
    @Test func theDeclaredSizeIsLibrsvgs() throws {
        let cases: [(String, PixelSize?)] = [
            ("width=\"40\" height=\"20\"", PixelSize(width: 40, height: 20)), ("width=\"1in\" height=\"2.54cm\"", PixelSize(width: 72, height: 72)),
            ("width=\"100%\" viewBox=\"0 0 30,15\"", PixelSize(width: 30, height: 15)), ("width=\"100%\" height=\"50%\"", nil),
            ("viewBox=\"0 0 1e300 1\"", nil), ("width=\"0.2\" height=\"1\"", nil),
        ]
        for (attributes, expected) in cases {
            let svg = Data("<svg xmlns=\"http://www.w3.org/2000/svg\" \(attributes)/>".utf8)
            let declared = try SVGSanitizer.sanitized(svg).declaredSize
            #expect(declared == expected, "\(attributes)")
            if let declared { #expect(try ImageCodec().info(.data(svg)).width == declared.width, "librsvg agrees: \(attributes)") }
        }
        // Drawn at 7000×7000, a one-pixel document's estimate is the surface drawn, not its own size.
        let dot = Data("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"1\" height=\"1\"/>".utf8)
        let estimate = try #require(try ImageCodec().decodeEstimate(of: .data(dot), options: DecodingOptions(targetSize: PixelSize(width: 7000, height: 7000))))
        #expect(estimate.bytes == 7000 * 7000 * 4)
    }
}
