import Foundation
import OspreyCodec
import OspreyDomain

/// The `Content-Disposition` of an answer, as imgproxy sends it: `inline` (or `attachment`
/// with `attachment`) and a file name, from `fn:` or the source's, with the answer's extension.
enum ContentDisposition {
    static func header(for request: ImgproxyPath, format: ImageFormat, attachment: Bool) -> String {
        let stem = request.options.filename ?? request.source.deletingPathExtension().lastPathComponent
        let name = (stem.isEmpty || stem == "/" ? "image" : stem) + "." + format.fileExtension
        let type = attachment ? "attachment" : "inline"
        // The quoted name is printable ASCII without quote, backslash or slash; a name that
        // needed changing is given whole in RFC 8187's form beside it.
        let quoted = String(name.unicodeScalars.map { scalar -> Character in
            (0x20..<0x7F).contains(scalar.value) && !"\"\\/".unicodeScalars.contains(scalar) ? Character(scalar) : "_"
        })
        guard quoted != name else { return "\(type); filename=\"\(quoted)\"" }
        let safe = CharacterSet.alphanumerics.subtracting(.nonBaseCharacters).union(CharacterSet(charactersIn: "-._~"))
        let encoded = name.replacingOccurrences(of: "/", with: "_").addingPercentEncoding(withAllowedCharacters: safe) ?? quoted
        return "\(type); filename=\"\(quoted)\"; filename*=UTF-8''\(encoded)"
    }
}
