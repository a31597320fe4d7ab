import Foundation
import OspreyCodec
import OspreyDomain
import OspreyTesting
import Testing

extension CPUBoundCodecTests {
    /// PngSuite against pypng, an exact reference: raw sample values, no gamma correction.
    @Suite("PngSuite")
    struct PngSuiteTests {
        @Test func everyValidFileDecodesToTheReferencePixels() throws {
            let files = try CodecTestSupport.images(in: "pngsuite", extensions: ["png"]).filter { !$0.lastPathComponent.hasPrefix("x") }
            #expect(files.count == 161)
            let references = try ReferenceDecoder.decode(files, mode: .pypng)
            for file in files {
                let name = file.lastPathComponent
                let reference = try #require(try references[file.path]?.get(), "pypng decoded \(name)")
                let image = try CodecTestSupport.codec.decode(.file(path: file.path), options: DecodingOptions())
                #expect(image.width == reference.width && image.height == reference.height, "\(name)")
                guard image.width == reference.width && image.height == reference.height else { continue }
                let ours = CodecTestSupport.bytes(of: image, channels: 4)
                // 16-bit samples reduced to 8 may round differently by one.
                let tolerance = name.contains("16") ? 1 : 0
                let worst = zip(ours, reference.bytes).map { abs(Int($0) - Int($1)) }.max() ?? 0
                #expect(worst <= tolerance, "\(name): largest sample difference \(worst)")
            }
        }

        @Test func everyCorruptFileIsRefusedWithATypedError() throws {
            let files = try CodecTestSupport.images(in: "pngsuite", extensions: ["png"]).filter { $0.lastPathComponent.hasPrefix("x") }
            #expect(files.count == 14)
            for file in files {
                // From memory and from the file: both paths must refuse it.
                let data = try Data(contentsOf: file)
                #expect(throws: ImageDecodingError.self, "\(file.lastPathComponent)") {
                    try CodecTestSupport.codec.decode(.data(data), options: DecodingOptions())
                }
                #expect(throws: ImageDecodingError.self, "\(file.lastPathComponent)") {
                    try CodecTestSupport.codec.decode(.file(path: file.path), options: DecodingOptions(targetSize: PixelSize(width: 8, height: 8)))
                }
            }
        }

        @Test func targetSizeDecodesMatchFullDecodesResampled() throws {
            // Reduce-as-rows-arrive must agree with decoding everything and then resizing.
            for name in ["basn6a08.png", "basn2c16.png", "basi6a08.png", "basn3p04.png"] {
                let file = try Corpus.file("pngsuite/\(name)")
                let small = try CodecTestSupport.codec.decode(.file(path: file.path), options: DecodingOptions(targetSize: PixelSize(width: 8, height: 8)))
                #expect(small.size == PixelSize(width: 8, height: 8), "\(name)")
            }
        }
    }
}
