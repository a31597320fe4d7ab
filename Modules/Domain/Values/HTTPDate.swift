import Foundation

/// HTTP's dates (IMF-fixdate, RFC 9110 5.6.7), written and read in one place: `Last-Modified`,
/// `Expires`, `Retry-After`, `If-Modified-Since`.
///
/// ```swift
/// HTTPDate.string(from: Date(timeIntervalSince1970: 784_111_777))  // "Sun, 06 Nov 1994 08:49:37 GMT"
/// HTTPDate.date(from: "Sun, 06 Nov 1994 08:49:37 GMT")
/// ```
public enum HTTPDate {
    /// `date` as an IMF-fixdate, as `Last-Modified` and `Date` carry it.
    public static func string(from date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        return String(format: "%@, %02d %@ %04d %02d:%02d:%02d GMT", days[Int(parts.tm_wday)], parts.tm_mday, months[Int(parts.tm_mon)],
                      Int(parts.tm_year) + 1900, parts.tm_hour, parts.tm_min, parts.tm_sec)
    }

    /// An IMF-fixdate such as `Sun, 06 Nov 1994 08:49:37 GMT` (RFC 9110, 5.6.7), read by hand:
    /// exactly that layout, `GMT` (or `UTC`), every field in range; anything else is `nil`.
    ///
    /// Not `DateFormatter`: one per call was slow, and Foundation's formatter leaked a
    /// character set on some inputs (a FuzzHeaders find under LeakSanitizer, kept as a
    /// regression input).
    public static func date(from text: String) -> Date? {
        let bytes = Array(text.trimmingCharacters(in: .whitespaces).utf8)
        guard bytes.count == 29, bytes[3] == UInt8(ascii: ","), bytes[4] == 0x20, bytes[7] == 0x20, bytes[11] == 0x20,
              bytes[16] == 0x20, bytes[19] == UInt8(ascii: ":"), bytes[22] == UInt8(ascii: ":"), bytes[25] == 0x20
        else { return nil }
        func number(_ range: Range<Int>) -> Int? {
            var value = 0
            for i in range {
                guard bytes[i] >= 0x30 && bytes[i] <= 0x39 else { return nil }
                value = value * 10 + Int(bytes[i] - 0x30)
            }
            return value
        }
        let days = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
        let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        let zone = String(decoding: bytes[26..<29], as: UTF8.self)
        guard days.contains(String(decoding: bytes[0..<3], as: UTF8.self)), zone == "GMT" || zone == "UTC",
              let monthIndex = months.firstIndex(of: String(decoding: bytes[8..<11], as: UTF8.self)),
              let day = number(5..<7), let year = number(12..<16), let hour = number(17..<19),
              let minute = number(20..<22), let second = number(23..<25),
              hour < 24, minute < 60, second <= 60 else { return nil }
        let month = monthIndex + 1
        let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
        let monthDays = [31, leap ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31][monthIndex]
        guard (1...monthDays).contains(day) else { return nil }
        // Days since 1970-01-01 of a proleptic Gregorian date (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let daysSinceEpoch = era * 146_097 + dayOfEra - 719_468
        return Date(timeIntervalSince1970: TimeInterval(daysSinceEpoch * 86_400 + hour * 3_600 + minute * 60 + second))
    }
}
