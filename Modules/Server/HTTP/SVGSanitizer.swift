import CXMLShims
import Foundation

/// An SVG source made safe to answer as SVG, as imgproxy's `SANITIZE_SVG` does and more: no
/// scripts, event handlers, `foreignObject`, processing instructions or doctype, and no
/// reference outside the document (an `href` other than `#…` or an embedded raster image, a
/// CSS `url()` other than `url(#…)`). External entities are never loaded. Answers also carry
/// `Content-Security-Policy: script-src 'none'`, so a browser runs nothing that slips through.
package enum SVGSanitizer {
    /// The sanitised document, or `nil` when it is not well-formed XML with an `svg` root.
    package static func sanitized(_ data: Data) -> Data? {
        guard !data.isEmpty else { return nil }
        var written: UnsafeMutablePointer<UInt8>?
        var count = 0
        let status = data.withUnsafeBytes { bytes in
            osp_svg_sanitize(bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count, &written, &count)
        }
        guard status == 0, let written else { return nil }
        defer { osp_svg_free(written) }
        return Data(bytes: written, count: count)
    }
}
