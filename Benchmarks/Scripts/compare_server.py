#!/usr/bin/env python3
"""osprey-server against thumbor, with libvips in-process and djpeg as yardsticks, each URL
asked once.

Two workloads, each over 12 MP JPEGs served by nginx on loopback, fitted into a box of
400–600 px a side as JPEG at quality 80:
  one photo   — one photo at many sizes (responsive images: every width of one upload);
  40 photos   — 40 photos in turn, each at sizes of its own.
Every (photo, size) pair is asked once across all connections: wrk runs the script once per
thread, so each thread takes its own share of one seeded permutation (thread t the pairs at
t, t + T, t + 2T …). The warm-up asks each photo at a size outside the box, so the originals
are stored (osprey-server's disk cache, thumbor's file storage) and no measured answer is in
a cache of results. thumbor runs with its Pillow engine, one process per core, no result
storage. osprey-server runs twice: with its defaults, where the first size of a photo keeps
its reduced decode in memory and later sizes are resampled from it (a cache thumbor lacks),
and with its memory cache off (`--memory-limit 0`), where every answer decodes its photo.
Each workload starts with an empty cache folder.

A third measure: a conditional request after a restart (the ETag a client holds, sent to a
new osprey-server process over the same cache folder) against a new size of a photo after
a restart, each the median of 15 photos.

Yardsticks in the same run: libvips in-process (pyvips, imgproxy's engine) on two threads
over the same pairs, reading the files; and the JPEG decoder alone, `djpeg -scale 1/4`, the
reduced decode every answer needs at least.

usage: compare_server.py OSPREY_SERVER THUMBOR WORK_DIR [DURATION]
(pyvips comes from THUMBOR's virtualenv.)
"""
import os, random, re, shutil, signal, subprocess, sys, threading, time, urllib.request

from photos import make_photos

osprey_server, thumbor, work = sys.argv[1], sys.argv[2], sys.argv[3]
duration = int(sys.argv[4]) if len(sys.argv) > 4 else 20
venv_python = os.path.join(os.path.dirname(thumbor), "python")
THREADS, CONNECTIONS = 2, 4
BOX = range(400, 601)
os.makedirs(work, exist_ok=True)
photos = make_photos(os.path.join(work, "www"), 40)
origin_port, osprey_port, thumbor_port = 18091, 18092, 18093
sources = [f"http://127.0.0.1:{origin_port}/{os.path.basename(p)}" for p in photos]

conf = os.path.join(work, "nginx.conf")
with open(conf, "w") as f:
    f.write(f"""daemon on; worker_processes 1; pid {work}/nginx.pid; error_log {work}/nginx-error.log;
events {{ worker_connections 256; }}
http {{ access_log off; sendfile on;
  server {{ listen 127.0.0.1:{origin_port}; root {work}/www; }} }}
""")
thumbor_conf = os.path.join(work, "thumbor.conf")
with open(thumbor_conf, "w") as f:
    f.write(f"""ENGINE = 'thumbor.engines.pil'
LOADER = 'thumbor.loaders.http_loader'
STORAGE = 'thumbor.storages.file_storage'
FILE_STORAGE_ROOT_PATH = '{work}/thumbor-storage'
RESULT_STORAGE = None
ALLOW_UNSAFE_URL = True
QUALITY = 80
""")


def pairs(photo_count, seed):
    """Every (photo, width, height) of the workload, in one seeded order."""
    jobs = [(i % photo_count, w, h) for i, (w, h) in enumerate((w, h) for w in BOX for h in BOX)]
    random.Random(seed).shuffle(jobs)
    return jobs


def write_lua(path, jobs, url):
    """A wrk script: thread t asks jobs t, t + T, t + 2T … once each, then only /health."""
    with open(path, "w") as f:
        f.write("local jobs = {\n")
        for photo, w, h in jobs:
            f.write(f'  "{url(photo, w, h)}",\n')
        f.write(f"""}}
local threads = 0
function setup(thread) thread:set("tid", threads); threads = threads + 1 end
function init(args) next_job = tid + 1 end
request = function()
  local path = jobs[next_job]
  next_job = next_job + {THREADS}
  if path == nil then path = "/exhausted" end
  return wrk.format("GET", path)
end
""")


