import Foundation
import OspreyCodec
import OspreyDomain
import OspreyContracts
import OspreyTesting
import Testing

/// ImageCodec and each built-in encoder pass the ImageEncoding contract, read back by the codec.
@Suite("Encoders")
struct EncoderContractTests {
    static let floors: [ImageFormat: Double] = [.jpeg: 30, .png: .infinity, .webp: 30, .gif: 28, .avif: 28, .jxl: 30, .heic: 30]

    @Test("ImageCodec passes the ImageEncoding contract", arguments: ImageEncodingContract.Check.allCases)
    func codec(_ check: ImageEncodingContract.Check) throws {
        try ImageEncodingContract(fixture: .init(encoder: ImageCodec(), formats: Self.floors, unwritten: .svg, decoder: ImageCodec())).run(check)
    }

    @Test("Each format's encoder passes the ImageEncoding contract", arguments: ImageEncodingContract.Check.allCases)
    func perFormat(_ check: ImageEncodingContract.Check) throws {
        let encoders: [(any ImageEncoding, ImageFormat)] = [(JPEGEncoder(), .jpeg), (PNGEncoder(), .png), (WebPEncoder(), .webp), (GIFEncoder(), .gif), (AVIFEncoder(), .avif),
                                                          (JXLEncoder(), .jxl), (HEICEncoder(), .heic)]
        for (encoder, format) in encoders {
            try ImageEncodingContract(fixture: .init(encoder: encoder, formats: [format: Self.floors[format]!],
                                                     unwritten: format == .jpeg ? .png : .jpeg, decoder: ImageCodec())).run(check)
        }
    }
}
