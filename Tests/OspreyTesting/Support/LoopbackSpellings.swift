/// Numeric spellings and IPv6 forms of 127.0.0.1, as a user would type them to reach a
/// service on this machine past a check that reads only `127.0.0.1` and `localhost`.
public enum LoopbackSpellings {
    public static let hosts = ["127.1", "0x7f000001", "2130706433", "0177.0.0.1", "[::ffff:127.0.0.1]", "[::ffff:7f00:1]"]

    /// `http://HOST:port/path` for each spelling.
    public static func urls(port: Int, path: String) -> [String] {
        hosts.map { "http://\($0):\(port)\(path)" }
    }
}
