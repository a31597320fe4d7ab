import CLCMS
import Foundation
import OspreyDomain

/// An ICC profile for colour described by code points (CICP: H.273's primaries and transfer),
/// as AVIF and HEIF `nclx` boxes and AV1 sequence headers give it, so that such colour goes
/// through the same Little CMS path as an embedded profile.
enum CICPProfile {
    /// The profile for `primaries` and `transfer`, or `nil` when the colour is sRGB already
    /// (BT.709 primaries with an SDR curve, or unspecified) or cannot be described. PQ and HLG
    /// have none: decoders tone-map them (``HDRToneMapping``).
    static func iccData(primaries: Int, transfer: Int) -> Data? {
        guard let curve = toneCurveParameters(transfer) else { return nil }
        // BT.709 primaries with an SDR camera or display curve are shown as sRGB, as browsers do.
        if [1, 2].contains(primaries) && [1, 2, 6, 13, 14, 15].contains(transfer) { return nil }
        let white = whitePoint(primaries)
        guard var rgb = chromaticities(primaries) else { return nil }
        var parameters = curve.parameters
        guard let tone = cmsBuildParametricToneCurve(nil, curve.type, &parameters) else { return nil }
        defer { cmsFreeToneCurve(tone) }
        var whiteXYY = cmsCIExyY(x: white.0, y: white.1, Y: 1)
        var curves: [OpaquePointer?] = [tone, tone, tone]
        guard let profile = cmsCreateRGBProfile(&whiteXYY, &rgb, &curves) else { return nil }
        defer { cmsCloseProfile(profile) }
        var length: UInt32 = 0
        guard cmsSaveProfileToMem(profile, nil, &length) != 0, length > 0 else { return nil }
        var bytes = [UInt8](repeating: 0, count: Int(length))
        guard cmsSaveProfileToMem(profile, &bytes, &length) != 0 else { return nil }
        return Data(bytes)
    }

    /// A short description such as `CICP 12/16/6`, for `osprey info`.
    static func describe(primaries: Int, transfer: Int, matrix: Int) -> String { "CICP \(primaries)/\(transfer)/\(matrix)" }

    private static func toneCurveParameters(_ transfer: Int) -> (type: Int32, parameters: [Double])? {
        switch transfer {
        // sRGB, unspecified, and the BT.709, BT.601 and BT.2020 camera curves, which are shown
        // on sRGB's display curve as browsers show them (not inverted as an OETF).
        case 13, 2, 1, 6, 14, 15: (4, [2.4, 1 / 1.055, 0.055 / 1.055, 1 / 12.92, 0.04045])
        case 4: (1, [2.2])
        case 5: (1, [2.8])
        case 8: (1, [1.0])
        default: nil
        }
    }

    private static func whitePoint(_ primaries: Int) -> (Double, Double) {
        primaries == 11 ? (0.314, 0.351) : (0.3127, 0.3290)
    }

    private static func chromaticities(_ primaries: Int) -> cmsCIExyYTRIPLE? {
        guard let xy = ColorCodePoints.chromaticities(primaries) else { return nil }
        return cmsCIExyYTRIPLE(Red: cmsCIExyY(x: xy[0].0, y: xy[0].1, Y: 1), Green: cmsCIExyY(x: xy[1].0, y: xy[1].1, Y: 1),
                               Blue: cmsCIExyY(x: xy[2].0, y: xy[2].1, Y: 1))
    }
}
