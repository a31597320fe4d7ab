import Foundation
import Hummingbird
import Osprey
import OspreyServer

/// The demo's routes: the gallery page, `/thumb`, the four-cut card, the origin, and the
/// cache buttons.
final class DemoServer: Sendable {
    let pipeline: ImagePipeline
    let memory: MemoryCache
    let disk: DiskCache
    let origin: DemoOrigin
    let policy: OriginPolicy
    /// Thumbnails served per tier since start, for the cache panel.
    let tierCounts = Locked<[ImageResponse.Tier: Int]>([:])

    /// Target sizes the page offers; `/thumb` takes any from 1 to `maxSide`.
    static let sizes = [120, 200, 320]
    static let maxSide = 2000

    init(pipeline: ImagePipeline, memory: MemoryCache, disk: DiskCache, origin: DemoOrigin, policy: OriginPolicy) {
        self.pipeline = pipeline
        self.memory = memory
        self.disk = disk
        self.origin = origin
        self.policy = policy
    }

    func router() -> Router<BasicRequestContext> {
        let router = Router()
        router.get("/") { request, _ in try await self.gallery(request) }
        router.get("/thumb") { request, _ in await self.thumb(request) }
        router.get("/fourcut.png") { request, _ in await self.fourCut(request) }
        router.get("/stats.json") { _, _ in try self.statsResponse() }
        router.get("/origin/") { _, _ in try self.originIndex() }
        router.get("/origin/:name") { request, context in self.originFile(context.parameters.get("name") ?? "", request: request) }
        router.post("/clear-memory") { _, _ in
            self.memory.removeAll()
            return Response.redirect(to: "/", type: .normal)
        }
        router.post("/clear-disk") { _, _ in
            try await self.disk.removeAll()
            return Response.redirect(to: "/", type: .normal)
        }
        router.post("/prefetch") { _, _ in
            let requests = self.origin.names.map { ImageRequest(url: self.origin.url(of: $0)) }
            for await _ in ImagePrefetcher(pipeline: self.pipeline).prefetch(requests) {}
            return Response.redirect(to: "/", type: .normal)
        }
        return router
    }

    /// The request `/thumb` and the gallery make for one image (a fill comes back exactly the size).
    static func thumbRequest(_ url: URL, size: PixelSize, mode: ContentMode) -> ImageRequest {
        ImageRequest(url: url, targetSize: size, contentMode: mode)
    }

    func record(_ tier: ImageResponse.Tier) {
        tierCounts.withLock { $0[tier, default: 0] += 1 }
    }

    // MARK: /thumb

    func thumb(_ request: Request) async -> Response {
        let query = request.uri.queryParameters
        guard let text = query["url"].map(String.init), let url = URL(string: text) else {
            return Answers.text(.badRequest, "give ?url=…&w=…&h=…&mode=fit|fill")
        }
        guard let w = query["w"].flatMap({ Int($0) }), let h = query["h"].flatMap({ Int($0) }),
              (1...Self.maxSide).contains(w), (1...Self.maxSide).contains(h) else {
            return Answers.text(.badRequest, "w and h must be whole numbers from 1 to \(Self.maxSide)")
        }
        guard let mode = ContentMode(rawValue: query["mode"].map(String.init) ?? "fill") else {
            return Answers.text(.badRequest, "mode must be fit or fill")
        }
        if let refusal = policy.refusal(for: url) { return Answers.refused(refusal) }
        let response: ImageResponse
        do {
            response = try await pipeline.image(for: Self.thumbRequest(url, size: PixelSize(width: w, height: h), mode: mode))
        } catch {
            return Answers.failure(error)
        }
        record(response.tier)
        let options = StorageFormat.auto.options(for: response.image)
        guard let bytes = try? ImageCodec().encode(response.image, options: options) else {
            return Answers.text(.internalServerError, "could not encode the thumbnail")
        }
        let etag = "\"\(Answers.fingerprint(bytes))\""
        var headers: HTTPFields = [.eTag: etag, .cacheControl: "public, max-age=86400"]
        headers[.init("X-Osprey-Tier")!] = response.tier.rawValue
        if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = options.format == .png ? "image/png" : "image/jpeg"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
    }

