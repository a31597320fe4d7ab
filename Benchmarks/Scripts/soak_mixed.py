#!/usr/bin/env python3
"""Mixed traffic against osprey-server (with and without a memory budget) and thumbor, each URL
asked once, with the servers' resident memory sampled every half second.

The replay: distinct URLs over real photographs (the gallery's and the corpus's camera JPEGs)
at many sizes, fitted or filled, as JPEG or WebP at qualities of 60–90; the same photos made
24 and 50 MP (libvips), some of them asked at full size as PNG; PNGs with alpha; AVIF, HEIC
and JPEG XL; 60-frame GIFs; and a tenth of failing sources (missing, and not images). The
origin is a threaded HTTP server on loopback. Each server starts over an empty cache, is
warmed up with each source once at a size the replay does not ask, runs the replay on
CONNECTIONS connections for SECONDS, then stays idle for IDLE seconds.

Reported for each server: requests a second (answers of any status), p50/p99, peak RSS of
the half-second samples and the kernel's high-water mark (VmHWM, which sees the peaks between
samples), RSS after the warm-up and after the idle time, and the answers by status. thumbor's
memory is its processes' together.

usage: soak_mixed.py OSPREY_SERVER WORK_DIR [--thumbor THUMBOR] [--budgets 0,300MB,150MB]
                     [--seconds 240] [--idle 60] [--connections 32] [--plot FILE.png] [--check]
--check (make test's run): one osprey-server per budget; fails unless the process lives to the
end, its RSS (sampled and the kernel's peak) stays within the budget, every request ends in 200,
404 (a missing source), 422 or 503, and the 50 MP photo asked at full size as PNG is 422.
"""
import argparse, http.client, json, os, random, re, shutil, signal, socket, subprocess, sys, threading, time
from functools import partial
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer

from PIL import Image

parser = argparse.ArgumentParser()
parser.add_argument("osprey")
parser.add_argument("work")
parser.add_argument("--thumbor")
parser.add_argument("--budgets", default="0,300MB,150MB")
parser.add_argument("--seconds", type=int, default=240)
parser.add_argument("--idle", type=int, default=60)
parser.add_argument("--connections", type=int, default=32)
parser.add_argument("--urls", type=int, default=20000)
parser.add_argument("--plot")
parser.add_argument("--check", action="store_true")
parser.add_argument("--from-results", help="report and plot a run's soak-results.json again, without running")
args = parser.parse_args()
args.osprey, args.work = os.path.abspath(args.osprey), os.path.abspath(args.work)
args.thumbor = args.thumbor and os.path.abspath(args.thumbor)
args.plot = args.plot and os.path.abspath(args.plot)

GALLERY = "/usr/share/backgrounds"
CORPUS = os.environ.get("OSPREY_CORPUS", os.path.join(os.path.dirname(os.path.abspath(__file__)), "../../../shared/corpus"))
inputs = os.path.join(args.work, "inputs")
os.makedirs(inputs, exist_ok=True)


def megabytes(text):
    text = text.strip().upper()
    return int(float(text[:-2]) * 1_000_000) if text.endswith("MB") else int(text)


def made(name, make):
    """inputs/name, made by `make(path)` unless it is there already."""
    path = os.path.join(inputs, name)
    if not os.path.exists(path):
        make(path + ".part")
        os.rename(path + ".part", path)
    return name


def link(path):
    name = os.path.basename(path)
    if not os.path.lexists(os.path.join(inputs, name)):
        os.symlink(os.path.abspath(path), os.path.join(inputs, name))
    return name


def vips(*argv):
    subprocess.run(["vips", *argv], check=True, capture_output=True)


photos = sorted(os.path.join(GALLERY, n) for n in os.listdir(GALLERY) if n.endswith(".jpg"))
photos += sorted(os.path.join(CORPUS, "photos", n) for n in os.listdir(os.path.join(CORPUS, "photos")) if n.endswith(".jpg"))
gallery = [p for p in photos if p.startswith(GALLERY)]
rng = random.Random(7)
kinds = {"photo": [link(p) for p in photos]}


def enlarged(source, out, megapixels):
    """`source` scaled by libvips to about `megapixels` (it writes by the output's extension)."""
    with Image.open(source) as image:
        scale = (megapixels * 1e6 / (image.width * image.height)) ** 0.5
    vips("resize", source, out + ".jpg[Q=85]", f"{scale:.4f}")
    os.rename(out + ".jpg", out)


