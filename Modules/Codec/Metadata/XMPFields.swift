import CXMLShims
import Foundation

/// An XMP packet's properties for imgproxy's `/info` `xmp` option, by namespace prefix then
/// property name (`{"dc": {"creator": ["…"]}, "aux": {"Lens": "…"}}`): text as written, lists
/// for `rdf:Seq` and `rdf:Bag`, the `x-default` item of an `rdf:Alt`, objects for structures
/// (libxml2, CXMLShims/xmp_json.c: no network, no external entities).
public enum XMPFields {
    /// The properties of `xmp`, JSON-ready; empty when it has none or is not well-formed.
    public static func fields(of xmp: Data) -> [String: [String: Any]] {
        let json = xmp.withUnsafeBytes { raw -> Data? in
            var out: UnsafeMutablePointer<UInt8>?
            var size = 0
            guard osp_xmp_to_json(raw.bindMemory(to: UInt8.self).baseAddress, raw.count, &out, &size) == 0, let out else { return nil }
            defer { osp_xmp_free(out) }
            return Data(bytes: out, count: size)
        }
        guard let json, let triples = try? JSONSerialization.jsonObject(with: json) as? [[Any]] else { return [:] }
        var fields: [String: [String: Any]] = [:]
        for triple in triples {
            guard triple.count == 3, let prefix = triple[0] as? String, let name = triple[1] as? String, !prefix.isEmpty else { continue }
            fields[prefix, default: [:]][name] = triple[2]
        }
        return fields
    }
}
