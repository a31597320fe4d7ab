#!/usr/bin/env python3
"""A fleet of three osprey-server instances (release build) sharing one redis-server, behind
one origin on loopback that serves 50 distinct 1600x1200 JPEGs and counts what it serves.

The 50 thumbnails (200x200 fill, unsigned imgproxy URLs) are loaded through instance A, then
B, then C; the same is done by a second fleet without the shared tier. Reports the origin's
downloads and, for each instance, the median and 90th-percentile latency per tier reported
in Server-Timing.

usage: fleet.py OSPREY_SERVER_BINARY WORK_DIR
"""
import http.server, json, os, shutil, socket, statistics, subprocess, sys, threading, time, urllib.request

server_binary, work = sys.argv[1], sys.argv[2]
COUNT, W, H = 50, 1600, 1200
photos = os.path.join(work, "photos")
os.makedirs(photos, exist_ok=True)


def make_photos():
    from PIL import Image, ImageDraw, ImageFilter
    import random
    for i in range(COUNT):
        path = os.path.join(photos, f"photo-{i:02d}.jpg")
        if os.path.exists(path):
            continue
        rng = random.Random(1000 + i)
        small = Image.new("RGB", (W // 8, H // 8))
        draw = ImageDraw.Draw(small)
        for _ in range(30):
            x, y, r = rng.randrange(W // 8), rng.randrange(H // 8), rng.randrange(8, 80)
            draw.ellipse((x - r, y - r, x + r, y + r), fill=(rng.randrange(256), rng.randrange(256), rng.randrange(256)))
        small.filter(ImageFilter.GaussianBlur(4)).resize((W, H), Image.BICUBIC).save(path, quality=88)


served = {"count": 0}


class Origin(http.server.BaseHTTPRequestHandler):
    """/origin/ lists the photos as JSON; /origin/NAME serves one (and is counted)."""
    def do_GET(self):
        names = sorted(os.listdir(photos))
        if self.path == "/origin/":
            body, kind = json.dumps(names).encode(), "application/json"
        elif self.path.startswith("/origin/") and self.path[8:] in names:
            served["count"] += 1
            body, kind = open(os.path.join(photos, self.path[8:]), "rb").read(), "image/jpeg"
        else:
            self.send_error(404)
            return
        self.send_response(200)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for(url, seconds=60):
    deadline = time.time() + seconds
    while time.time() < deadline:
        try:
            urllib.request.urlopen(url, timeout=2).read()
            return
        except Exception:
            time.sleep(0.2)
    raise SystemExit(f"fleet: {url} did not answer")


def instance(origin_base, redis_url):
    port = free_port()
    cache = os.path.join(work, f"cache-{port}")
    shutil.rmtree(cache, ignore_errors=True)
    argv = [server_binary, "--port", str(port), "--cache-dir", cache, "--allow-unsigned", "--allowed-source", origin_base + "/origin/"]
    if redis_url:
        argv += ["--shared-cache", redis_url]
    process = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    wait_for(f"http://127.0.0.1:{port}/health")
    return process, port


def load_all(port, origin_base):
    """(tier, milliseconds) for each photo's thumbnail through the instance on `port`."""
    out = []
    for name in sorted(os.listdir(photos)):
        started = time.perf_counter()
        with urllib.request.urlopen(f"http://127.0.0.1:{port}/insecure/rs:fill:200:200/plain/{origin_base}/origin/{name}@jpg",
                                    timeout=60) as r:
            r.read()
            tier = r.headers.get("Server-Timing", "none").split(";")[0]
        out.append((tier, (time.perf_counter() - started) * 1000))
    return out


def fleet(origin_base, redis_url):
    start = served["count"]
    rows = []
    for label in "ABC":
        process, port = instance(origin_base, redis_url)
        try:
            rows.append((label, load_all(port, origin_base)))
        finally:
            process.terminate()
            process.wait()
    return served["count"] - start, rows


def summary(results):
    tiers = {}
    for tier, ms in results:
        tiers.setdefault(tier, []).append(ms)
    return ", ".join(f"{len(v)} × {t}: median {statistics.median(v):.1f} ms, p90 {sorted(v)[int(len(v) * 0.9) - 1]:.1f} ms"
                     for t, v in sorted(tiers.items()))


make_photos()
origin_port = free_port()
server = http.server.ThreadingHTTPServer(("127.0.0.1", origin_port), Origin)
threading.Thread(target=server.serve_forever, daemon=True).start()
origin_base = f"http://127.0.0.1:{origin_port}"
redis_port = free_port()
redis = subprocess.Popen(["redis-server", "--bind", "127.0.0.1", "--port", str(redis_port), "--save", "", "--appendonly", "no"],
                         stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
time.sleep(0.5)
try:
    shared_downloads, shared_rows = fleet(origin_base, f"redis://127.0.0.1:{redis_port}/0")
    alone_downloads, alone_rows = fleet(origin_base, None)
finally:
    redis.terminate()
    server.shutdown()

print(f"fleet: {COUNT} distinct {W}x{H} JPEGs, thumbnails 200x200 fill, instances A, B, C in turn")
print("| fleet | origin downloads | instance | tiers and latency |")
print("|---|---|---|---|")
for label, downloads, rows in (("shared Redis", shared_downloads, shared_rows), ("no shared tier", alone_downloads, alone_rows)):
    for name, results in rows:
        print(f"| {label} | {downloads} | {name} | {summary(results)} |")
