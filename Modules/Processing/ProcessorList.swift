import Foundation
import OspreyDomain

/// Processors written as text, for the command line and the demo:
/// `blur=4,round=12,grayscale`.
///
/// | item | processor |
/// |---|---|
/// | `resize=WxH` or `resize=WxH:fill` | ``ImageProcessors/Resize`` |
/// | `crop=X:Y:W:H` | ``ImageProcessors/Crop`` |
/// | `round=R` | ``ImageProcessors/RoundedCorners`` |
/// | `circle` | ``ImageProcessors/Circle`` |
/// | `blur=R` | ``ImageProcessors/GaussianBlur`` |
/// | `tint=#rrggbb[aa]` | ``ImageProcessors/Tint`` |
/// | `overlay=#rrggbb[:F]` (F in 0…1, default 0.5) | ``ImageProcessors/ColorOverlay`` |
/// | `grayscale` | ``ImageProcessors/Grayscale`` |
public enum ProcessorList {
    /// Why a list could not be read.
    public enum ParseError: Error, Hashable, Sendable, CustomStringConvertible {
        /// No processor has this name.
        case unknownProcessor(String)
        /// The processor's value is missing or malformed.
        case badValue(processor: String, value: String, expected: String)

        public var description: String {
            switch self {
            case .unknownProcessor(let name):
                "unknown processor '\(name)' (known: resize, crop, round, circle, blur, tint, overlay, grayscale)"
            case let .badValue(processor, value, expected): "\(processor)=\(value): expected \(expected)"
            }
        }
    }

    /// The processors `text` names, in order; an empty text names none.
    public static func parse(_ text: String) throws(ParseError) -> [any ImageProcessing] {
        var processors: [any ImageProcessing] = []
        for item in text.split(separator: ",").map({ $0.trimmingCharacters(in: .whitespaces) }) where !item.isEmpty {
            let parts = item.split(separator: "=", maxSplits: 1).map(String.init)
            processors.append(try processor(parts[0].lowercased(), value: parts.count > 1 ? parts[1] : ""))
        }
        return processors
    }

    private static func processor(_ name: String, value: String) throws(ParseError) -> any ImageProcessing {
        func integers(_ count: Int, separator: Character, expected: String) throws(ParseError) -> [Int] {
            let numbers = value.split(separator: separator).compactMap { Int($0) }
            guard numbers.count == count, value.split(separator: separator).count == count else {
                throw .badValue(processor: name, value: value, expected: expected)
            }
            return numbers
        }
        switch name {
        case "resize":
            let parts = value.split(separator: ":").map(String.init)
            let size = parts.first?.lowercased().split(separator: "x").compactMap { Int($0) } ?? []
            let mode = parts.count > 1 ? ContentMode(rawValue: parts[1]) : .fit
            guard size.count == 2, size.allSatisfy({ $0 > 0 }), let mode, parts.count <= 2 else {
                throw .badValue(processor: name, value: value, expected: "WxH or WxH:fill")
            }
            return ImageProcessors.Resize(size: PixelSize(width: size[0], height: size[1]), contentMode: mode)
        case "crop":
            let n = try integers(4, separator: ":", expected: "X:Y:W:H")
            return ImageProcessors.Crop(x: n[0], y: n[1], width: n[2], height: n[3])
        case "round":
            return ImageProcessors.RoundedCorners(radius: try integers(1, separator: ":", expected: "a radius in pixels")[0])
        case "blur":
            return ImageProcessors.GaussianBlur(radius: try integers(1, separator: ":", expected: "a radius in pixels")[0])
        case "circle": return ImageProcessors.Circle()
        case "grayscale", "greyscale": return ImageProcessors.Grayscale()
        case "tint":
            guard let color = RGBAColor(hex: value) else { throw .badValue(processor: name, value: value, expected: "#rrggbb or #rrggbbaa") }
            return ImageProcessors.Tint(color: color)
        case "overlay":
            let parts = value.split(separator: ":").map(String.init)
            guard let first = parts.first, let color = RGBAColor(hex: first), parts.count <= 2 else {
                throw .badValue(processor: name, value: value, expected: "#rrggbb or #rrggbb:FRACTION")
            }
            let fraction = parts.count == 2 ? Double(parts[1]) : 0.5
            guard let fraction, (0...1).contains(fraction) else {
                throw .badValue(processor: name, value: value, expected: "a fraction between 0 and 1")
            }
            return ImageProcessors.ColorOverlay(color: color, fraction: fraction)
        default:
            throw .unknownProcessor(name)
        }
    }
}
