import Foundation
import Hummingbird
import Osprey

/// The demo (``ServerConfiguration/gallery``). The folder's images are served as a sample origin at
/// `/origin/NAME`, and `/` is a page of their thumbnails, each asked for through a signed
/// imgproxy URL from this server's own image routes.
struct Gallery: Sendable {
    let folder: URL
    let samples: [GallerySample]
    /// Where the samples are fetched from: this server's `/origin/`.
    let originPrefix: String
    let keys: SigningKeys

    init(folder: URL, host: String, port: Int, keys: SigningKeys, codec: ImageCodec) throws(ServerConfigurationError) {
        self.folder = folder
        do {
            samples = try GallerySample.all(in: folder, codec: codec)
        } catch {
            throw .unusable("the gallery \(folder.path): \(error)")
        }
        // A server listening on every address fetches its own origin through loopback.
        originPrefix = "http://\(host == "0.0.0.0" || host == "::" ? "127.0.0.1" : host):\(port)/origin/"
        self.keys = keys
    }

    /// The signed path of `sample`'s thumbnail: a 320×240 fill, the format left to `Accept`.
    func thumbnailPath(of sample: GallerySample) -> String {
        keys.signed("/rs:fill:320:240/plain/\(originPrefix)\(sample.name)")
    }

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-cache"],
                     body: .init(byteBuffer: ByteBuffer(string: GalleryPage.html(self))))
        }
        router.get("/origin/:name") { request, context in
            originFile(context.parameters.get("name") ?? "", request: request)
        }
    }

    /// A sample's bytes, as an origin serves them: with a type, validators and an hour's freshness.
    private func originFile(_ name: String, request: Request) -> Response {
        guard let sample = samples.first(where: { $0.name == name }),
              let data = FileManager.default.contents(atPath: folder.appendingPathComponent(name).path) else {
            return Response(status: .notFound)
        }
        let etag = "\"\(data.count)-\(sample.info.width)x\(sample.info.height)\""
        var headers: HTTPFields = [.eTag: etag, .cacheControl: "max-age=3600"]
        if request.headers[.ifNoneMatch] == etag { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = sample.info.format.mediaType
        return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