    // MARK: The four-cut card

    /// The frame and the first four photos, or `nil` with the reason when one is missing.
    func cardRequests(size: Int) -> [ImageRequest]? {
        guard origin.names.contains(SampleSet.frameName), origin.photos.count >= 4 else { return nil }
        let frame = ImageRequest(url: origin.url(of: SampleSet.frameName), targetSize: PixelSize(width: size * 2, height: size * 5 / 2))
        let photos = origin.photos.prefix(4).map {
            Self.thumbRequest(origin.url(of: $0), size: PixelSize(width: size, height: size * 5 / 4), mode: .fill)
        }
        return [frame] + photos
    }

    func fourCut(_ request: Request) async -> Response {
        let size = request.uri.queryParameters["size"].flatMap { Int($0) }.flatMap { Self.sizes.contains($0) ? $0 : nil } ?? 200
        guard let requests = cardRequests(size: size) else { return Answers.text(.notFound, "the origin has no frame and four photos") }
        do {
            let images = try await ImageBatchLoader(provider: pipeline).loadAll(requests).map(\.image)
            let card = try Collage.compose(frame: images[0], photos: Array(images.dropFirst()))
            let bytes = try ImageCodec().encode(card, options: EncodingOptions(format: .png))
            return Response(status: .ok, headers: [.contentType: "image/png", .cacheControl: "no-cache"],
                            body: .init(byteBuffer: ByteBuffer(bytes: bytes)))
        } catch {
            return Answers.failure(error)
        }
    }

    // MARK: The origin

    func originIndex() throws -> Response {
        guard origin.folder != nil else { return Answers.text(.notFound, "this demo has an upstream origin") }
        let json = try JSONEncoder().encode(origin.names)
        return Response(status: .ok, headers: [.contentType: "application/json"], body: .init(byteBuffer: ByteBuffer(bytes: json)))
    }

    func originFile(_ name: String, request: Request) -> Response {
        guard let folder = origin.folder, origin.names.contains(name),
              let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else {
            return Answers.text(.notFound, "no such image")
        }
        let etag = "\"\(Answers.fingerprint(data))\""
        var headers: HTTPFields = [.eTag: etag, .cacheControl: "max-age=3600", .lastModified: "Mon, 01 Jan 2024 00:00:00 GMT"]
        if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified, headers: headers) }
        let type = ["jpg": "image/jpeg", "jpeg": "image/jpeg", "png": "image/png", "webp": "image/webp"]
        headers[.contentType] = type[(name as NSString).pathExtension.lowercased()] ?? "application/octet-stream"
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }

    // MARK: Statistics

    struct Stats: Codable {
        var memoryEntries: Int, memoryBytes: Int, memoryLimitBytes: Int
        var memoryHits: Int, memoryMisses: Int
        var diskEntries: Int, diskBytes: Int, diskLimitBytes: Int
        var served: [String: Int]
    }

    func stats() throws -> Stats {
        let usage = memory.usage, counters = memory.statistics, diskStats = try disk.statistics()
        let served = tierCounts.withLock { Dictionary(uniqueKeysWithValues: $0.map { ($0.key.rawValue, $0.value) }) }
        return Stats(memoryEntries: usage.count, memoryBytes: usage.cost, memoryLimitBytes: memory.configuration.costLimit,
                     memoryHits: counters.hits, memoryMisses: counters.misses, diskEntries: diskStats.entries,
                     diskBytes: diskStats.bytes, diskLimitBytes: diskStats.limitBytes, served: served)
    }

    func statsResponse() throws -> Response {
        let encoder = JSONEncoder()
        encoder.outputFormatting = .sortedKeys
        return Response(status: .ok, headers: [.contentType: "application/json"],
                        body: .init(byteBuffer: ByteBuffer(bytes: try encoder.encode(stats()))))
    }
}
