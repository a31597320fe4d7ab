import Foundation
import FoundationXML

/// An SVG source made safe to answer as SVG, as imgproxy's `SANITIZE_SVG` does and more: no
/// scripts, event handlers, `foreignObject`, processing instructions or doctype, and no
/// reference outside the document (an `href` other than `#…` or an embedded raster image, a
/// CSS `url()` other than `url(#…)`). External entities are never loaded. Answers also carry
/// `Content-Security-Policy: script-src 'none'`, so a browser runs nothing that slips through.
enum SVGSanitizer {
    /// The sanitised document, or `nil` when it is not well-formed XML with an `svg` root.
    static func sanitized(_ data: Data) -> Data? {
        guard let document = try? XMLDocument(data: data, options: [.nodeLoadExternalEntitiesNever]),
              let root = document.rootElement(), root.localName == "svg" else { return nil }
        document.dtd = nil
        clean(root)
        for child in document.children ?? [] where child.kind == .processingInstruction || child.kind == .comment {
            child.detach()
        }
        return document.xmlData(options: [.nodeCompactEmptyElement])
    }

    private static let removedElements: Set<String> = ["script", "foreignobject", "iframe", "embed", "object"]

    private static func clean(_ element: XMLElement) {
        // Set whole: swift-corelibs-foundation's removeAttribute(forName:) leaves an attribute
        // of an element in a default namespace where it is.
        let attributes = element.attributes ?? []
        let kept = attributes.filter { attribute in
            guard let fullName = attribute.name, let value = attribute.stringValue else { return true }
            let name = (fullName.split(separator: ":").last.map(String.init) ?? fullName).lowercased()
            return !name.hasPrefix("on") && !(name == "href" && !isLocal(value)) && !containsExternalURL(value)
        }
        if kept.count < attributes.count { element.attributes = kept }
        for child in element.children ?? [] {
            switch child.kind {
            case .processingInstruction:
                child.detach()
            case .element:
                guard let child = child as? XMLElement else { continue }
                let name = child.localName?.lowercased() ?? ""
                if removedElements.contains(name) || (name == "style" && containsExternalURL(child.stringValue ?? "")) {
                    child.detach()
                } else {
                    clean(child)
                }
            default:
                continue
            }
        }
    }

    /// A reference inside the document, or a raster image embedded in it.
    private static func isLocal(_ reference: String) -> Bool {
        let trimmed = reference.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()
        return trimmed.hasPrefix("#") || ["png", "jpeg", "jpg", "gif", "webp"].contains { trimmed.hasPrefix("data:image/\($0)") }
    }

    /// Whether CSS text refers outside the document (`url(` not followed by `#`, or `@import`).
    private static func containsExternalURL(_ css: String) -> Bool {
        let lowered = css.lowercased().replacingOccurrences(of: " ", with: "")
        if lowered.contains("@import") { return true }
        return lowered.components(separatedBy: "url(").dropFirst().contains { part in
            !isLocal(part.trimmingCharacters(in: CharacterSet(charactersIn: "'\"")))
        }
    }
}
