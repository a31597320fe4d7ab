import CCodecLoader
import CHEIF
import Foundation
import OspreyDomain
import OspreyPixels

/// A libheif context and its primary image handle over bytes in memory, freed when done.
struct HEIFSession: ~Copyable {
    private let context: OpaquePointer
    private let handle: OpaquePointer

    private init(context: OpaquePointer, handle: OpaquePointer) {
        self.context = context
        self.handle = handle
    }

    deinit {
        heif_image_handle_release(handle)
        heif_context_free(context)
    }

    /// Runs `body` with the primary image of `data`; the bytes stay pinned throughout.
    static func with<T>(_ data: Data, _ body: (borrowing Self) throws(ImageDecodingError) -> T) throws(ImageDecodingError) -> T {
        guard osp_heif_available() != 0 else {
            throw .unsupportedFormat(.heic, detail: "libheif cannot be loaded: \(String(cString: osp_heif_load_error()))")
        }
        let result: Result<T, ImageDecodingError> = data.withUnsafeBytes { raw in
            guard let base = raw.baseAddress, raw.count > 0 else { return .failure(.corrupt(.heic, detail: "empty input")) }
            guard let context = heif_context_alloc() else { return .failure(.corrupt(.heic, detail: "out of memory")) }
            // Sizes are Osprey's to refuse (DecodingLimits, from the handle before decoding).
            heif_context_set_maximum_image_size_limit(context, 1 << 20)
            // An error's message belongs to the context: read it before the context goes.
            var error = heif_context_read_from_memory_without_copy(context, base, raw.count, nil)
            guard error.code == heif_error_Ok else {
                defer { heif_context_free(context) }
                return .failure(failure(error))
            }
            var handle: OpaquePointer?
            error = heif_context_get_primary_image_handle(context, &handle)
            guard error.code == heif_error_Ok, let handle else {
                defer { heif_context_free(context) }
                return .failure(failure(error))
            }
            do throws(ImageDecodingError) { return .success(try body(Self(context: context, handle: handle))) } catch { return .failure(error) }
        }
        return try result.get()
    }

    /// The primary image's size as displayed (after its transforms).
    var size: PixelSize { PixelSize(width: Int(heif_image_handle_get_width(handle)), height: Int(heif_image_handle_get_height(handle))) }
    var hasAlpha: Bool { heif_image_handle_has_alpha_channel(handle) != 0 }
    var bitDepth: Int { Int(heif_image_handle_get_luma_bits_per_pixel(handle)) }

    /// The embedded ICC profile, or one made from the `nclx` code points.
    var profile: ColorProfile? {
        switch heif_image_handle_get_color_profile_type(handle) {
        case heif_color_profile_type_prof, heif_color_profile_type_rICC:
            let length = heif_image_handle_get_raw_color_profile_size(handle)
            guard length > 0 else { return nil }
            var bytes = [UInt8](repeating: 0, count: length)
            guard heif_image_handle_get_raw_color_profile(handle, &bytes).code == heif_error_Ok else { return nil }
            return ColorProfile(data: Data(bytes))
        default:
            guard let nclx = nclx, HDRToneMapping.transfer(cicp: nclx.transfer) == nil, let icc = CICPProfile.iccData(primaries: nclx.primaries, transfer: nclx.transfer) else { return nil }
            return ColorProfile(data: icc, name: cicp)
        }
    }

    /// PQ or HLG colour, which ``decode(output:limits:)`` tone-maps to sRGB.
    var hdr: (transfer: HDRToneMapping.Transfer, primaries: [(Double, Double)])? {
        guard heif_image_handle_get_color_profile_type(handle) == heif_color_profile_type_nclx || profileIsAbsent,
              let nclx, let transfer = HDRToneMapping.transfer(cicp: nclx.transfer) else { return nil }
        return (transfer, ColorCodePoints.chromaticities(nclx.primaries) ?? ColorCodePoints.bt709)
    }

    /// The code points of PQ or HLG colour, for an image that keeps the signal.
    private var hdrCodePoints: ColorCodePoints? {
        guard let hdr, let nclx else { return nil }
        return ColorCodePoints(primaries: nclx.primaries, transfer: hdr.transfer.rawValue)
    }

    private var profileIsAbsent: Bool { heif_image_handle_get_color_profile_type(handle) == heif_color_profile_type_not_present }

    var cicp: String? { nclx.map { CICPProfile.describe(primaries: $0.primaries, transfer: $0.transfer, matrix: $0.matrix) } }

    private var nclx: (primaries: Int, transfer: Int, matrix: Int)? {
        var profile: UnsafeMutablePointer<heif_color_profile_nclx>?
        // libheif 1.15 hands the profile out before it checks the code points, and keeps it
        // there when one is out of range: it is ours to free whatever the error says.
        let error = heif_image_handle_get_nclx_color_profile(handle, &profile)
        defer { if let profile { heif_nclx_color_profile_free(profile) } }
        guard error.code == heif_error_Ok, let profile else { return nil }
        return (Int(profile.pointee.color_primaries.rawValue), Int(profile.pointee.transfer_characteristics.rawValue),
                Int(profile.pointee.matrix_coefficients.rawValue))
    }

