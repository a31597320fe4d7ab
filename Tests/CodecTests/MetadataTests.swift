import Foundation
import OspreyCodec
import OspreyDomain
import OspreyTesting
import Testing

/// EXIF, XMP and IPTC carried from a source to what the encoders write, as each policy says,
/// read back by Pillow: files Pillow made with every block, decoded by Osprey, written as
/// JPEG, PNG, WebP and AVIF.
@Suite("Metadata kept and stripped")
struct MetadataTests {
    static func crafted() throws -> URL {
        let folder = try TemporaryFolder.make("metadata")
        try MetadataProbe.craft(from: Corpus.file("photos/jolla.jpg"), into: folder)
        return folder
    }

    /// Every source format decoded (upright) and written in every output format with `policy`.
    static func written(_ policy: MetadataPolicy, appliesOrientation: Bool = true, from folder: URL) throws -> [(name: String, blocks: MetadataProbe.Blocks)] {
        let codec = ImageCodec()
        var files: [(String, URL)] = []
        for source in ["jpg", "png", "webp"] {
            var options = DecodingOptions(targetSize: PixelSize(width: 200, height: 200))
            options.appliesOrientation = appliesOrientation
            let image = try codec.decode(.file(path: folder.appendingPathComponent("with-metadata.\(source)").path), options: options)
            for format in [ImageFormat.jpeg, .png, .webp, .avif] {
                let out = folder.appendingPathComponent("\(policy)-\(appliesOrientation)-\(source).\(format.rawValue)")
                try codec.encode(image, options: EncodingOptions(format: format, metadata: policy)).write(to: out)
                files.append(("\(source) → \(format.rawValue)", out))
            }
        }
        return zip(files, try MetadataProbe.read(files.map(\.1))).map { ($0.0, $1) }
    }

    @Test func strippedAnswersCarryNothing() throws {
        let folder = try Self.crafted()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, blocks) in try Self.written(.strip, from: folder) {
            #expect(blocks.exif.isEmpty && blocks.xmp == nil && blocks.iptc.isEmpty, "\(name): \(blocks)")
        }
    }

    @Test func copyrightKeepsAuthorshipAndRightsOnly() throws {
        let folder = try Self.crafted()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, blocks) in try Self.written(.copyright, from: folder) {
            #expect(blocks.exif == ["Artist": "Ada Lovelace", "Copyright": "(c) Ada Lovelace"], "\(name)")
            let xmp = try #require(blocks.xmp, "\(name)")
            for kept in ["<dc:creator>", "Ada Lovelace", "<dc:rights>", "Marked"] { #expect(xmp.contains(kept), "\(name): \(kept)") }
            for gone in ["CreatorTool", "Helsinki", "dc:subject"] { #expect(!xmp.contains(gone), "\(name): \(gone)") }
            if name.hasSuffix("→ jpeg"), name.hasPrefix("jpg") {
                #expect(blocks.iptc == ["2:80": "Ada Lovelace", "2:116": "(c) Ada Lovelace"], "\(name)")
            }
        }
    }

    @Test func allKeepsEveryBlockWithTheOrientationOfThePixels() throws {
        let folder = try Self.crafted()
        defer { try? FileManager.default.removeItem(at: folder) }
        for (name, blocks) in try Self.written(.all, from: folder) {
            #expect(blocks.exif["Make"] == "Osprey" && blocks.exif["GPSLatitude"] != nil && blocks.exif["Artist"] != nil, "\(name): \(blocks.exif)")
            #expect(blocks.exif["Orientation"] == "1", "\(name): the pixels were turned upright")
            #expect(blocks.size[0] < blocks.size[1], "\(name): upright, a portrait")
            #expect(blocks.xmp?.contains("CreatorTool") == true, "\(name)")
            if name.hasSuffix("→ jpeg"), name.hasPrefix("jpg") { #expect(blocks.iptc["2:25"] == "engine", "\(name)") }
        }
        // Pixels kept as stored keep their orientation too.
        for (name, blocks) in try Self.written(.all, appliesOrientation: false, from: folder) where name.hasSuffix("→ jpeg") {
            #expect(blocks.exif["Orientation"] == "6", "\(name)")
            #expect(blocks.size[0] > blocks.size[1], "\(name): as stored, a landscape")
        }
    }

    @Test func brokenBlocksArePassedOverNotFatal() throws {
        let codec = ImageCodec()
        let jpeg = try codec.encode(try Image(width: 8, height: 8, pixelFormat: .rgb8, pixels: [UInt8](repeating: 90, count: 192)),
                                    options: EncodingOptions(format: .jpeg))
        // An APP1 Exif segment whose TIFF header lies, and an XMP segment that is not XML.
        var broken = Data(jpeg.prefix(2))
        for payload in [Data("Exif\0\0MM\0*\u{7f}\u{7f}\u{7f}\u{7f}".utf8), Data("http://ns.adobe.com/xap/1.0/\0<x:xmpmeta><unclosed".utf8)] {
            broken.append(contentsOf: [0xFF, 0xE1, UInt8((payload.count + 2) >> 8), UInt8((payload.count + 2) & 0xFF)])
            broken.append(payload)
        }
        broken.append(jpeg.dropFirst(2))
        let image = try codec.decode(.data(broken), options: DecodingOptions())
        #expect(image.metadata?.exif != nil && image.metadata?.xmp != nil, "read as they are")
        let written = try codec.encode(image, options: EncodingOptions(format: .jpeg, metadata: .copyright))
        #expect(try codec.decode(.data(written), options: DecodingOptions()).metadata == nil, "nothing to keep in either")
    }
}
