import Foundation
import OspreyDomain
import OspreyTesting
import Testing

@Suite("Value types")
struct ValueTypeTests {
    @Test func fitKeepsAspectRatioInsideTheTargetAndNeverUpscales() {
        let photo = PixelSize(width: 4000, height: 3000)
        #expect(photo.scaled(toFit: PixelSize(width: 200, height: 200), mode: .fit) == PixelSize(width: 200, height: 150))
        #expect(photo.scaled(toFit: PixelSize(width: 200, height: 200), mode: .fill) == PixelSize(width: 267, height: 200))
        #expect(photo.scaled(toFit: PixelSize(width: 8000, height: 8000), mode: .fit) == photo)
        #expect(PixelSize(width: 1000, height: 1).scaled(toFit: PixelSize(width: 10, height: 10), mode: .fit) == PixelSize(width: 10, height: 1))
    }

    /// Sides a header or a client may declare (2³²−1 each) never trap: areas and byte counts
    /// saturate, and computed sides are held to `0…maxSide`.
    @Test func sizeArithmeticSaturatesInsteadOfTrapping() {
        let huge = PixelSize(width: Int(UInt32.max), height: Int(UInt32.max))
        #expect(huge.area == .max && huge.byteCount(bytesPerPixel: 4) == .max && huge.area(frames: 2) == .max)
        #expect(PixelSize(width: 3, height: 2).byteCount(bytesPerPixel: 4, frames: 5) == 120)
        #expect(PixelSize(width: 1 << 31, height: 1 << 31).byteCount(bytesPerPixel: 4) == .max, "2⁶² pixels fit, their bytes do not")
        #expect(PixelSize(rounding: .nan, .infinity) == PixelSize(width: 0, height: PixelSize.maxSide))
        #expect(PixelSize(rounding: -.infinity, 1e300) == PixelSize(width: 0, height: PixelSize.maxSide))
        #expect(PixelSize(rounding: 2.5, 2.4) == PixelSize(width: 3, height: 2))
        #expect(PixelSize(rounding: 2.1, 0.1, rule: .up) == PixelSize(width: 3, height: 1))
        #expect(PixelSize.length(-1e300) == -PixelSize.maxSide && PixelSize.length(.nan) == 0 && PixelSize.length(-7.6) == -8)
        #expect(PixelSize(width: 10, height: 10).scaled(toFit: PixelSize(width: 1, height: 0), mode: .fit) == PixelSize(width: 1, height: 1))
    }

    @Test func aSideOfZeroIsFreeAndFollowsFromTheOther() {
        let photo = PixelSize(width: 4000, height: 3000)
        for mode in [ContentMode.fit, .fill] {
            #expect(photo.scaled(toFit: PixelSize(width: 200, height: 0), mode: mode) == PixelSize(width: 200, height: 150), "\(mode)")
            #expect(photo.scaled(toFit: PixelSize(width: 0, height: 300), mode: mode) == PixelSize(width: 400, height: 300), "\(mode)")
            #expect(photo.scaled(toFit: PixelSize(width: 0, height: 0), mode: mode) == photo)
            #expect(photo.scaled(toFit: PixelSize(width: 9000, height: 0), mode: mode) == photo, "never larger")
        }
        let wide = DecodingOptions(targetSize: PixelSize(width: 200, height: 0), contentMode: .fill)
        #expect(wide.resultSize(for: photo) == PixelSize(width: 200, height: 150), "nothing to crop on a free side")
        let key = ImageRequest(url: URL(string: "https://example.com/a.jpg")!, targetSize: PixelSize(width: 200, height: 0))
        #expect(ImagePipeline(configuration: .init(dataLoader: MockDataLoader(), decoder: FakeImageCodec())).keys(for: key).image.stringValue.contains("200x0"))
    }