largest = sorted(gallery, key=os.path.getsize, reverse=True)
kinds["24MP"] = [made(f"big24-{i}.jpg", partial(enlarged, p, megapixels=24)) for i, p in enumerate(largest[:2])]
kinds["50MP"] = [made(f"big50-{i}.jpg", partial(enlarged, p, megapixels=49.5)) for i, p in enumerate(largest[2:4])]


def alpha_png(source, out):
    with Image.open(source) as image:
        image = image.convert("RGB")
        image.thumbnail((2000, 2000))
        mask = Image.linear_gradient("L").resize(image.size)
        image.putalpha(mask)
        image.save(out, "PNG")


def converted(source, out, extension, argv):
    with Image.open(source) as image:
        image = image.convert("RGB")
        image.thumbnail((2000, 2000))
        image.save(out + ".png")
    subprocess.run([*argv(out + ".png", out + extension)], check=True, capture_output=True)
    os.rename(out + extension, out)
    os.remove(out + ".png")


def animation(source, out, frames=60):
    with Image.open(source) as image:
        image = image.convert("RGB")
        image.thumbnail((960, 960))
        w, h = image.size
        cuts = [image.crop((i * (w - 480) // frames, i * (h - 320) // frames, i * (w - 480) // frames + 480, i * (h - 320) // frames + 320))
                .quantize(64) for i in range(frames)]
        cuts[0].save(out, "GIF", save_all=True, append_images=cuts[1:], duration=40, loop=0)


kinds["png"] = [made(f"alpha-{i}.png", partial(alpha_png, p)) for i, p in enumerate(gallery[4:7])]
kinds["avif"] = [made(f"photo-{i}.avif", partial(converted, p, extension=".avif", argv=lambda i, o: ["vips", "heifsave", i, o, "--compression", "av1", "--Q", "50", "--effort", "0"]))
                 for i, p in enumerate(gallery[7:9])]
kinds["avif"] += [link(os.path.join(CORPUS, "avif", n)) for n in sorted(os.listdir(os.path.join(CORPUS, "avif"))) if n.endswith(".avif")][:6]
kinds["heic"] = [link(os.path.join(CORPUS, "heic", n)) for n in sorted(os.listdir(os.path.join(CORPUS, "heic"))) if n.endswith((".heic", ".heif"))]
kinds["jxl"] = [made(f"photo-{i}.jxl", partial(converted, p, extension=".jxl", argv=lambda i, o: ["cjxl", i, o, "-e", "3", "-q", "85"]))
                for i, p in enumerate(gallery[9:12])]
kinds["gif"] = [made(f"anim-{i}.gif", partial(animation, p)) for i, p in enumerate(gallery[12:15])]
kinds["failing"] = [f"missing-{i}.jpg" for i in range(20)]
kinds["failing"] += [made(f"garbage-{i}.jpg", lambda out, i=i: open(out, "wb").write(random.Random(i).randbytes(50_000)))
                     for i in range(5)]
WEIGHTS = {"photo": 45, "24MP": 5, "50MP": 3, "png": 8, "avif": 6, "heic": 6, "jxl": 5, "gif": 8, "failing": 10}


def replay(count, seed, sizes):
    """`count` distinct (source, options) pairs: (name, w, h, mode, format, quality, full)."""
    r = random.Random(seed)
    seen, jobs = set(), []
    names, weights = list(WEIGHTS), list(WEIGHTS.values())
    while len(jobs) < count:
        kind = r.choices(names, weights)[0]
        name = r.choice(kinds[kind])
        full = kind in ("24MP", "50MP") and r.random() < 0.1
        job = (name, 0, 0, "fit", "png", 80, True) if full else \
            (name, r.choice(sizes), r.choice(sizes), r.choice(["fit", "fill"]), r.choice(["jpg"] * 6 + ["webp"] * 3 + ["avif"]),
             r.randrange(60, 91), False)
        if job not in seen:
            seen.add(job)
            jobs.append(job)
    return jobs


def osprey_url(source, job):
    name, w, h, mode, fmt, q, full = job
    if full:
        return f"/insecure/plain/{source}/{name}@png"
    return f"/insecure/rs:{mode}:{w}:{h}/q:{q}/plain/{source}/{name}@{fmt}"


def thumbor_url(source, job):
    name, w, h, mode, fmt, q, full = job
    if full:
        return f"/unsafe/filters:format(png)/{source}/{name}"
    fmt = {"jpg": "jpeg"}.get(fmt, fmt)
    return f"/unsafe/{'fit-in/' if mode == 'fit' else ''}{w}x{h}/filters:quality({q}):format({fmt})/{source}/{name}"


class Origin(SimpleHTTPRequestHandler):
    def log_message(self, *a):
        pass


def tree(pid):
    children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    return [pid] + [p for c in children for p in tree(int(c))]


def status_field(pids, field):
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                total += int(re.search(rf"{field}:\s+(\d+)", f.read()).group(1)) * 1024
        except (OSError, AttributeError):
            pass
    return total


def osprey_metrics(port):
    """The memory figures osprey-server's /metrics reports (0 when it does not answer)."""
    figures = {"caches": 0, "in_flight": 0}
    if not port:
        return figures
    try:
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
        c.request("GET", "/metrics")
        text = c.getresponse().read().decode()
    except OSError:
        return figures
    for line in text.splitlines():
        name, _, value = line.rpartition(" ")
        if name.startswith("memory_cache_bytes"):
            figures["caches"] += int(float(value))
        elif name == "memory_budget_in_flight_bytes":
            figures["in_flight"] = int(float(value))
    return figures


def free_port():
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def run_load(port, paths, connections, seconds, results):
    """Each path once across `connections` threads, for at most `seconds`."""
    lock, cursor = threading.Lock(), [0]
    deadline = time.monotonic() + seconds

    def worker():
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        while time.monotonic() < deadline:
            with lock:
                if cursor[0] >= len(paths):
                    return
                path = paths[cursor[0]]
                cursor[0] += 1
            start = time.monotonic()
            try:
                conn.request("GET", path, headers={"Accept": "image/webp,image/avif,*/*"})
                response = conn.getresponse()
                response.read()
                status = response.status
            except Exception as error:
                status = type(error).__name__
                conn.close()
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            results.append((time.monotonic(), status, time.monotonic() - start))
        conn.close()

    threads = [threading.Thread(target=worker) for _ in range(connections)]
    [t.start() for t in threads]
    [t.join() for t in threads]


def soak(label, argv, port, ready, url, jobs, warmup, source, port_from_log=False, metrics_port=0):
    """One server through warm-up, replay and idle time: its figures and RSS samples (with
    osprey-server's memory caches and budget from its /metrics on `metrics_port`)."""
    log = open(os.path.join(args.work, f"{label.split()[0]}.log"), "w")
    server = subprocess.Popen(argv, stdout=subprocess.PIPE if port_from_log else log, stderr=log, text=True, start_new_session=True)
    try:
        if port_from_log:
            line = server.stdout.readline()
            match = re.search(r"listening on http://[^:]+:(\d+)/", line)
            if not match:
                sys.exit(f"{label}: did not start: {line}")
            port = int(match.group(1))
            threading.Thread(target=lambda: [log.write(l) for l in server.stdout], daemon=True).start()
        for _ in range(600):
            try:
                c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
                c.request("GET", ready)
                if c.getresponse().status == 200:
                    break
            except OSError:
                time.sleep(0.1)
        samples, stop, t0 = [], threading.Event(), time.monotonic()

        def sampler():
            while not stop.is_set():
                pids, figures = tree(server.pid), osprey_metrics(metrics_port)
                samples.append((time.monotonic() - t0, status_field(pids, "VmRSS"), status_field(pids, "VmHWM"),
                                figures["caches"], figures["in_flight"]))
                stop.wait(0.5)
        threading.Thread(target=sampler, daemon=True).start()
        warm_results = []
        run_load(port, [url(source, j) for j in warmup], args.connections, 600, warm_results)
        time.sleep(2)
        after_warmup = status_field(tree(server.pid), "VmRSS")
        caches_after_warmup = osprey_metrics(metrics_port)["caches"] if metrics_port else None
        results, start = [], time.monotonic()
        run_load(port, [url(source, j) for j in jobs], args.connections, args.seconds, results)
        elapsed = time.monotonic() - start
        loaded_until = time.monotonic() - t0
        checks = {}
        if args.check:
            full = ("big50-0.jpg", 0, 0, "fit", "png", 80, True)
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
            c.request("GET", url(source, full))
            checks["50 MP at full size as PNG"] = c.getresponse().status
        time.sleep(args.idle)
        after_idle = status_field(tree(server.pid), "VmRSS")
        caches_after_idle = osprey_metrics(metrics_port)["caches"] if metrics_port else None
        peak_kernel = status_field(tree(server.pid), "VmHWM")
        alive = server.poll() is None
        stop.set()
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(server.pid, signal.SIGKILL)
        log.close()
    latencies = sorted(r[2] for r in results)
    statuses = {}
    for _, status, _ in results:
        statuses[str(status)] = statuses.get(str(status), 0) + 1
    pick = lambda p: latencies[min(len(latencies) - 1, int(len(latencies) * p))] * 1000 if latencies else 0
    return {"label": label, "requests": len(results), "rps": len(results) / elapsed, "p50": pick(0.5), "p99": pick(0.99),
            "peak": max([s[1] for s in samples] + [0]), "kernel_peak": peak_kernel, "after_warmup": after_warmup, "after_idle": after_idle,
            "caches_after_warmup": caches_after_warmup, "caches_after_idle": caches_after_idle,
            "statuses": statuses, "alive": alive, "samples": samples, "loaded_until": loaded_until, "checks": checks,
            "exit": server.returncode}


if args.from_results:
    with open(args.from_results) as f:
        runs = json.load(f)
    for run in runs:
        # Runs recorded before the kernel's peak was kept apart: it is in the samples' third field.
        run.setdefault("kernel_peak", max([s[2] for s in run["samples"] if len(s) > 2] + [run["peak"]]))
        run["samples"] = [(s[0], s[1]) for s in run["samples"]]
        run["peak"] = max(s[1] for s in run["samples"])
    report_only = True
else:
    report_only = False
os.chdir(inputs)
origin = ThreadingHTTPServer(("127.0.0.1", 0), partial(Origin, directory=inputs))
threading.Thread(target=origin.serve_forever, daemon=True).start()
source = f"http://127.0.0.1:{origin.server_address[1]}"
jobs = replay(args.urls, 1, list(range(100, 1201)))
warmup = [(name, 1500, 1500, "fit", "jpg", 80, False) for kind in kinds for name in kinds[kind] if kind != "failing"]

if not report_only:
    runs = []
for budget in ([] if report_only else args.budgets.split(",")):
    limit = megabytes(budget) if budget != "0" else 0
    cache = os.path.join(args.work, f"osprey-cache-{budget}")
    shutil.rmtree(cache, ignore_errors=True)
    metrics_port = free_port()
    argv = [args.osprey, "--port", "0", "--allow-unsigned", "--allowed-source", source + "/", "--cache-dir", cache,
            "--max-memory", str(limit) + "B" if limit else "0", "--metrics-bind", f"127.0.0.1:{metrics_port}"]
    label = f"osprey-server, --max-memory {budget}" if limit else "osprey-server, no budget"
    run = soak(label, argv, 0, "/health", osprey_url, jobs, warmup, source, port_from_log=True, metrics_port=metrics_port)
    run["budget"] = limit
    runs.append(run)
if args.thumbor and not report_only:
    storage = os.path.join(args.work, "thumbor-storage")
    shutil.rmtree(storage, ignore_errors=True)
    conf = os.path.join(args.work, "thumbor.conf")
    with open(conf, "w") as f:
        f.write(f"ENGINE = 'thumbor.engines.pil'\nLOADER = 'thumbor.loaders.http_loader'\nSTORAGE = 'thumbor.storages.file_storage'\n"
                f"FILE_STORAGE_ROOT_PATH = '{storage}'\nRESULT_STORAGE = None\nALLOW_UNSAFE_URL = True\nQUALITY = 80\n"
                f"AUTO_WEBP = False\nMAX_PIXELS = 60000000\n")
    port = free_port()
    runs.append(soak("thumbor (Pillow, 2 processes)", [args.thumbor, "--port", str(port), "--processes", "2", "-c", conf], port,
                     "/healthcheck", thumbor_url, jobs, warmup, source))
origin.shutdown()

if not report_only:
    with open(os.path.join(args.work, "soak-results.json"), "w") as f:
        json.dump(runs, f)
print(f"mixed replay: {len(jobs)} distinct URLs, {args.connections} connections, {args.seconds} s, then {args.idle} s idle; "
      f"sources: {', '.join(f'{k} {len(v)}' for k, v in kinds.items())}")
print("| server | requests/s | p50 | p99 | peak RSS (0.5 s samples) | kernel's peak (VmHWM) | RSS after warm-up | "
      f"RSS after {args.idle} s idle | answers by status |")
print("|---|---|---|---|---|---|---|---|---|")
for r in runs:
    statuses = ", ".join(f"{k}: {v}" for k, v in sorted(r["statuses"].items()))
    print(f"| {r['label']} | {r['rps']:.1f} | {r['p50']:.0f} ms | {r['p99']:.0f} ms | {r['peak'] / 1e6:.0f} MB | "
          f"{r['kernel_peak'] / 1e6:.0f} MB | {r['after_warmup'] / 1e6:.0f} MB | {r['after_idle'] / 1e6:.0f} MB | {statuses} |")
free = next((r for r in runs if r.get("budget") == 0), None)
for r in runs:
    if r.get("budget"):
        line = f"{r['label']}: peak {r['peak'] / 1e6:.0f} MB sampled, {r['kernel_peak'] / 1e6:.0f} MB the kernel's, of {r['budget'] / 1e6:.0f} MB"
        if free:
            line += f"; {r['rps'] / free['rps']:.2f}× the requests a second without a budget"
        print(line)
    if r["after_warmup"]:
        print(f"{r['label']}: RSS after {args.idle} s idle {r['after_idle'] / r['after_warmup']:.2f}× its level after the warm-up")
    if r.get("caches_after_idle") is not None and r["after_warmup"] > r["caches_after_warmup"]:
        print(f"{r['label']}: memory caches {r['caches_after_warmup'] / 1e6:.0f} MB after the warm-up, "
              f"{r['caches_after_idle'] / 1e6:.0f} MB after idle; RSS less them "
              f"{(r['after_idle'] - r['caches_after_idle']) / (r['after_warmup'] - r['caches_after_warmup']):.2f}×")
    peak = max(r["samples"], key=lambda s: s[1], default=None)
    if peak and len(peak) > 4 and r.get("budget"):
        print(f"{r['label']}: at the sampled peak ({peak[1] / 1e6:.0f} MB) the budget counted {peak[4] / 1e6:.0f} MB "
              f"of work in flight and the memory caches held {peak[3] / 1e6:.0f} MB")

if args.plot:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    figure, axes = plt.subplots(figsize=(10, 5))
    for r in runs:
        axes.plot([s[0] for s in r["samples"]], [s[1] / 1e6 for s in r["samples"]], label=r["label"], linewidth=1)
    for r in runs:
        if r.get("budget"):
            axes.axhline(r["budget"] / 1e6, linestyle="--", linewidth=0.8, color="grey")
    axes.set_xlabel("seconds (warm-up, replay, then idle)")
    axes.set_ylabel("resident memory (MB)")
    axes.set_title(f"Mixed replay, {args.connections} connections, each URL once")
    axes.legend()
    figure.tight_layout()
    figure.savefig(args.plot, dpi=110)

if args.check:
    failures = []
    for r in runs:
        allowed = {"200", "404", "422", "503"}
        odd = {k: v for k, v in r["statuses"].items() if k not in allowed}
        if not r["alive"]:
            failures.append(f"{r['label']}: the server did not live to the end (exit {r['exit']})")
        if r.get("budget") and max(r["peak"], r["kernel_peak"]) > r["budget"]:
            failures.append(f"{r['label']}: RSS reached {max(r['peak'], r['kernel_peak']) / 1e6:.0f} MB, over its budget")
        if odd:
            failures.append(f"{r['label']}: answers outside 200/404/422/503: {odd}")
        if r.get("budget") and r["checks"].get("50 MP at full size as PNG") != 422:
            failures.append(f"{r['label']}: the 50 MP photo at full size was {r['checks'].get('50 MP at full size as PNG')}, not 422")
        if not r["requests"]:
            failures.append(f"{r['label']}: no request was answered")
    if failures:
        sys.exit("soak: " + "; ".join(failures))
    print("soak: every server lived, kept its budget and answered each request in its classes")
