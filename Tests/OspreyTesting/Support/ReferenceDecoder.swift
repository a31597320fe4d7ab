import Foundation

/// Decodes files with independent reference decoders (pypng, Pillow) through
/// `Tests/Scripts/reference_decode.py`, one Python process per batch.
public enum ReferenceDecoder {
    /// Pixels from a reference decoder.
    public struct Pixels: Sendable {
        public let width: Int
        public let height: Int
        public let channels: Int
        public let bytes: [UInt8]
        /// Frames one after another in ``bytes`` (``Mode/pillowFrames``); 1 otherwise.
        public var frameCount = 1

        /// Frame `index`'s bytes.
        public func frame(_ index: Int) -> [UInt8] {
            let size = width * height * channels
            return Array(bytes[index * size..<(index + 1) * size])
        }
    }

    /// How to decode.
    public enum Mode: Sendable {
        /// pypng, RGBA 8-bit, raw samples.
        case pypng
        /// Pillow, orientation applied, RGB or RGBA.
        case pillow
        /// Pillow, then a Lanczos resize to fit `n`×`n`.
        case pillowThumbnail(Int)
        /// Pillow, every frame of an animation, RGBA, colour-managed.
        case pillowFrames
        /// libvips' `icc_transform` to sRGB (relative intent), as `vipsthumbnail --export-profile srgb`.
        case vips

        var name: String {
            switch self {
            case .pypng: "png"
            case .pillow: "pil"
            case .pillowThumbnail(let n): "pil-\(n)"
            case .pillowFrames: "pil-frames"
            case .vips: "vips"
            }
        }
    }

    /// Why a reference decode failed.
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// Decodes every file; the result maps each path to its pixels or the decoder's error.
    public static func decode(_ files: [URL], mode: Mode) throws -> [String: Result<Pixels, Failure>] {
        let folder = try TemporaryFolder.make("ref")
        defer { try? FileManager.default.removeItem(at: folder) }
        var targets: [String: String] = [:]
        var input = ""
        for (index, file) in files.enumerated() {
            let target = folder.appendingPathComponent("\(index).raw").path
            targets[target] = file.path
            input += "\(mode.name)\t\(file.path)\t\(target)\n"
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", Corpus.repositoryRoot.appendingPathComponent("Tests/Scripts/reference_decode.py").path]
        let stdin = Pipe(), stdout = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        try process.run()
        stdin.fileHandleForWriting.write(Data(input.utf8))
        try stdin.fileHandleForWriting.close()
        let output = String(decoding: stdout.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "reference_decode.py exited \(process.terminationStatus): is Pillow and pypng installed (make setup)?")
        }
        var results: [String: Result<Pixels, Failure>] = [:]
        for line in output.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard let source = targets[fields[0]] else { continue }
            if fields[1] == "ERROR" {
                results[source] = .failure(Failure(description: fields.dropFirst(2).joined(separator: " ")))
            } else {
                let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: fields[0])))
                var pixels = Pixels(width: Int(fields[1])!, height: Int(fields[2])!, channels: Int(fields[3])!, bytes: bytes)
                if fields.count > 4 { pixels.frameCount = Int(fields[4])! }
                results[source] = .success(pixels)
            }
        }
        return results
    }

    /// Peak signal-to-noise ratio in dB between two buffers of equal length (∞ when equal).
    public static func psnr(_ a: [UInt8], _ b: [UInt8]) -> Double {
        precondition(a.count == b.count && !a.isEmpty)
        var sum = 0.0
        for i in a.indices {
            let d = Double(Int(a[i]) - Int(b[i]))
            sum += d * d
        }
        guard sum > 0 else { return .infinity }
        return 10 * log10(255 * 255 / (sum / Double(a.count)))
    }
}
