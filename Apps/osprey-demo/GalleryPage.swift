import Foundation
import Hummingbird
import Osprey

extension DemoServer {
    /// The gallery: plain server-rendered HTML. The server loads every thumbnail through the
    /// pipeline first, so each is labelled with the tier it came from and the time it took;
    /// the browser's `<img>` then fetches `/thumb`, which finds it in memory. A small script
    /// only records in the page whether every image loaded.
    func gallery(_ request: Request) async throws -> Response {
        let size = request.uri.queryParameters["size"].flatMap { Int($0) }.flatMap { Self.sizes.contains($0) ? $0 : nil } ?? 200
        let target = PixelSize(width: size, height: size)
        let names = origin.photos
        let requests = names.map { Self.thumbRequest(origin.url(of: $0), size: target, mode: .fill) }
        let results = await ImageBatchLoader(provider: pipeline).loadEach(requests)
        var figures = ""
        for (name, result) in zip(names, results) {
            let src = "/thumb?url=\(Self.queryValue(origin.url(of: name).absoluteString))&w=\(size)&h=\(size)&mode=fill"
            switch result {
            case .success(let response):
                record(response.tier)
                let ms = String(format: "%.1f", Double(response.duration.components.attoseconds) / 1e15 + Double(response.duration.components.seconds) * 1000)
                figures += """
                    <figure class="thumb" data-tier="\(response.tier.rawValue)" data-ms="\(ms)">\
                    <img src="\(Self.html(src))" width="\(size)" height="\(size)" alt="\(Self.html(name))">\
                    <figcaption><b class="tier \(response.tier.rawValue)">\(response.tier.rawValue)</b> \(ms) ms · \(Self.html(name))</figcaption></figure>

                    """
            case .failure(let error):
                figures += "<figure class=\"thumb failed\"><figcaption>\(Self.html(name)): \(Self.html("\(error)"))</figcaption></figure>\n"
            }
        }
        let card = await cardSection(size: size)
        let stats = try stats()
        let options = Self.sizes.map { "<option value=\"\($0)\"\($0 == size ? " selected" : "")>\($0)×\($0)</option>" }.joined()
        let page = """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Osprey gallery</title>
            <style>
            body { font: 14px system-ui, sans-serif; margin: 24px; background: #f6f6f4; color: #222; }
            .grid { display: flex; flex-wrap: wrap; gap: 12px; }
            figure { margin: 0; background: #fff; padding: 6px; border-radius: 6px; box-shadow: 0 1px 3px #0002; }
            figcaption { font-size: 12px; margin-top: 4px; }
            .tier { padding: 1px 5px; border-radius: 3px; color: #fff; background: #888; }
            .tier.network { background: #c0392b; } .tier.shared { background: #7d3c98; } .tier.disk { background: #d68910; } .tier.memory { background: #1e8449; }
            table { border-collapse: collapse; margin: 8px 0 16px; } td, th { padding: 3px 10px; border-bottom: 1px solid #ddd; text-align: left; }
            form.inline { display: inline; }
            </style></head>
            <body>
            <h1>Osprey gallery</h1>
            <p>Thumbnails from <code>\(Self.html(origin.baseURL.absoluteString))/origin/</code>, loaded through memory → disk → network.</p>
            <form method="get" action="/">Size <select name="size" onchange="this.form.submit()">\(options)</select> <button>Show</button></form>
            <p>
            <form class="inline" method="post" action="/clear-memory"><button>Clear memory</button></form>
            <form class="inline" method="post" action="/clear-disk"><button>Clear disk</button></form>
            <form class="inline" method="post" action="/prefetch"><button>Prefetch everything</button></form>
            </p>
            <section id="cache"><h2>Caches</h2><table>
            <tr><th></th><th>entries</th><th>bytes</th><th>limit</th></tr>
            <tr><td>memory</td><td id="memory-entries">\(stats.memoryEntries)</td><td>\(stats.memoryBytes)</td><td>\(stats.memoryLimitBytes)</td></tr>
            <tr><td>disk</td><td id="disk-entries">\(stats.diskEntries)</td><td>\(stats.diskBytes)</td><td>\(stats.diskLimitBytes)</td></tr>
            </table>
            <p>Served since start: \(ImageResponse.Tier.allCases.map { "\($0.rawValue) \(stats.served[$0.rawValue] ?? 0)" }.joined(separator: " · ")) · memory cache hits \(stats.memoryHits), misses \(stats.memoryMisses)</p>
            </section>
            <h2>Thumbnails</h2>
            <section class="grid">
            \(figures)</section>
            <h2>Four-cut card</h2>
            \(card)
            <script>
            window.addEventListener('load', () => {
              const images = Array.from(document.images);
              document.body.dataset.total = images.length;
              document.body.dataset.loaded = images.filter(i => i.complete && i.naturalWidth > 0).length;
              document.body.dataset.ready = 'yes';
            });
            </script>
            </body></html>

            """
        return Response(status: .ok, headers: [.contentType: "text/html; charset=utf-8", .cacheControl: "no-store"],
                        body: .init(byteBuffer: ByteBuffer(string: page)))
    }

    /// The card, shown only when the frame and all four photos are ready.
    func cardSection(size: Int) async -> String {
        guard let requests = cardRequests(size: size) else { return "<p>The origin has no frame and four photos.</p>" }
        do {
            _ = try await ImageBatchLoader(provider: pipeline).loadAll(requests)
            return "<figure id=\"card\"><img src=\"/fourcut.png?size=\(size)\" alt=\"four-cut card\"></figure>"
        } catch {
            return "<p id=\"card\">The card is not ready: \(Self.html("\(error)"))</p>"
        }
    }

    static func html(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }

    static func queryValue(_ text: String) -> String {
        text.addingPercentEncoding(withAllowedCharacters: CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))) ?? text
    }
}
