import Foundation
import Osprey

extension ServerSettings {
    /// How large a source, an answer and the work may be.
    static let limits: [ServerSetting] = [
        ServerSetting("max-source-size", imgproxy: ["IMGPROXY_MAX_SRC_FILE_SIZE"], .value("MB"),
                      "The largest source to download, in megabytes (bytes in imgproxy's variable).",
                      default: { "\($0.service.maxSourceBytes / 1_000_000)" }) {
            (input) throws(ServerSettingError) in
            guard input.source == .imgproxy else { return input.service.maxSourceBytes = Int64(try input.int(1...1_000_000)) * 1_000_000 }
            let bytes = try input.int(0...Int.max)
            if bytes > 0 { input.service.maxSourceBytes = Int64(bytes) }
            else { input.notices.append("\(input.name)=0 (no bound) is not honoured: Osprey keeps its bound of \(input.service.maxSourceBytes) bytes") }
        },
        ServerSetting("max-source-resolution", imgproxy: ["IMGPROXY_MAX_SRC_RESOLUTION"], .value("MEGAPIXELS"),
                      "The most pixels a source may have, in megapixels; every frame of an animation is checked.",
                      default: { "\($0.service.maxSourcePixels / 1_000_000)" }) {
            (input) throws(ServerSettingError) in input.service.maxSourcePixels = Int(try input.double(0.000001...1_000_000) * 1_000_000)
        },
        ServerSetting("max-result-resolution", .value("MEGAPIXELS"), "The most pixels an answer may have, its frames counted together, in megapixels.",
                      default: { $0.service.maxResultPixels.map { "\($0 / 1_000_000)" } ?? "the source's limit" }) {
            (input) throws(ServerSettingError) in input.service.maxResultPixels = Int(try input.double(0.000001...1_000_000) * 1_000_000)
        },
        ServerSetting("max-result-dimension", imgproxy: ["IMGPROXY_MAX_RESULT_DIMENSION"], .value("PIXELS"),
                      "The longest side an answer may have: a larger one is scaled down to fit; 0: none.",
                      default: { $0.service.maxResultDimension.map { "\($0)" } ?? "none" }) {
            (input) throws(ServerSettingError) in
            let side = try input.int(0...1_000_000)
            input.service.maxResultDimension = side == 0 ? nil : side
        },
        ServerSetting("max-animation-frames", imgproxy: ["IMGPROXY_MAX_ANIMATION_FRAMES"], .value("N"), "The most frames an animated source may have.",
                      default: { "\($0.service.maxAnimationFrames)" }) {
            (input) throws(ServerSettingError) in input.service.maxAnimationFrames = try input.int(1...100_000)
        },
        ServerSetting("max-memory", imgproxy: ["IMGPROXY_MAX_MEMORY"], .value("SIZE"),
                      "The memory to keep within, such as 300MB; requests wait for room or get 503, and one larger than it all 422; 0: none.",
                      default: { _ in "nine tenths of the container's memory limit, if any" }) {
            (input) throws(ServerSettingError) in
            let bytes = try input.bytes()
            input.service.maxMemory = bytes > 0 ? bytes : nil
        },
        ServerSetting("max-redirects", imgproxy: ["IMGPROXY_MAX_REDIRECTS"], .value("N"), "Redirects followed when fetching a source.",
                      default: { "\($0.service.maxRedirects)" }) {
            (input) throws(ServerSettingError) in input.service.maxRedirects = try input.int(0...100)
        },
        ServerSetting("allow-security-options", imgproxy: ["IMGPROXY_ALLOW_SECURITY_OPTIONS"], .toggle,
                      "URLs may carry the security options (max_src_resolution, max_src_file_size, …); else such a URL is 403.") {
            (input) throws(ServerSettingError) in input.service.allowsSecurityOptions = try input.bool()
        },
    ]
}
