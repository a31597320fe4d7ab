import Foundation

/// A source as a command line gives it: a URL with a scheme (`https:`, `file:`, `data:` …),
/// or a path, read as a `file:` URL from the working folder.
public enum SourceArgument {
    /// `text` as a URL; `nil` for an empty argument.
    public static func url(_ text: String) -> URL? {
        guard !text.isEmpty else { return nil }
        if let url = URL(string: text), let scheme = url.scheme, scheme.count > 1 { return url }
        return URL(fileURLWithPath: text)
    }
}
