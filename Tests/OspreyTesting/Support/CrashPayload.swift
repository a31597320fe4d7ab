import Foundation

/// The bytes `DiskCacheCrashHelper` writes for entry `i`: 1 to 20 KB, different for every
/// entry, so a test can check what a killed writer left behind.
public enum CrashPayload {
    /// Entry `i`'s bytes.
    public static func bytes(_ i: Int) -> Data {
        var state = UInt64(i) &* 0x9E37_79B9_7F4A_7C15 &+ 1
        let count = 1_000 + Int(state % 19_000)
        return Data((0..<count).map { _ in
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return UInt8(truncatingIfNeeded: state >> 33)
        })
    }
}
