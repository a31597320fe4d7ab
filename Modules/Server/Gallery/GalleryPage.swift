import Foundation

/// The gallery page: a tile per sample, with what the source is and where it came from. A
/// small script fetches each thumbnail, shows it, and writes on the tile what the answer was
/// (format, the tier that answered and its time, from `Server-Timing`); it records on the
/// page's body how many loaded, so a headless browser can check the page.
enum GalleryPage {
    static func html(_ gallery: Gallery) -> String {
        let tiles = gallery.samples.map { sample in
            """
            <figure data-src="\(escaped(gallery.thumbnailPath(of: sample)))">\
            <img width="320" height="240" alt="\(escaped(sample.name))">\
            <figcaption><b>\(escaped(sample.name))</b><br>\(escaped(sample.summary))<br>\
            <span class="answer">…</span><br><small>\(escaped(sample.note))</small></figcaption></figure>
            """
        }.joined(separator: "\n")
        return """
            <!doctype html>
            <html lang="en"><head><meta charset="utf-8"><title>Osprey gallery</title>
            <style>
            body { font: 14px system-ui, sans-serif; margin: 24px; background: #f6f6f4; color: #222; }
            main { display: flex; flex-wrap: wrap; gap: 12px; }
            figure { margin: 0; width: 320px; background: #fff; padding: 6px; border-radius: 6px; box-shadow: 0 1px 3px #0002; }
            figcaption { font-size: 12px; margin-top: 4px; line-height: 1.5; }
            small { color: #666; }
            </style></head>
            <body data-total="\(gallery.samples.count)" data-loaded="0">
            <h1>Osprey gallery</h1>
            <p>Each tile is a signed imgproxy URL answered by this osprey-server, from the sample origin at
            <code>\(escaped(gallery.originPrefix))</code>. Under it: the source, the answer (format, the tier that
            answered, time). Reload: the answers come back as kept.</p>
            <main>
            \(tiles)
            </main>
            <script>
            (async () => {
              const figures = [...document.querySelectorAll('figure[data-src]')];
              let loaded = 0;
              await Promise.all(figures.map(async (figure) => {
                // As an <img> asks, so the format is negotiated as it would be; never from the
                // browser's cache, so a reload shows where the server found each answer.
                const answer = await fetch(figure.dataset.src,
                  { cache: 'no-store', headers: { Accept: 'image/avif,image/webp,image/*,*/*;q=0.8' } });
                const [tier, duration] = (answer.headers.get('server-timing') || '').split(';dur=');
                const type = answer.headers.get('content-type') || '';
                figure.dataset.tier = tier;
                figure.dataset.format = type;
                figure.querySelector('.answer').textContent = `answer: ${type.replace('image/', '')}, ${tier}, ${duration} ms`;
                const image = figure.querySelector('img');
                image.src = URL.createObjectURL(await answer.blob());
                try { await image.decode(); } catch (error) { figure.dataset.failed = String(error); return; }
                document.body.dataset.loaded = String(++loaded);
              }));
              document.body.dataset.ready = 'yes';
            })();
            </script>
            </body></html>
            """
    }

    static func escaped(_ text: String) -> String {
        text.replacingOccurrences(of: "&", with: "&amp;").replacingOccurrences(of: "<", with: "&lt;")
            .replacingOccurrences(of: ">", with: "&gt;").replacingOccurrences(of: "\"", with: "&quot;")
    }
}
