import Foundation
import Osprey
import OspreyServer
import OspreyTesting
import Testing

/// imgproxy's variables read as imgproxy reads them, and the ones Osprey cannot honour never
/// passed over in silence.
@Suite("imgproxy's environment")
struct ImgproxyEnvironmentTests {
    static func applied(_ variables: [String: String]) throws -> (ServerConfiguration, [String]) {
        var server = ServerConfiguration(service: .init(signingKeys: .none, allowsUnsigned: false))
        let notices = try ImgproxyEnvironment(variables).apply(to: &server)
        return (server, notices)
    }

    @Test func variablesAreReadWithImgproxysUnitsAndSyntax() throws {
        let (server, notices) = try Self.applied([
            "IMGPROXY_BIND": ":9000", "IMGPROXY_KEY": "736563726574,6f6c64", "IMGPROXY_SALT": "68656c6c6f,73616c74",
            "IMGPROXY_SIGNATURE_SIZE": "8", "IMGPROXY_TRUSTED_SIGNATURES": "abc,def", "IMGPROXY_MAX_SRC_RESOLUTION": "16.8",
            "IMGPROXY_MAX_SRC_FILE_SIZE": "1048576", "IMGPROXY_TTL": "0", "IMGPROXY_QUALITY": "70",
            "IMGPROXY_FORMAT_QUALITY": "webp=60, avif=40", "IMGPROXY_AUTO_WEBP": "t", "IMGPROXY_ENFORCE_AVIF": "TRUE",
            "IMGPROXY_PREFERRED_FORMATS": "png,jpeg", "IMGPROXY_ALLOWED_SOURCES": "https://*.example.com/, local://",
            "IMGPROXY_PRESETS": "a=w:10;b=h:20", "IMGPROXY_PRESETS_SEPARATOR": ";", "IMGPROXY_PATH_PREFIX": "images/",
            "IMGPROXY_WORKERS": "3", "IMGPROXY_REQUESTS_QUEUE_SIZE": "10", "IMGPROXY_USE_ETAG": "false",
            "IMGPROXY_ENABLE_WEBP_DETECTION": "false", "IMGPROXY_READ_TIMEOUT": "7", "IMGPROXY_TIMEOUT": "30",
        ])
        #expect(server.host == "0.0.0.0" && server.port == 9000)
        let service = server.service
        #expect(service.signingKeys.pairs.count == 2 && service.signingKeys.signatureSize == 8 && !service.allowsUnsigned)
        #expect(service.trustedSignatures == ["abc", "def"])
        #expect(service.maxSourcePixels == 16_800_000 && service.maxSourceBytes == 1_048_576 && service.maxAge == 0)
        #expect(service.defaultQuality == 70 && service.formatQualities == [.webp: 60, .avif: 40, .jxl: 77])
        #expect(service.autoFormats == [.webp], "the new name wins over the deprecated one")
        #expect(service.enforcedFormats == [.avif] && service.preferredFormats == [.png, .jpeg])
        #expect(service.sources.allowedPrefixes == ["https://*.example.com/", "local://"])
        #expect(service.presets.names == ["a", "b"] && server.pathPrefix == "/images")
        #expect(service.osprey.maxConcurrentDecodes == 3 && server.maxQueue == 13)
        #expect(!service.usesETags && server.idleTimeout == .seconds(7) && service.timeout == .seconds(30))
        #expect(notices.contains { $0.contains("IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES is not set") }, "the safer default, said once")
    }

    @Test func infoPresetsAndAllowedInfoOptionsAreRead() throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("osprey-info-presets-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: file) }
        try "# placeholders\nph=bh:4:3/th:1\n".write(to: file, atomically: true, encoding: .utf8)
        let (server, notices) = try Self.applied(["IMGPROXY_INFO_PRESETS": "default=xmp:0;colours=p:8/dc:1", "IMGPROXY_PRESETS_SEPARATOR": ";",
                                                  "IMGPROXY_ALLOWED_INFO_OPTIONS": "pr,bh", "IMGPROXY_ONLY_PRESETS": "true"])
        #expect(server.service.infoPresets.names == ["colours", "default"] && server.service.allowedInfoOptions == ["pr", "bh"])
        #expect(server.service.infoOnlyPresets == nil && server.service.onlyPresets, "info's mode follows the images' unless set")
        #expect(!notices.contains { $0.contains("INFO") }, "\(notices)")
        let (fromFile, _) = try Self.applied(["IMGPROXY_INFO_PRESETS_PATH": file.path, "IMGPROXY_INFO_ONLY_PRESETS": "false"])
        #expect(fromFile.service.infoPresets.names == ["ph"] && fromFile.service.infoOnlyPresets == false)
        let error = try? #require(throws: ImgproxyEnvironmentError.self) { try Self.applied(["IMGPROXY_INFO_PRESETS": "bad=rs:fill:9:9"]) }
        #expect(error?.name == "IMGPROXY_INFO_PRESETS", "a processing option is no info option")
    }