    @Test func imageKeyCarriesSizeModeAndProcessorsWhileDataKeyIsTheSourceAlone() {
        let url = URL(string: "https://example.com/a.jpg")!
        let request = ImageRequest(url: url, targetSize: PixelSize(width: 200, height: 100), contentMode: .fill,
                                   processors: [InvertProcessor(), CornerCropProcessor(size: PixelSize(width: 5, height: 5))])
        #expect(request.imageKey == CacheKey(source: url.absoluteString, variant: "size=200x100,fill;p=fake.invert|fake.corner-crop(5x5)"))
        #expect(request.dataKey == CacheKey(source: url.absoluteString))
        #expect(request.imageKey.original == request.dataKey)
        #expect(ImageRequest(url: url).imageKey == request.dataKey, "a plain request's image key is its source")
    }

    @Test func sourceHeadersAreInEveryKeyAndOnlyTheirValuesCount() {
        let url = URL(string: "https://example.com/a.jpg")!
        func request(_ headers: [String: String]) -> ImageRequest {
            var request = ImageRequest(url: url, targetSize: PixelSize(width: 10, height: 10))
            request.sourceHeaders = headers
            return request
        }
        let alice = request(["Cookie": "session=alice"]), bob = request(["Cookie": "session=bob"])
        #expect(alice.dataKey != bob.dataKey && alice.imageKey != bob.imageKey)
        #expect(alice.dataKey != request([:]).dataKey)
        #expect(alice.dataKey == request(["cookie": "session=alice"]).dataKey, "names are case-insensitive")
        #expect(request([:]).dataKey == CacheKey(source: url.absoluteString), "no headers: the key as before")
    }

    @Test func processorOrderChangesTheKey() {
        let url = URL(string: "https://example.com/a.jpg")!
        let a = ImageRequest(url: url, processors: [InvertProcessor(), CornerCropProcessor(size: PixelSize(width: 5, height: 5))])
        let b = ImageRequest(url: url, processors: [CornerCropProcessor(size: PixelSize(width: 5, height: 5)), InvertProcessor()])
        #expect(a.imageKey != b.imageKey)
    }