def peak(pids):
    total = 0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/status") as f:
                total += int(re.search(r"VmHWM:\s+(\d+)", f.read()).group(1)) * 1024
        except (OSError, AttributeError):
            pass
    return total


def tree(pid):
    children = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    return [pid] + [p for c in children for p in tree(int(c))]


def wait_ready(url):
    for _ in range(300):
        try:
            urllib.request.urlopen(url, timeout=30).read()
            return
        except Exception:
            time.sleep(0.1)
    sys.exit(f"not ready: {url}")


def warm(base, url, photo_count):
    """Each photo once at a size outside the box: its original stored, no result cached."""
    def one(i):
        urllib.request.urlopen(base + url(i, 300, 300), timeout=120).read()
    threads = [threading.Thread(target=lambda k=k: [one(i) for i in range(k, photo_count, THREADS)]) for k in range(THREADS)]
    [t.start() for t in threads]
    [t.join() for t in threads]


def serve(name, argv, port, ready_path, url, workloads, cache=None):
    """Each workload against one fresh server process over an empty `cache` folder:
    requests/s, p50, p99, errors, memory."""
    rows = []
    for label, photo_count, seed in workloads:
        base = f"http://127.0.0.1:{port}"
        if cache:
            shutil.rmtree(cache, ignore_errors=True)
        server = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            wait_ready(base + ready_path)
            if server.poll() is not None:
                sys.exit(f"{name} exited at start (is its port taken?)")
            warm(base, url, photo_count)
            lua = os.path.join(work, "jobs.lua")
            write_lua(lua, pairs(photo_count, seed), url)
            out = subprocess.run(["wrk", f"-t{THREADS}", f"-c{CONNECTIONS}", f"-d{duration}s", "--latency", "-s", lua, base],
                                 capture_output=True, text=True).stdout
            memory = peak(tree(server.pid))
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
            time.sleep(1)
        rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
        total = int(re.search(r"(\d+) requests in", out).group(1))

        def latency(p):
            value, unit = re.search(rf"\s{p}%\s+([\d.]+)(us|ms|s)", out).groups()
            return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
        errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
        if total > len(BOX) ** 2:
            sys.exit("the jobs ran out: some requests were asked twice")
        rows.append((label, name, rps, latency(50), latency(99), memory, int(errors.group(1)) if errors else 0))
    return rows


VIPS = r"""
import pyvips, sys, threading, time, random
photos, duration, threads, seed, count = sys.argv[1].split(","), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4]), int(sys.argv[5])
jobs = [(i % count, w, h) for i, (w, h) in enumerate((w, h) for w in range(400, 601) for h in range(400, 601))]
random.Random(seed).shuffle(jobs)
done = [0] * threads
def work(t):
    end = time.monotonic() + duration
    for photo, w, h in jobs[t::threads]:
        if time.monotonic() > end: break
        pyvips.Image.thumbnail(photos[photo], w, height=h).write_to_buffer(".jpg", Q=80)
        done[t] += 1
pyvips.cache_set_max(0)
start = time.monotonic()
ts = [threading.Thread(target=work, args=(t,)) for t in range(threads)]
[t.start() for t in ts]; [t.join() for t in ts]
print(sum(done) / (time.monotonic() - start))
"""


def vips(photo_count, seed):
    """Thumbnails a second from libvips in this machine's two threads, no HTTP."""
    out = subprocess.run([venv_python, "-c", VIPS, ",".join(photos[:photo_count]), str(duration), str(THREADS), str(seed),
                          str(photo_count)], capture_output=True, text=True, check=True).stdout
    return float(out.strip())


def djpeg_floor():
    """Decodes a second of the first photo at 1/4 scale, one djpeg per core at once."""
    rounds = 20
    start = time.monotonic()
    procs = [subprocess.Popen(["bash", "-c", f"for i in $(seq {rounds}); do djpeg -scale 1/4 -outfile /dev/null {photos[0]}; done"])
             for _ in range(THREADS)]
    [p.wait() for p in procs]
    return THREADS * rounds / (time.monotonic() - start)


def timed_get(url):
    """Milliseconds for one answer, and its ETag."""
    start = time.monotonic()
    with urllib.request.urlopen(url, timeout=120) as answer:
        answer.read()
        return (time.monotonic() - start) * 1000, answer.headers.get("ETag")


