import CLCMS
import Foundation
import Logging
import OspreyDomain

/// Converts decoded pixels from an embedded ICC profile to sRGB with Little CMS.
///
/// The intent is relative colorimetric without black-point compensation, as
/// `vipsthumbnail --export-profile srgb` uses, so the two agree. A profile Little CMS
/// cannot open, or one whose colour space does not fit the pixels, is ignored with a
/// warning: the image decodes as if untagged.
enum ColorManagement {
    static let logger = Logger(label: "osprey.codec.color")

    /// The profile's description, such as `Display P3`, or `nil` when it has none or is unreadable.
    static func describe(_ data: Data) -> String? {
        guard let profile = open(data) else { return nil }
        defer { cmsCloseProfile(profile) }
        var buffer = [CChar](repeating: 0, count: 256)
        let length = cmsGetProfileInfoASCII(profile, cmsInfoDescription, "en", "US", &buffer, UInt32(buffer.count))
        guard length > 1 else { return nil }
        let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return name.isEmpty ? nil : name
    }

    /// `profile` with its description filled in.
    static func named(_ profile: ColorProfile) -> ColorProfile {
        profile.name != nil ? profile : ColorProfile(data: profile.data, name: describe(profile.data))
    }

    /// Whether Little CMS can build a transform from the profile to sRGB for pixels of `format`.
    static func isUsable(_ data: Data, for format: PixelFormat) -> Bool {
        Transform(profile: data, pixelFormat: format) != nil
    }

    /// What a decoder does with `image` (every frame of it) and the profile it found, as
    /// `handling` asks. One transform serves every frame: building one costs far more than a frame.
    static func apply(_ profile: ColorProfile?, to image: Image, handling: ColorHandling) -> Image {
        guard let profile else { return image }
        switch handling {
        case .preserve:
            let named = named(profile)
            return image.mappingFrames { frame in
                var kept = frame
                kept.colorProfile = named
                return kept
            }
        case .convertToSRGB:
            return convertedToSRGB(image, profile: profile.data)
        }
    }

    /// `image` (every frame of it) converted from `profile` to sRGB, untagged; unchanged (with
    /// a warning) when the profile is unusable.
    static func convertedToSRGB(_ image: Image, profile: Data) -> Image {
        guard let transform = Transform(profile: profile, pixelFormat: image.pixelFormat) else { return image }
        return image.mappingFrames { transform.converted($0) }
    }

    static func open(_ data: Data) -> cmsHPROFILE? {
        data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count >= 128 else { return nil }
            return cmsOpenProfileFromMem(base, UInt32(raw.count))
        }
    }

    /// A Little CMS transform from an embedded profile to sRGB, for rows of one pixel layout.
    final class Transform {
        private let handle: cmsHTRANSFORM

        /// A transform for `pixelFormat` rows (gray stays gray, on sRGB's curve), or `nil`
        /// with a warning when the profile is unusable for them.
        convenience init?(profile data: Data, pixelFormat: PixelFormat) {
            let (space, type): (cmsColorSpaceSignature, UInt32) = switch pixelFormat {
            case .gray8: (cmsSigGrayData, Formats.gray8)
            case .rgb8: (cmsSigRgbData, Formats.rgb8)
            case .rgba8, .rgba8Premultiplied: (cmsSigRgbData, Formats.rgba8)
            case .gray16: (cmsSigGrayData, Formats.gray16)
            case .rgb16: (cmsSigRgbData, Formats.rgb16)
            case .rgba16: (cmsSigRgbData, Formats.rgba16)
            }
            self.init(profile: data, space: space, input: type, output: type)
        }

        /// A transform from CMYK samples (stored inverted, as Adobe writes them, when
        /// `inverted`) to sRGB, or `nil` with a warning.
        convenience init?(cmykProfile data: Data, inverted: Bool) {
            self.init(profile: data, space: cmsSigCmykData, input: inverted ? Formats.cmyk8Inverted : Formats.cmyk8, output: Formats.rgb8)
        }

        private init?(profile data: Data, space: cmsColorSpaceSignature, input: UInt32, output: UInt32) {
            guard let source = ColorManagement.open(data) else {
                ColorManagement.logger.warning("ignoring an embedded colour profile Little CMS cannot read (\(data.count) bytes)")
                return nil
            }
            defer { cmsCloseProfile(source) }
            guard cmsGetColorSpace(source) == space else {
                ColorManagement.logger.warning("ignoring an embedded colour profile whose colour space does not match the pixels")
                return nil
            }
            let target = space == cmsSigGrayData ? Self.sRGBGray() : cmsCreate_sRGBProfile()
            defer { if let target { cmsCloseProfile(target) } }
            let flags = input == Formats.rgba8 || input == Formats.rgba16 ? UInt32(cmsFLAGS_COPY_ALPHA) : 0
            guard let target, let handle = cmsCreateTransform(source, input, target, output, UInt32(INTENT_RELATIVE_COLORIMETRIC), flags) else {
                ColorManagement.logger.warning("ignoring an embedded colour profile Little CMS cannot convert to sRGB")
                return nil
            }
            self.handle = handle
        }

        deinit { cmsDeleteTransform(handle) }

        /// `image` converted row by row, untagged.
        func converted(_ image: Image) -> Image {
            var pixels = image.pixels
            image.pixels.withUnsafeBufferPointer { src in
                pixels.withUnsafeMutableBufferPointer { dst in
                    for y in 0..<image.height {
                        let offset = y * image.bytesPerRow
                        run(src.baseAddress! + offset, dst.baseAddress! + offset, pixels: image.width)
                    }
                }
            }
            return (try? Image(width: image.width, height: image.height, pixelFormat: image.pixelFormat,
                               bytesPerRow: image.bytesPerRow, pixels: pixels)) ?? image
        }

        /// Converts `pixels` pixels from `source` into `target` (which may be the same buffer).
        func run(_ source: UnsafePointer<UInt8>, _ target: UnsafeMutablePointer<UInt8>, pixels: Int) {
            cmsDoTransform(handle, source, target, UInt32(pixels))
        }

        /// A gray profile on sRGB's tone curve: gray images stay one channel.
        private static func sRGBGray() -> cmsHPROFILE? {
            var parameters: [Double] = [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045]
            guard let curve = cmsBuildParametricToneCurve(nil, 4, &parameters) else { return nil }
            defer { cmsFreeToneCurve(curve) }
            return cmsCreateGrayProfile(cmsD50_xyY(), curve)
        }
    }

    /// Little CMS pixel types (its TYPE_* macros, which Swift does not import).
    enum Formats {
        static func type(space: UInt32, channels: UInt32, extra: UInt32 = 0, flavor: UInt32 = 0, bytes: UInt32 = 1) -> UInt32 {
            space << 16 | flavor << 13 | extra << 7 | channels << 3 | bytes
        }
        static let gray8 = type(space: UInt32(PT_GRAY), channels: 1)
        static let rgb8 = type(space: UInt32(PT_RGB), channels: 3)
        static let rgba8 = type(space: UInt32(PT_RGB), channels: 3, extra: 1)
        static let gray16 = type(space: UInt32(PT_GRAY), channels: 1, bytes: 2)
        static let rgb16 = type(space: UInt32(PT_RGB), channels: 3, bytes: 2)
        static let rgba16 = type(space: UInt32(PT_RGB), channels: 3, extra: 1, bytes: 2)
        static let cmyk8 = type(space: UInt32(PT_CMYK), channels: 4)
        static let cmyk8Inverted = type(space: UInt32(PT_CMYK), channels: 4, flavor: 1)
    }
}