    @Test func imageRejectsBuffersThatDoNotMatchTheGeometry() {
        #expect(throws: ImageGeometryError.bufferSizeMismatch(expected: 16, actual: 15)) {
            try Image(width: 2, height: 2, pixelFormat: .rgba8, pixels: [UInt8](repeating: 0, count: 15))
        }
        #expect(throws: ImageGeometryError.emptySize(width: 0, height: 5)) {
            try Image(width: 0, height: 5, pixelFormat: .gray8, pixels: [])
        }
        #expect(throws: ImageGeometryError.rowTooShort(bytesPerRow: 5, needed: 8)) {
            try Image(width: 2, height: 1, pixelFormat: .rgba8, bytesPerRow: 5, pixels: [UInt8](repeating: 0, count: 5))
        }
    }

    @Test func costIsThePixelBuffer() throws {
        let padded = try Image(width: 3, height: 2, pixelFormat: .rgb8, bytesPerRow: 12, pixels: [UInt8](repeating: 0, count: 24))
        #expect(padded.cost == 24)
        #expect(TestImages.solid(PixelSize(width: 100, height: 50)).cost == 20_000)
    }

    @Test func maxAgeWinsOverExpiresAndNoCacheIsStaleAtOnce() {
        let received = Date(timeIntervalSince1970: 1_000)
        #expect(HTTPFreshness(maxAge: 60, expires: Date(timeIntervalSince1970: 5_000)).freshUntil(receivedAt: received) == Date(timeIntervalSince1970: 1_060))
        #expect(HTTPFreshness(expires: Date(timeIntervalSince1970: 5_000)).freshUntil(receivedAt: received) == Date(timeIntervalSince1970: 5_000))
        #expect(HTTPFreshness(noCache: true, maxAge: 60).freshUntil(receivedAt: received) == received)
        #expect(HTTPFreshness().freshUntil(receivedAt: received) == nil)
    }

    @Test func responseHeadersAreLowercasedAndValidatorsRead() {
        let metadata = ResponseMetadata(url: URL(string: "https://e.x/a")!, statusCode: 200, headers: ["ETag": "\"1\"", "Last-Modified": "yesterday"])
        #expect(metadata.validators == HTTPValidators(etag: "\"1\"", lastModified: "yesterday"))
        #expect(ResponseMetadata(url: URL(string: "https://e.x/a")!, statusCode: 304).isNotModified)
        #expect(HTTPValidators(etag: nil, lastModified: nil) == nil)
        // Names already lowercase are kept as given; one name in capitals lowercases them all.
        let mixed = ResponseMetadata(url: URL(string: "https://e.x/a")!, statusCode: 200, headers: ["etag": "\"2\"", "X-Tag": "a", "Ünï": "b"])
        #expect(mixed.headers == ["etag": "\"2\"", "x-tag": "a", "ünï": "b"])
        let lower = ["etag": "\"3\"", "cache-control": "max-age=1"]
        #expect(ResponseMetadata(url: URL(string: "https://e.x/a")!, statusCode: 200, headers: lower).headers == lower)
    }

    @Test func errorMessagesArePlainSentences() {
        #expect(DataLoadingError.httpStatus(404, url: "https://e.x/a.jpg").description == "HTTP 404 for https://e.x/a.jpg")
        #expect(ImageDecodingError.notAnImage(prefix: "<html").description == "not an image: the data starts with `<html`")
        #expect(ImageDecodingError.tooManyPixels(width: 60_000, height: 60_000, limit: 100_000_000).description
                == "image is 60000x60000, over the limit of 100 megapixels")
        #expect(ImageDecodingError.describePrefix(Data([0x3C, 0x68, 0x00, 0xFF])) == "<h..")
    }

    @Test func lruPolicyTrimsBelowTheLimitOnlyWhenPassed() {
        let policy = LRULimitPolicy(costLimit: 1_000, countLimit: 100, trimRatio: 0.7)
        #expect(policy.evictionTarget(for: CacheUsage(cost: 1_000, count: 100)) == nil)
        #expect(policy.evictionTarget(for: CacheUsage(cost: 1_001, count: 80)) == CacheUsage(cost: 700, count: 70))
        #expect(policy.evictionTarget(for: CacheUsage(cost: 1_001, count: 1)) == CacheUsage(cost: 700, count: 1), "never asks to grow")
        #expect(policy.evictionTarget(for: CacheUsage(cost: 1, count: 101)) == CacheUsage(cost: 1, count: 70))
    }

    @Test func expiryPolicyWithManualClock() {
        let clock = ManualClock()
        let entry = CacheEntryInfo(key: CacheKey(source: "a"), cost: 1, createdAt: clock.now, lastAccessAt: clock.now)
        let idle = ExpiryPolicy(.sinceLastAccess(300))
        clock.advance(by: 299)
        #expect(!idle.isExpired(entry, now: clock.now))
        clock.advance(by: 1)
        #expect(idle.isExpired(entry, now: clock.now))
        #expect(!ExpiryPolicy(.never).isExpired(entry, now: clock.now.addingTimeInterval(1e9)))
    }

    @Test func storageFormatsPickAFormatThatKeepsWhatTheImageHas() throws {
        let opaque = try Image(width: 2, height: 2, pixelFormat: .rgb8, pixels: [UInt8](repeating: 9, count: 12))
        let alpha = try Image(width: 2, height: 2, pixelFormat: .rgba8, pixels: [UInt8](repeating: 9, count: 16))
        let animated = Image(animation: ImageAnimation(frames: [.init(image: opaque, duration: .milliseconds(50)),
                                                                 .init(image: opaque, duration: .milliseconds(50))], loopCount: 0))
        #expect(StorageFormat.auto.options(for: opaque, writtenBy: FakeImageCodec()).format == .jpeg)
        #expect(StorageFormat.auto.options(for: alpha, writtenBy: FakeImageCodec()).format == .png)
        #expect(StorageFormat.auto.options(for: animated, writtenBy: FakeImageCodec()).format == .webp, "the one of the three that keeps frames")
        #expect(StorageFormat.avif(quality: 0.6).options(for: opaque, writtenBy: FakeImageCodec()) == EncodingOptions(format: .avif, quality: 0.6))
        #expect(StorageFormat.avif(quality: 0.6).options(for: animated, writtenBy: FakeImageCodec()).format == .webp)
        #expect(animated.cost == 2 * opaque.cost)
    }
}