def timed_304(url, tag):
    """Milliseconds for a conditional request that must be answered 304."""
    start = time.monotonic()
    try:
        urllib.request.urlopen(urllib.request.Request(url, headers={"If-None-Match": tag}), timeout=120).read()
    except urllib.error.HTTPError as answer:
        if answer.code == 304:
            return (time.monotonic() - start) * 1000
        raise
    sys.exit(f"not answered 304 after a restart: {url}")


def conditional_after_restart(argv, port, url, cache):
    """Median ms of a conditional request after a restart, and of a new size after one."""
    base = f"http://127.0.0.1:{port}"
    shutil.rmtree(cache, ignore_errors=True)
    asked = range(15)

    def run(body):
        server = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            wait_ready(base + "/health")
            return body()
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)

    tags = run(lambda: {i: timed_get(base + url(i, 3000, 3000))[1] for i in asked})
    conditional = sorted(run(lambda: [timed_304(base + url(i, 3000, 3000), tags[i]) for i in asked]))
    new_size = sorted(run(lambda: [timed_get(base + url(i, 2900, 2900))[0] for i in asked]))
    return conditional[len(asked) // 2], new_size[len(asked) // 2]


WORKLOADS = [("one photo, many sizes", 1, 1), ("40 photos in turn", 40, 2)]
subprocess.run(["nginx", "-c", conf, "-p", work], check=True)
try:
    shutil.rmtree(os.path.join(work, "thumbor-storage"), ignore_errors=True)
    cache = os.path.join(work, "osprey-cache")
    osprey = [osprey_server, "--port", str(osprey_port), "--allow-unsigned", "--allowed-source",
              f"http://127.0.0.1:{origin_port}/", "--cache-dir", cache]
    osprey_url = lambda i, w, h: f"/insecure/rs:fit:{w}:{h}/q:80/plain/{sources[i]}@jpg"
    rows = serve("osprey-server", osprey, osprey_port, "/health", osprey_url, WORKLOADS, cache)
    rows += serve("osprey-server, no reductions (--memory-limit 0)", osprey + ["--memory-limit", "0"], osprey_port, "/health",
                  osprey_url, WORKLOADS, cache)
    rows += serve("thumbor (Pillow, 2 processes)", [thumbor, "--port", str(thumbor_port), "--processes", "2", "-c", thumbor_conf],
                  thumbor_port, "/healthcheck", lambda i, w, h: f"/unsafe/fit-in/{w}x{h}/filters:quality(80):format(jpeg)/{sources[i]}",
                  WORKLOADS)
    restart = conditional_after_restart(osprey, osprey_port, osprey_url, cache)
finally:
    subprocess.run(["nginx", "-c", conf, "-p", work, "-s", "stop"])
yardsticks = {label: vips(count, seed) for label, count, seed in WORKLOADS}
floor = djpeg_floor()

print(f"| workload ({duration} s, {CONNECTIONS} connections, each URL once) | server | requests/s | p50 | p99 | peak memory | errors |")
print("|---|---|---|---|---|---|---|")
for label, name, rps, p50, p99, memory, errors in rows:
    print(f"| {label} | {name} | {rps:.1f} | {p50:.0f} ms | {p99:.0f} ms | {memory / 1e6:.0f} MB | {errors} |")
for label, rate in yardsticks.items():
    print(f"| {label} | libvips in-process (pyvips, {THREADS} threads, no HTTP) | {rate:.1f} | | | | |")
print(f"| floor | djpeg -scale 1/4, one per core | {floor:.1f} decodes/s | | | | |")
print()
for label, _, _ in WORKLOADS:
    peer = next(r for r in rows if r[0] == label and r[1].startswith("thumbor"))
    for osprey in (r for r in rows if r[0] == label and r[1].startswith("osprey-server")):
        print(f"{label}, {osprey[1]}: {osprey[2] / peer[2]:.2f}× thumbor's requests per second at {osprey[5] / peer[5]:.2f}× "
              f"its memory; {osprey[2] / yardsticks[label]:.2f}× libvips in-process; {osprey[2] / floor:.2f}× the djpeg floor")
conditional, new_size = restart
print(f"after a restart (median of 15 photos, 3000 px JPEG): a conditional request {conditional:.1f} ms, a new size "
      f"{new_size:.1f} ms: {conditional / new_size:.3f}× the time")
