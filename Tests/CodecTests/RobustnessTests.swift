import Foundation
import OspreyCodec
import OspreyDomain
import OspreyTesting
import Testing

extension CPUBoundCodecTests {
    /// Damaged input gives an image or a typed error: never a crash, never a hang.
    @Suite("Robustness")
    struct RobustnessTests {
        /// Every image in the corpus.
        static func corpusImages() throws -> [URL] {
            try CodecTestSupport.images(in: ".", extensions: ["png", "jpg", "jpeg", "webp"])
        }

        @Test func truncatedAndMutatedCorpusFilesGiveAnImageOrATypedError() throws {
            let files = try Self.corpusImages()
            var generator = SeededGenerator(seed: 2026)
            var variants = 0, decoded = 0
            let options = DecodingOptions(targetSize: PixelSize(width: 48, height: 48))
            for file in files {
                let original = try Data(contentsOf: file)
                var inputs: [Data] = [0.05, 0.3, 0.6, 0.9, 0.99].map { original.prefix(Int(Double(original.count) * $0)) }
                for _ in 0..<4 {
                    var bytes = [UInt8](original)
                    for _ in 0..<Int.random(in: 1...12, using: &generator) {
                        let at = Int.random(in: min(8, bytes.count - 1)..<bytes.count, using: &generator)
                        bytes[at] ^= UInt8.random(in: 1...255, using: &generator)
                    }
                    let mutated = Data(bytes)
                    inputs.append(file.pathExtension == "png" ? CraftedImages.fixingPNGChecksums(mutated) : mutated)
                }
                for input in inputs {
                    variants += 1
                    // Typed throws: the only failure `decode` can report is an ImageDecodingError.
                    let started = ContinuousClock.now
                    if (try? CodecTestSupport.codec.decode(.data(input), options: options)) != nil { decoded += 1 }
                    // A hang guard, not a speed target: a variant of a small file has no reason to take long.
                    let elapsed = ContinuousClock.now - started
                    #expect(elapsed < Sanitizer.scaled(.seconds(5)), "\(file.lastPathComponent) variant took \(elapsed)")
                }
            }
            #expect(variants >= 1_000, "\(variants) variants")
            print("robustness:", files.count, "files,", variants, "variants,", decoded, "decoded")
            #expect(decoded < variants, "damage was noticed at least sometimes")
        }

        @Test func pngAndJPEGClaiming65000SquareAreRefusedFromTheHeader() throws {
            let png = CraftedImages.png(width: 65_000, height: 65_000)
            #expect(throws: ImageDecodingError.tooManyPixels(width: 65_000, height: 65_000, limit: 100_000_000)) {
                try CodecTestSupport.codec.decode(.data(png), options: DecodingOptions())
            }
            let jpeg = CraftedImages.jpeg(from: try Data(contentsOf: Corpus.file("jpeg/libjpeg-turbo/testorig.jpg")), width: 65_000, height: 65_000)
            #expect(throws: ImageDecodingError.tooManyPixels(width: 65_000, height: 65_000, limit: 100_000_000)) {
                try CodecTestSupport.codec.decode(.data(jpeg), options: DecodingOptions())
            }
            #expect(try CodecTestSupport.codec.info(.data(jpeg)).width == 65_000, "the crafted header is valid")
        }

        @Test func inputOverTheByteLimitIsRefusedBeforeReading() throws {
            let codec = ImageCodec(limits: DecodingLimits(maxInputBytes: 1_000))
            let file = try Corpus.file("jpeg/libjpeg-turbo/testorig.jpg")
            #expect(throws: ImageDecodingError.tooManyBytes(count: 5_770, limit: 1_000)) {
                try codec.decode(.file(path: file.path), options: DecodingOptions())
            }
        }

        @Test func nonImagesAndDamagedHeadersAreNamed() {
            #expect(throws: ImageDecodingError.notAnImage(prefix: "<!DOCTYPE html><")) {
                try CodecTestSupport.codec.decode(.data(Data("<!DOCTYPE html><html>".utf8)), options: DecodingOptions())
            }
            #expect(throws: ImageDecodingError.corrupt(.gif, detail: "No screen descriptor detected")) {
                try CodecTestSupport.codec.decode(.data(Data("GIF89a\u{1}\u{0}\u{1}\u{0}".utf8)), options: DecodingOptions())
            }
            let heic = Data([0, 0, 0, 24]) + Data("ftypheic".utf8) + Data(count: 12)
            do {
                _ = try CodecTestSupport.codec.decode(.data(heic), options: DecodingOptions())
                Issue.record("a HEIC brand with no boxes decoded")
            } catch {
                guard case .corrupt(.heic, _) = error else { Issue.record("damaged, not \(error)"); return }
            }
        }
    }
}