    @Test func withoutKeysEveryURLIsServedAsImgproxyServesIt() throws {
        let (server, notices) = try Self.applied(["IMGPROXY_TTL": "60"])
        #expect(server.service.allowsUnsigned && server.service.signingKeys.pairs.isEmpty)
        #expect(notices.contains { $0.contains("signatures are not checked") })
        let (plain, none) = try Self.applied([:])
        #expect(!plain.service.allowsUnsigned && none.isEmpty, "no imgproxy variables: Osprey's own rule")
    }

    @Test func whatCannotBeHonouredStopsTheStartOrIsNamed() throws {
        for (name, value) in [("IMGPROXY_URL_REPLACEMENTS", "no-equals-sign"), ("IMGPROXY_USE_SWIFT", "true"), ("IMGPROXY_ARGUMENTS_SEPARATOR", "/"),
                              ("IMGPROXY_WATERMARK_OPACITY", "1.5"), ("IMGPROXY_NETWORK", "unix"), ("IMGPROXY_IGNORE_SSL_VERIFICATION", "1"),
                              ("IMGPROXY_SIGNATURE_SIZE", "33"), ("IMGPROXY_QUALITY", "abc"), ("IMGPROXY_FORMAT_QUALITY", "webp")] {
            #expect(throws: ImgproxyEnvironmentError.self, "\(name)=\(value)") { try Self.applied([name: value]) }
            let error = try? #require(throws: ImgproxyEnvironmentError.self) { try Self.applied([name: value]) }
            #expect(error?.name == name)
        }
        // A switch set to what Osprey does anyway is no refusal.
        _ = try Self.applied(["IMGPROXY_USE_SWIFT": "false", "IMGPROXY_WATERMARK_OPACITY": "1", "IMGPROXY_NETWORK": "tcp"])
        #expect(try !Self.applied(["IMGPROXY_AUTO_ROTATE": "false"]).0.service.autoRotates)
        #expect(try Self.applied(["IMGPROXY_PRESERVE_HDR": "true"]).0.service.preservesHighBitDepth)
        let (_, notices) = try Self.applied(["IMGPROXY_WEBP_EFFORT": "6", "IMGPROXY_SENTRY_DSN": "https://x", "IMGPROXY_AUTOQUALITY_METHOD": "dssim",
                                             "IMGPROXY_MADE_UP": "1"])
        for name in ["IMGPROXY_WEBP_EFFORT", "IMGPROXY_SENTRY_DSN", "IMGPROXY_AUTOQUALITY_METHOD", "IMGPROXY_MADE_UP"] {
            #expect(notices.contains { $0.hasPrefix(name) }, "\(name) named: \(notices)")
        }
        #expect(notices.contains { $0.hasPrefix("IMGPROXY_AUTOQUALITY_METHOD") && $0.contains("Pro") })
    }

    /// v4's bucket lists are honoured; a name Osprey does not know that reads as a restriction
    /// stops the start rather than leaving the server open.
    @Test func restrictingSettingsAreHonouredOrStopTheStart() throws {
        let (server, _) = try Self.applied(["IMGPROXY_S3_ALLOWED_BUCKETS": "photos, avatars", "IMGPROXY_S3_DENIED_BUCKETS": "private"])
        #expect(server.service.s3AllowedBuckets == ["photos", "avatars"] && server.service.s3DeniedBuckets == ["private"])
        for name in ["IMGPROXY_GS_ALLOWED_BUCKETS", "IMGPROXY_DENIED_SOURCES", "IMGPROXY_MAX_UPLOAD_SIZE", "IMGPROXY_API_TOKEN"] {
            let error = try? #require(throws: ImgproxyEnvironmentError.self) { try Self.applied([name: "x"]) }
            #expect(error?.name == name && error?.reason.contains("restrict") == true, "\(name)")
        }
    }

    @Test func theMigrationGuideNamesEveryVariable() throws {
        let guide = try String(contentsOf: Corpus.repositoryRoot.appendingPathComponent("Docs/MIGRATING-FROM-IMGPROXY.md"), encoding: .utf8)
        let names = ImgproxyEnvironment.known.union(ImgproxyEnvironment.refused.keys).union(ImgproxyEnvironment.unhonoured.keys)
        let missing = names.filter { !guide.contains("IMGPROXY_\($0)") }.sorted()
        #expect(missing.isEmpty, "not in Docs/MIGRATING-FROM-IMGPROXY.md: \(missing)")
    }
}
