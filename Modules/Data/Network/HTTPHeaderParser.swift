import Foundation
import OspreyDomain

/// Parses the response headers Osprey acts on: `Cache-Control`, `Expires`, `Retry-After`.
/// Lenient by design: anything malformed is ignored rather than trusted.
public enum HTTPHeaderParser {
    /// Freshness from `Cache-Control` (`no-store`, `no-cache`, `max-age`) and `Expires`.
    public static func freshness(cacheControl: String?, expires: String?) -> HTTPFreshness {
        var freshness = HTTPFreshness()
        for directive in (cacheControl ?? "").split(separator: ",") {
            let parts = directive.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let name = parts.first else { continue }
            switch name {
            case "no-store": freshness.noStore = true
            case "no-cache": freshness.noCache = true
            case "max-age":
                if parts.count == 2, let seconds = Int(parts[1].trimmingCharacters(in: CharacterSet(charactersIn: "\""))), seconds >= 0 {
                    freshness.maxAge = seconds
                }
            default: break
            }
        }
        freshness.expires = expires.flatMap(httpDate)
        return freshness
    }

    /// `Retry-After` as seconds: a number of seconds, or an HTTP date relative to `now`.
    public static func retryAfter(_ value: String?, now: Date = Date()) -> TimeInterval? {
        guard let value = value?.trimmingCharacters(in: .whitespaces), !value.isEmpty else { return nil }
        if let seconds = Int(value), seconds >= 0 { return TimeInterval(seconds) }
        return httpDate(value).map { max(0, $0.timeIntervalSince(now)) }
    }

    /// An IMF-fixdate such as `Sun, 06 Nov 1994 08:49:37 GMT`.
    public static func httpDate(_ text: String) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = TimeZone(identifier: "GMT")
        formatter.dateFormat = "EEE, dd MMM yyyy HH:mm:ss zzz"
        return formatter.date(from: text.trimmingCharacters(in: .whitespaces))
    }
}