    /// Decodes the primary image to 8-bit RGB or RGBA and reduces it to `output`; with
    /// `sixteen` (a file of more than 8 bits), to 16-bit RGB or RGBA, an HDR signal as it is.
    func decode(output: PixelSize, limits: DecodingLimits, sixteen: Bool = false) throws(ImageDecodingError) -> Image {
        // A grid's or an overlay's canvas is declared apart from the size the handle reports and
        // is allocated before anything compares them: a 31 KB overlay asked for 57984×22911, and
        // libheif 1.15 crashed on it. libheif bounds both sides by one figure: past the handle's
        // sides only by a crop (`clap`), its square within 4× the pixel limit, and its sizes in
        // bytes within an Int32.
        let side = min(2 * max(size.width, size.height) + 512, Int((Double(limits.maxPixels) * 4).squareRoot()), 23_170)
        heif_context_set_maximum_image_size_limit(context, Int32(side))
        let options = heif_decoding_options_alloc()
        defer { heif_decoding_options_free(options) }
        let hdr = hdr, wide = hdr != nil || sixteen
        options?.pointee.convert_hdr_to_8bit = wide ? 0 : 1
        var image: OpaquePointer?
        let alpha = hasAlpha
        let chroma = switch (wide, alpha) {
        case (false, false): heif_chroma_interleaved_RGB
        case (false, true): heif_chroma_interleaved_RGBA
        case (true, false): heif_chroma_interleaved_RRGGBB_LE
        case (true, true): heif_chroma_interleaved_RRGGBBAA_LE
        }
        let error = heif_decode_image(handle, &image, heif_colorspace_RGB, chroma, options)
        defer { if let image { heif_image_release(image) } }
        guard error.code == heif_error_Ok, let image else { throw Self.failure(error) }
        let decoded = PixelSize(width: Int(heif_image_get_width(image, heif_channel_interleaved)),
                                height: Int(heif_image_get_height(image, heif_channel_interleaved)))
        guard decoded == size else { throw .corrupt(.heic, detail: "the container declares \(size) but the image is \(decoded)") }
        var stride: Int32 = 0
        guard let plane = heif_image_get_plane_readonly(image, heif_channel_interleaved, &stride) else {
            throw .corrupt(.heic, detail: "no pixels")
        }
        var sink = Downsampler(sourceSize: decoded, outputSize: output, pixelFormat: alpha ? .rgba8 : .rgb8)
        guard wide else {
            sink.consume(plane, count: decoded.height, stride: Int(stride))
            return sink.finish()
        }
        // 16-bit little-endian samples of the image's depth.
        let channels = alpha ? 4 : 3
        let bits = max(1, min(16, Int(heif_image_get_bits_per_pixel_range(image, heif_channel_interleaved))))
        var samples = [UInt16](repeating: 0, count: decoded.byteCount(bytesPerPixel: channels))
        samples.withUnsafeMutableBytes { target in
            for y in 0..<decoded.height {
                let row = decoded.width * channels * 2
                (target.baseAddress! + y * row).copyMemory(from: plane + y * Int(stride), byteCount: row)
            }
        }
        guard let hdr, !sixteen else {
            // Kept deep: each sample scaled from its depth to 16 bits, then resampled.
            let top = UInt32(1 << bits - 1)
            let pixels = samples.withUnsafeBufferPointer { source in
                [UInt8](unsafeUninitializedCapacity: source.count * 2) { target, initialized in
                    let raw = UnsafeMutableRawPointer(target.baseAddress!)
                    for (index, sample) in source.enumerated() {
                        raw.storeBytes(of: UInt16((min(UInt32(UInt16(littleEndian: sample)), top) * 65_535 + top / 2) / top),
                                       toByteOffset: index * 2, as: UInt16.self)
                    }
                    initialized = source.count * 2
                }
            }
            let whole = try! Image(width: decoded.width, height: decoded.height, pixelFormat: alpha ? .rgba16 : .rgb16, pixels: pixels)
            var resized = Resampler.resize(whole, to: output)
            resized.colorCodePoints = hdrCodePoints
            return resized
        }
        // HDR: tone-mapped row by row into 8 bits.
        var mapped = [UInt8](repeating: 0, count: samples.count)
        samples.withUnsafeBufferPointer { source in
            mapped.withUnsafeMutableBufferPointer { target in
                HDRToneMapping.map(source, channels: channels, bits: bits, transfer: hdr.transfer, primaries: hdr.primaries, into: target)
            }
        }
        mapped.withUnsafeBufferPointer { sink.consume($0.baseAddress!, count: decoded.height, stride: decoded.width * channels) }
        return sink.finish()
    }

    private static func failure(_ error: heif_error) -> ImageDecodingError {
        let message = error.message.map { String(cString: $0) } ?? "unreadable data"
        if error.code == heif_error_Unsupported_feature {
            return .unsupportedFormat(.heic, detail: message)
        }
        return .corrupt(.heic, detail: message)
    }
}
