import Foundation
import OspreyDomain
import Testing

/// The behaviour every ``ImageDecoding`` must show, on samples a fixture provides.
public struct ImageDecodingContract: Sendable {
    /// An input and the size it has at full resolution.
    public struct Sample: Sendable, CustomStringConvertible {
        /// A name for messages.
        public var name: String
        /// The encoded input.
        public var input: ImageInput
        /// Its size at full resolution, upright.
        public var size: PixelSize

        /// Creates a sample.
        public init(name: String, input: ImageInput, size: PixelSize) {
            self.name = name
            self.input = input
            self.size = size
        }

        public var description: String { name }
    }

    /// What the checks need.
    public struct Fixture: Sendable {
        /// The decoder under test.
        public var decoder: any ImageDecoding
        /// Inputs that must decode.
        public var valid: [Sample]
        /// Inputs that must be refused with a typed error (name, input).
        public var invalid: [(name: String, input: ImageInput)]

        /// Creates a fixture.
        public init(decoder: any ImageDecoding, valid: [Sample], invalid: [(name: String, input: ImageInput)]) {
            self.decoder = decoder
            self.valid = valid
            self.invalid = invalid
        }
    }

    /// One behaviour.
    public enum Check: String, CaseIterable, Sendable {
        case validInputsDecodeAtFullSize, formatIsDetectedFromMagicBytes, invalidInputsThrowTypedErrors,
             nonImageBytesAreNamedAsSuch, targetSizeIsRespectedAndNeverUpscaled
    }

    private let fixture: Fixture

    /// Creates the contract for `fixture`.
    public init(fixture: Fixture) { self.fixture = fixture }

    /// Runs one check.
    public func run(_ check: Check) throws {
        let decoder = fixture.decoder
        switch check {
        case .validInputsDecodeAtFullSize:
            #expect(!fixture.valid.isEmpty)
            for sample in fixture.valid {
                let image = try decoder.decode(sample.input, options: DecodingOptions())
                #expect(image.size == sample.size, "\(sample)")
                #expect(image.pixels.count == image.bytesPerRow * image.height)
            }
        case .formatIsDetectedFromMagicBytes:
            for sample in fixture.valid {
                #expect(throws: Never.self, "\(sample)") { try decoder.detectFormat(of: try Self.prefix(of: sample.input)) }
            }
        case .invalidInputsThrowTypedErrors:
            #expect(!fixture.invalid.isEmpty)
            for (name, input) in fixture.invalid {
                // `decode` throws only ImageDecodingError by its signature; this checks it throws at all.
                #expect(throws: ImageDecodingError.self, "\(name)") { try decoder.decode(input, options: DecodingOptions()) }
            }
        case .nonImageBytesAreNamedAsSuch:
            let html = Data("<html><body>Not found</body></html>".utf8)
            #expect(throws: ImageDecodingError.notAnImage(prefix: "<html><body>Not ")) { try decoder.detectFormat(of: html) }
            #expect(throws: ImageDecodingError.self) { try decoder.decode(.data(html), options: DecodingOptions()) }
            #expect(throws: ImageDecodingError.self) { try decoder.decode(.data(Data()), options: DecodingOptions()) }
        case .targetSizeIsRespectedAndNeverUpscaled:
            for sample in fixture.valid {
                let targets = [
                    PixelSize(width: max(1, sample.size.width / 3), height: max(1, sample.size.height / 3)),
                    PixelSize(width: max(1, sample.size.width / 2), height: max(1, sample.size.height / 5)),
                    PixelSize(width: sample.size.width * 2, height: sample.size.height * 2),
                ]
                for target in targets {
                    for mode in ContentMode.allCases {
                        let options = DecodingOptions(targetSize: target, contentMode: mode)
                        let image = try decoder.decode(sample.input, options: options)
                        let expected = options.resultSize(for: sample.size)
                        #expect(abs(image.width - expected.width) <= 1 && abs(image.height - expected.height) <= 1,
                                "\(sample) at \(target) \(mode): got \(image.size), expected \(expected)")
                        #expect(image.width <= sample.size.width && image.height <= sample.size.height, "never upscaled")
                    }
                }
            }
        }
    }

    private static func prefix(of input: ImageInput) throws -> Data {
        switch input {
        case .data(let data): return data.prefix(64)
        case .file(let path):
            let handle = try FileHandle(forReadingFrom: URL(fileURLWithPath: path))
            defer { try? handle.close() }
            return try handle.read(upToCount: 64) ?? Data()
        }
    }
}
