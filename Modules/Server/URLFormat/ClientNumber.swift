import Foundation
import OspreyDomain

/// The one way the server reads a number a client wrote, in a URL's option or a header: each
/// kind has its range, and text that is not a finite number in it is the option's typed error
/// (``ImgproxyError/malformed(_:)``, `404 Invalid URL` as imgproxy answers), never a value
/// that a later conversion to `Int` could trap on.
package enum ClientNumber {
    /// The longest side a URL may ask for, imgproxy's.
    package static let maxSide = 16_384

    /// A whole number in `range`; `reason` says what the option takes when it is not.
    package static func integer(_ text: String, in range: ClosedRange<Int>, _ option: String, reason: String? = nil) throws(ImgproxyError) -> Int {
        guard let value = Int(text), range.contains(value) else {
            throw .malformed(reason ?? "\(option) takes a whole number \(range.lowerBound)…\(range.upperBound)")
        }
        return value
    }

    /// A finite number in `range` (`nan`, `inf` and numbers past `Double` are refused);
    /// `reason` says what the option takes when it is not.
    package static func decimal(_ text: String, in range: ClosedRange<Double>, _ option: String, reason: String? = nil) throws(ImgproxyError) -> Double {
        guard let value = Double(text), value.isFinite, range.contains(value) else {
            throw .malformed(reason ?? "\(option) takes a number \(range.lowerBound.formatted)…\(range.upperBound.formatted)")
        }
        return value
    }

    /// A side in pixels, `0…16384` (0: follows from the other side).
    package static func size(_ text: String, _ option: String) throws(ImgproxyError) -> Int {
        try integer(text, in: 0...maxSide, option)
    }

    /// An offset, in pixels when 1 or more in magnitude and a fraction of the side below:
    /// imgproxy takes any number, but one past the longest side lands at the edge anyway.
    package static func offset(_ text: String, _ option: String) throws(ImgproxyError) -> Double {
        text.isEmpty ? 0 : try decimal(text, in: -Double(maxSide)...Double(maxSide), option)
    }

    /// A factor above 0 and at most `most` (`dpr`, `zoom`): below a millionth every side is
    /// a pixel already.
    package static func scale(_ text: String, most: Double, _ option: String) throws(ImgproxyError) -> Double {
        try decimal(text, in: 1e-6...most, option, reason: "\(option) must be above 0, at most \(most.formatted)")
    }

    /// Megapixels above 0, as pixels: at most a million megapixels, past any image.
    package static func megapixels(_ text: String, _ option: String) throws(ImgproxyError) -> Int {
        let value = try decimal(text, in: 1e-6...1e6, option, reason: "\(option) takes megapixels above 0")
        return max(1, Int((value * 1_000_000).rounded()))
    }

    /// A count of bytes, `least` or more, at most 2⁵⁰ (a petabyte).
    package static func bytes(_ text: String, least: Int = 0, _ option: String) throws(ImgproxyError) -> Int {
        try integer(text, in: least...(1 << 50), option)
    }

    /// A Unix time in seconds, within ±2⁴⁰ (some 35,000 years either way of 1970).
    package static func unixTime(_ text: String, _ option: String) throws(ImgproxyError) -> Date {
        Date(timeIntervalSince1970: TimeInterval(try integer(text, in: -(1 << 40)...(1 << 40), option)))
    }

    /// A quality, `0…100` (0: the server's).
    package static func quality(_ text: String, _ option: String) throws(ImgproxyError) -> Int {
        try integer(text, in: 0...100, option)
    }

    /// A count of things, `least…Int32.max` (frames, say).
    package static func count(_ text: String, least: Int, _ option: String) throws(ImgproxyError) -> Int {
        try integer(text, in: least...Int(Int32.max), option)
    }

    /// A sigma or a threshold, `0…most`.
    package static func amount(_ text: String, most: Double, _ option: String) throws(ImgproxyError) -> Double {
        try decimal(text, in: 0...most, option)
    }

    /// A client hint's value (`DPR`, `Width`): the number in `range`, or `nil` for a hint that
    /// is absent or out of range, which imgproxy passes over rather than refusing the request.
    package static func hint<Value: Comparable & LosslessStringConvertible>(_ text: String?, in range: ClosedRange<Value>) -> Value? {
        guard let text, let value = Value(text.trimmingCharacters(in: .whitespaces)), range.contains(value) else { return nil }
        if let double = value as? Double, !double.isFinite { return nil }
        return value
    }
}

private extension Double {
    /// `16384`, `0.000001`: a bound as a message gives it.
    var formatted: String { self == rounded() && abs(self) < 1e15 ? String(Int(self)) : String(self) }
}
