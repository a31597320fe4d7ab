import Foundation
import OspreyDomain

/// An EXIF block's fields as text, for imgproxy's `/info` `exif` option: IFD0's and the EXIF
/// directory's, by canonical name (`DateTimeOriginal`) or by the human-readable name libexif
/// gives (`Date and Time (Original)`), which imgproxy answers by default. Text as written,
/// numbers as numbers, fractions as `n/d`; undefined and binary values are left out.
public enum ExifFields {
    /// Each known field's name and value.
    public static func fields(of exif: Data, canonicalNames: Bool) -> [String: String] {
        guard let root = TIFFDirectory(exif) else { return [:] }
        var directories = [root]
        if let pointer = root.entries.first(where: { $0.tag == 0x8769 }), let offset = root.u32(pointer.field),
           let sub = TIFFDirectory(exif, directory: offset) {
            directories.append(sub)
        }
        var fields: [String: String] = [:]
        for directory in directories {
            for entry in directory.entries {
                guard let names = names[entry.tag], let value = text(of: entry, in: directory) else { continue }
                fields[canonicalNames ? names.canonical : names.readable] = value
            }
        }
        return fields
    }

    /// ASCII as written, SHORT and LONG as numbers, RATIONAL as `n/d`; only single values
    /// and text, 1 KB at most.
    private static func text(of entry: TIFFDirectory.Entry, in directory: TIFFDirectory) -> String? {
        let size = [1: 1, 2: 1, 3: 2, 4: 4, 5: 8, 9: 4, 10: 8][Int(entry.type)] ?? 0
        guard size > 0, entry.count > 0, entry.count <= 1024 else { return nil }
        let start = entry.count * size <= 4 ? entry.field : directory.u32(entry.field) ?? -1
        guard start >= 0, start + entry.count * size <= directory.bytes.count else { return nil }
        switch entry.type {
        case 2:
            let raw = directory.bytes[start..<start + entry.count].prefix { $0 != 0 }
            let text = String(decoding: raw, as: UTF8.self).trimmingCharacters(in: .whitespaces)
            return text.isEmpty ? nil : text
        case 3 where entry.count == 1: return directory.u16(start).map(String.init)
        case 4 where entry.count == 1: return directory.u32(start).map(String.init)
        case 5 where entry.count == 1, 10 where entry.count == 1:
            guard var numerator = directory.u32(start), var denominator = directory.u32(start + 4) else { return nil }
            if entry.type == 10 {  // signed
                numerator = Int(Int32(truncatingIfNeeded: numerator))
                denominator = Int(Int32(truncatingIfNeeded: denominator))
            }
            return "\(numerator)/\(denominator)"
        default: return nil
        }
    }

    /// Tags by number: the canonical name, and libexif's title.
    static let names: [UInt16: (canonical: String, readable: String)] = [
        0x010E: ("ImageDescription", "Image Description"), 0x010F: ("Make", "Manufacturer"), 0x0110: ("Model", "Model"),
        0x0112: ("Orientation", "Orientation"), 0x011A: ("XResolution", "X-Resolution"), 0x011B: ("YResolution", "Y-Resolution"),
        0x0128: ("ResolutionUnit", "Resolution Unit"), 0x0131: ("Software", "Software"), 0x0132: ("DateTime", "Date and Time"),
        0x013B: ("Artist", "Artist"), 0x8298: ("Copyright", "Copyright"), 0x829A: ("ExposureTime", "Exposure Time"),
        0x829D: ("FNumber", "F-Number"), 0x8822: ("ExposureProgram", "Exposure Program"),
        0x8827: ("ISOSpeedRatings", "ISO Speed Ratings"), 0x9003: ("DateTimeOriginal", "Date and Time (Original)"),
        0x9004: ("DateTimeDigitized", "Date and Time (Digitized)"), 0x9201: ("ShutterSpeedValue", "Shutter Speed"),
        0x9202: ("ApertureValue", "Aperture"), 0x9204: ("ExposureBiasValue", "Exposure Bias"),
        0x9205: ("MaxApertureValue", "Maximum Aperture Value"), 0x9207: ("MeteringMode", "Metering Mode"),
        0x9209: ("Flash", "Flash"), 0x920A: ("FocalLength", "Focal Length"), 0xA002: ("PixelXDimension", "Pixel X Dimension"),
        0xA003: ("PixelYDimension", "Pixel Y Dimension"), 0xA402: ("ExposureMode", "Exposure Mode"),
        0xA403: ("WhiteBalance", "White Balance"), 0xA405: ("FocalLengthIn35mmFilm", "Focal Length in 35mm Film"),
        0xA406: ("SceneCaptureType", "Scene Capture Type"), 0xA408: ("Contrast", "Contrast"), 0xA409: ("Saturation", "Saturation"),
        0xA40A: ("Sharpness", "Sharpness"), 0xA433: ("LensMake", "Lens Make"), 0xA434: ("LensModel", "Lens Model"),
        0xA431: ("BodySerialNumber", "Serial Number"),
    ]
}
