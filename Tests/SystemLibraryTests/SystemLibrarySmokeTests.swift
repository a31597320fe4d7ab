import CCrypto
import CCurl
import CCurlShims
import CHiredis
import CJPEG
import CLibraryLoader
import CPNG
import CSQLite
import CWebP
import Foundation
import OspreyTesting
import Testing

/// One real call into each C library, so a missing install step fails loudly here rather
/// than deep inside a codec or cache test.
@Suite("System libraries")
struct SystemLibrarySmokeTests {
    @Test func libjpegTurboCreatesADecompressorAndReadsARealHeader() throws {
        let data = try Data(contentsOf: Corpus.file("exif-orientation/Landscape_1.jpg"))
        var errorManager = jpeg_error_mgr()
        var info = jpeg_decompress_struct()
        info.err = jpeg_std_error(&errorManager)
        jpeg_CreateDecompress(&info, JPEG_LIB_VERSION, MemoryLayout<jpeg_decompress_struct>.size)
        defer { jpeg_destroy_decompress(&info) }
        data.withUnsafeBytes { raw in
            jpeg_mem_src(&info, raw.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt(raw.count))
            _ = jpeg_read_header(&info, 1)
        }
        #expect(info.image_width == 1800 && info.image_height == 1200)
    }

    @Test func libpngReportsItsVersionAndRecognisesARealSignature() throws {
        #expect(png_access_version_number() >= 10_600)
        let file = try Corpus.files(in: "pngsuite").first { $0.pathExtension == "png" }
        let signature = [UInt8](try Data(contentsOf: #require(file)).prefix(8))
        #expect(png_sig_cmp(signature, 0, 8) == 0)
    }

    @Test func libwebpAndItsDemuxerReportVersions() {
        #expect(WebPGetDecoderVersion() >= 0x000600)
        #expect(WebPGetEncoderVersion() >= 0x000600)
        #expect(WebPGetDemuxVersion() >= 0x000600)
    }

    @Test func libcurlReportsHTTPSupport() throws {
        // CURLVERSION_NOW is a macro naming another constant, which Swift does not import;
        // the fields read here exist since the first version of the struct.
        #expect(osp_curl_available() == 1, "libcurl opens on first use")
        let info = try #require(curl_version_info(CURLVERSION_TENTH))
        #expect(info.pointee.features & CURL_VERSION_LIBZ != 0, "gzip and deflate are available")
        let protocols = sequence(state: info.pointee.protocols) { cursor -> String? in
            guard let name = cursor?.pointee else { return nil }
            cursor = cursor?.advanced(by: 1)
            return String(cString: name)
        }
        #expect(Set(protocols).isSuperset(of: ["http", "https"]))
    }

    @Test func sqliteOpensAnInMemoryDatabase() {
        #expect(osp_sqlite_available() == 1, "libsqlite3 opens on first use")
        #expect(sqlite3_libversion_number() >= 3_035_000)
        var db: OpaquePointer?
        #expect(sqlite3_open(":memory:", &db) == SQLITE_OK)
        #expect(sqlite3_exec(db, "CREATE TABLE t(x); INSERT INTO t VALUES (1);", nil, nil, nil) == SQLITE_OK)
        #expect(sqlite3_close(db) == SQLITE_OK)
    }

    @Test func libcryptoComputesSHA256() {
        #expect(osp_crypto_available() == 1 && osp_ssl_available() == 1, "libcrypto and libssl open on first use")
        #expect(OpenSSL_version_num() >= 0x3000_0000)
        var digest = [UInt8](repeating: 0, count: Int(SHA256_DIGEST_LENGTH))
        _ = SHA256(Array("abc".utf8), 3, &digest)
        #expect(digest.map { String(format: "%02x", $0) }.joined() == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    }

    @Test func hiredisParsesAReply() throws {
        #expect(osp_hiredis_available() == 1, "libhiredis opens on first use")
        let reader = try #require(redisReaderCreate())
        defer { redisReaderFree(reader) }
        #expect(redisReaderFeed(reader, "+OK\r\n", 5) == REDIS_OK)
        var reply: UnsafeMutableRawPointer?
        #expect(redisReaderGetReply(reader, &reply) == REDIS_OK)
        let parsed = try #require(reply?.assumingMemoryBound(to: redisReply.self))
        defer { freeReplyObject(parsed) }
        #expect(parsed.pointee.type == REDIS_REPLY_STATUS && String(cString: parsed.pointee.str) == "OK")
    }

    @Test func corpusIsFoundBesideTheCheckoutOrAtOSPREY_CORPUS() throws {
        let root = try #require(Corpus.root, "the test corpus is missing: set OSPREY_CORPUS")
        #expect(FileManager.default.fileExists(atPath: root.appendingPathComponent("SOURCES.md").path))
    }
}
