#!/usr/bin/env python3
"""osprey-server against thumbor, with libvips in-process, a resample-and-encode program and
djpeg as yardsticks, each URL asked once.

The photos are real ones: the demo gallery's (Debian's lomiri-wallpapers-16.04, 1.5–16 MP
camera JPEGs, most progressive) and the camera photos of ../shared/corpus/photos, 23 in all,
served by nginx on loopback. Three workloads, answered as JPEG at quality 80:
  one photo   — the gallery's largest photo fitted into boxes of 400–600 px a side (every width of
                one upload, as responsive images ask);
  all photos  — every photo in turn, each at sizes of its own;
  crops       — every photo's centre half cropped, then filled to a box of 400–600 px
                (imgproxy's `c:` with `rs:fill`, thumbor's manual crop with its size).
With OSPREY_BENCH_GENERATED=1 the first two run again over 40 generated 12 MP photos
(Benchmarks/Scripts/photos.py), reported apart: they decode about three times slower than a
camera's and so flatter any server that keeps reductions.
Every (photo, size) pair is asked once across all connections: wrk runs the script once per
thread, so each thread takes its own share of one seeded permutation (thread t the pairs at
t, t + T, t + 2T …). The warm-up asks each photo at a size outside the box, so the originals
are stored (osprey-server's disk cache, thumbor's file storage) and no measured answer is in
a cache of results. thumbor runs with its Pillow engine, one process per core, no result
storage. osprey-server runs twice: with its defaults, where the first size of a photo keeps
its reduced decode in memory and later sizes are resampled from it (a cache thumbor lacks),
and with its memory cache off (`--memory-limit 0`), where every answer decodes its photo.
Each workload starts with an empty cache folder. The servers' CPU time over the measured
requests gives each one's CPU per answer.

A fourth measure: a conditional request after a restart (the ETag a client holds, sent to a
new osprey-server process over the same cache folder) against a new size of a photo after
a restart, each the median of 15 photos.

Yardsticks in the same run: libvips in-process (pyvips, imgproxy's engine) on two threads
over the same pairs, reading the files; the bare work of an answer from a kept reduction,
libvips resampling the one photo's reduced decode (held in memory) into each box and
encoding it at q80 on one core; and the JPEG decoder alone, `djpeg -scale 1/8`, the reduced
decode of the one photo, one per core. Osprey's own resample and encode of the same
(Benchmarks/.build/release/ResampleEncode, built by make bench) runs alternated with three more
one-photo runs of osprey-server, so that the ratio of their CPU per answer does not take in
this VM's drift between minutes.

With OSPREY_BENCH_AGAINST=OTHER_SERVER (another build of osprey-server), the one-photo
workload also runs four times with each build, alternated (ABBA, BAAB …), and their medians
are reported: a change's effect on the server, apart from this VM's drift over minutes. With
OSPREY_BENCH_PAIRED_ONLY=1 as well, that is all it runs.

usage: compare_server.py OSPREY_SERVER THUMBOR WORK_DIR [DURATION]
(pyvips comes from THUMBOR's virtualenv.)
"""
import os, random, re, shutil, signal, statistics, subprocess, sys, threading, time, urllib.request

from PIL import Image
from photos import make_photos

osprey_server, thumbor, work = sys.argv[1], sys.argv[2], sys.argv[3]
duration = int(sys.argv[4]) if len(sys.argv) > 4 else 20
venv_python = os.path.join(os.path.dirname(thumbor), "python")
THREADS, CONNECTIONS = 2, 4
BOX = range(400, 601)
GALLERY = "/usr/share/backgrounds"
CORPUS = os.environ.get("OSPREY_CORPUS", os.path.join(os.path.dirname(__file__), "../../../shared/corpus"))
os.makedirs(work, exist_ok=True)
www = os.path.join(work, "www")
os.makedirs(www, exist_ok=True)


def linked(paths):
    """Each photo linked into nginx's folder under its own name."""
    names = []
    for path in paths:
        name = os.path.basename(path)
        link = os.path.join(www, name)
        if not os.path.lexists(link):
            os.symlink(os.path.abspath(path), link)
        names.append(name)
    return names


real = sorted(os.path.join(GALLERY, n) for n in os.listdir(GALLERY) if n.endswith(".jpg"))
real += sorted(os.path.join(CORPUS, "photos", n) for n in os.listdir(os.path.join(CORPUS, "photos")) if n.endswith(".jpg"))


def displayed_size(path):
    """Width and height after the EXIF orientation, as both servers crop them."""
    with Image.open(path) as image:
        width, height = image.size
        return (height, width) if image.getexif().get(0x0112, 1) in (5, 6, 7, 8) else (width, height)


sizes = {os.path.basename(p): displayed_size(p) for p in real}
gallery = [p for p in real if p.startswith(GALLERY)]
largest = max(gallery, key=lambda p: sizes[os.path.basename(p)][0] * sizes[os.path.basename(p)][1])
real_names = linked(real)
one_name = os.path.basename(largest)
origin_port, osprey_port, thumbor_port = 18091, 18092, 18093
source = lambda name: f"http://127.0.0.1:{origin_port}/{name}"

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


def pairs(names, seed):
    """Every (photo, width, height) of the workload, in one seeded order."""
    jobs = [(names[i % len(names)], w, h) for i, (w, h) in enumerate((w, h) for w in BOX for h in BOX)]
    random.Random(seed).shuffle(jobs)
    return jobs


def centre_half(name):
    """The centre half (a side) of a photo as it is displayed: (left, top, width, height)."""
    width, height = sizes[name]
    return width // 4, height // 4, width // 2, height // 2


def osprey_url(name, w, h, kind):
    if kind == "crop":
        _, _, cw, ch = centre_half(name)
        return f"/insecure/c:{cw}:{ch}/rs:fill:{w}:{h}/q:80/plain/{source(name)}@jpg"
    return f"/insecure/rs:fit:{w}:{h}/q:80/plain/{source(name)}@jpg"


def thumbor_url(name, w, h, kind):
    if kind == "crop":
        left, top, cw, ch = centre_half(name)
        return f"/unsafe/{left}x{top}:{left + cw}x{top + ch}/{w}x{h}/filters:quality(80):format(jpeg)/{source(name)}"
    return f"/unsafe/fit-in/{w}x{h}/filters:quality(80):format(jpeg)/{source(name)}"


def write_lua(path, jobs, url):
    """A wrk script: thread t asks jobs t, t + T, t + 2T … once each, then only /health."""
    with open(path, "w") as f:
        f.write("local jobs = {\n")
        for name, w, h in jobs:
            f.write(f'  "{url(name, w, h)}",\n')
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


def cpu_seconds(pids):
    """User and system CPU time of the processes so far."""
    total = 0.0
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat") as f:
                fields = f.read().rsplit(")", 1)[1].split()
            total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
        except (OSError, IndexError):
            pass
    return total


def warm(base, url, names):
    """Each photo once at a size outside the box: its original stored, no result cached."""
    def one(name):
        urllib.request.urlopen(base + url(name, 300, 300, "fit"), timeout=120).read()
    threads = [threading.Thread(target=lambda k=k: [one(n) for n in names[k::THREADS]]) for k in range(THREADS)]
    [t.start() for t in threads]
    [t.join() for t in threads]


def serve(name, argv, port, ready_path, url, workloads, cache=None):
    """Each workload against one fresh server process over an empty `cache` folder:
    requests/s, p50, p99, errors, memory, CPU ms per answer."""
    rows = []
    for label, names, seed, kind in workloads:
        base = f"http://127.0.0.1:{port}"
        if cache:
            shutil.rmtree(cache, ignore_errors=True)
        server = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            wait_ready(base + ready_path)
            if server.poll() is not None:
                sys.exit(f"{name} exited at start (is its port taken?)")
            warm(base, url, names)
            lua = os.path.join(work, "jobs.lua")
            write_lua(lua, pairs(names, seed), lambda n, w, h: url(n, w, h, kind))
            processes = tree(server.pid)
            before = cpu_seconds(processes)
            out = subprocess.run(["wrk", f"-t{THREADS}", f"-c{CONNECTIONS}", f"-d{duration}s", "--latency", "-s", lua, base],
                                 capture_output=True, text=True).stdout
            cpu = cpu_seconds(processes) - before
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
        rows.append((label, name, rps, latency(50), latency(99), memory, int(errors.group(1)) if errors else 0,
                     cpu * 1000 / max(total, 1)))
    return rows


VIPS = r"""
import pyvips, sys, threading, time, random
photos, duration, threads, seed = sys.argv[1].split(","), float(sys.argv[2]), int(sys.argv[3]), int(sys.argv[4])
jobs = [(i % len(photos), w, h) for i, (w, h) in enumerate((w, h) for w in range(400, 601) for h in range(400, 601))]
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

# The bare work of an answer from a kept reduction: the reduced decode made once and held in
# memory, then each box resampled from it (Lanczos-3, as vips_thumbnail does) and encoded.
RESAMPLE = r"""
import pyvips, sys, time
photo, shrink, duration = sys.argv[1], int(sys.argv[2]), float(sys.argv[3])
pyvips.cache_set_max(0)
reduction = pyvips.Image.new_from_file(photo, shrink=shrink).copy_memory()
done, start = 0, time.monotonic()
for h in range(400, 601, 7):
    for w in range(400, 601):
        reduction.thumbnail_image(w, height=h).write_to_buffer(".jpg", Q=80)
        done += 1
    if time.monotonic() - start > duration: break
print((time.monotonic() - start) * 1000 / done)
"""


def vips(names, seed):
    """Thumbnails a second from libvips in this machine's two threads, no HTTP."""
    paths = [os.path.join(www, n) for n in names]
    out = subprocess.run([venv_python, "-c", VIPS, ",".join(paths), str(duration), str(THREADS), str(seed)],
                         capture_output=True, text=True, check=True).stdout
    return float(out.strip())


def reduction_scale(name):
    """The DCT scale osprey-server decodes `name` at for the warm-up's box (300 px), as its
    JPEG decoder chooses it: the smallest decode still covering that size."""
    width, height = sizes[name]
    fit = min(300 / width, 300 / height)
    for denominator in (8, 4, 2):
        if -(-width // denominator) >= round(width * fit) and -(-height // denominator) >= round(height * fit):
            return denominator
    return 1


def resample_yardstick(name):
    """Milliseconds of one core per answer resampled from a kept reduction and encoded."""
    env = dict(os.environ, VIPS_CONCURRENCY="1")
    out = subprocess.run([venv_python, "-c", RESAMPLE, os.path.join(www, name), str(reduction_scale(name)), str(duration)],
                         capture_output=True, text=True, check=True, env=env).stdout
    return float(out.strip())


RESAMPLE_ENCODE = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", ".build", "release", "ResampleEncode")


def own_resample_encode(name, seconds=10):
    """Milliseconds of one core per answer for Osprey's own resample and encode of `name`'s
    kept reduction into the workload's boxes (Benchmarks/Sources/ResampleEncode, no server)."""
    out = subprocess.run([RESAMPLE_ENCODE, os.path.join(www, name), str(reduction_scale(name)), str(seconds)],
                         capture_output=True, text=True, check=True).stdout
    return float(re.search(r"= ([\d.]+) ms", out).group(1))


def alternated_cpu(argv, cache, rounds=3):
    """osprey-server's CPU per answer on the one photo and ResampleEncode's, alternated
    (yardstick, server, yardstick …): this VM's speed drifts by up to a fifth over minutes, and
    alternating puts the drift on both sides of the ratio."""
    own, served = [own_resample_encode(one_name)], []
    for _ in range(rounds):
        served.append(serve("osprey-server", argv, osprey_port, "/health", osprey_url, WORKLOADS[:1], cache)[0][7])
        own.append(own_resample_encode(one_name))
    return served, own


def paired_builds(argv, other, cache, rounds=4):
    """The one-photo workload with this build and `other`, alternated: requests/s and CPU per
    answer of each run, by build."""
    runs = {"this build": [], "the other build": []}
    for round in range(rounds):
        for build in (["this build", "the other build"] if round % 2 == 0 else ["the other build", "this build"]):
            server = argv if build == "this build" else [other] + argv[1:]
            row = serve("osprey-server", server, osprey_port, "/health", osprey_url, WORKLOADS[:1], cache)[0]
            runs[build].append((row[2], row[7]))
    return runs


def print_builds(builds):
    for build, runs in builds.items():
        print(f"one photo, {build}, alternated: {statistics.median(r for r, _ in runs):.1f} requests/s, "
              f"{statistics.median(c for _, c in runs):.2f} ms CPU per answer (medians; runs: "
              + ", ".join(f"{r:.1f}/{c:.2f}" for r, c in runs) + ")")


def djpeg_floor(name):
    """Decodes a second of `name` at its reduction's scale, one djpeg per core at once."""
    rounds = 20
    path = os.path.join(www, name)
    start = time.monotonic()
    procs = [subprocess.Popen(["bash", "-c", f"for i in $(seq {rounds}); do djpeg -scale 1/{reduction_scale(name)} -outfile /dev/null {path}; done"])
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


def conditional_after_restart(argv, port, names, cache):
    """Median ms of a conditional request after a restart, and of a new size after one."""
    base = f"http://127.0.0.1:{port}"
    shutil.rmtree(cache, ignore_errors=True)
    asked = names[:15]

    def run(body):
        server = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
        try:
            wait_ready(base + "/health")
            return body()
        finally:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)

    tags = run(lambda: {n: timed_get(base + osprey_url(n, 3000, 3000, "fit"))[1] for n in asked})
    conditional = sorted(run(lambda: [timed_304(base + osprey_url(n, 3000, 3000, "fit"), tags[n]) for n in asked]))
    new_size = sorted(run(lambda: [timed_get(base + osprey_url(n, 2900, 2900, "fit"))[0] for n in asked]))
    return conditional[len(asked) // 2], new_size[len(asked) // 2]


WORKLOADS = [("one photo, many sizes", [one_name], 1, "fit"), (f"{len(real_names)} photos in turn", real_names, 2, "fit"),
             (f"crops of {len(real_names)} photos", real_names, 3, "crop")]
if os.environ.get("OSPREY_BENCH_GENERATED") == "1":
    generated = linked(make_photos(os.path.join(work, "generated"), 40))
    for name in generated:
        sizes[name] = displayed_size(os.path.join(www, name))
    WORKLOADS += [("generated: one photo, many sizes", generated[:1], 1, "fit"), ("generated: 40 photos in turn", generated, 2, "fit")]
subprocess.run(["nginx", "-c", conf, "-p", work], check=True)
try:
    shutil.rmtree(os.path.join(work, "thumbor-storage"), ignore_errors=True)
    cache = os.path.join(work, "osprey-cache")
    osprey = [osprey_server, "--port", str(osprey_port), "--allow-unsigned", "--allowed-source",
              f"http://127.0.0.1:{origin_port}/", "--cache-dir", cache]
    if os.environ.get("OSPREY_BENCH_PAIRED_ONLY") == "1":
        print_builds(paired_builds(osprey, os.environ["OSPREY_BENCH_AGAINST"], cache))
        sys.exit(0)
    rows = serve("osprey-server", osprey, osprey_port, "/health", osprey_url, WORKLOADS, cache)
    rows += serve("osprey-server, no reductions (--memory-limit 0)", osprey + ["--memory-limit", "0"], osprey_port, "/health",
                  osprey_url, WORKLOADS, cache)
    rows += serve("thumbor (Pillow, 2 processes)", [thumbor, "--port", str(thumbor_port), "--processes", "2", "-c", thumbor_conf],
                  thumbor_port, "/healthcheck", thumbor_url, WORKLOADS)
    restart = conditional_after_restart(osprey, osprey_port, real_names, cache)
    served, own = alternated_cpu(osprey, cache)
    against = os.environ.get("OSPREY_BENCH_AGAINST")
    builds = paired_builds(osprey, against, cache) if against else None
finally:
    subprocess.run(["nginx", "-c", conf, "-p", work, "-s", "stop"])
yardsticks = {label: vips(names, seed) for label, names, seed, kind in WORKLOADS if kind == "fit"}
resample_ms = resample_yardstick(one_name)
floor = djpeg_floor(one_name)

print(f"photos: {len(real_names)} real (the largest, {one_name}, {sizes[one_name][0]}×{sizes[one_name][1]}, is the one photo)")
print(f"| workload ({duration} s, {CONNECTIONS} connections, each URL once) | server | requests/s | p50 | p99 | peak memory | CPU per answer | errors |")
print("|---|---|---|---|---|---|---|---|")
for label, name, rps, p50, p99, memory, errors, cpu in rows:
    print(f"| {label} | {name} | {rps:.1f} | {p50:.0f} ms | {p99:.0f} ms | {memory / 1e6:.0f} MB | {cpu:.1f} ms | {errors} |")
for label, rate in yardsticks.items():
    print(f"| {label} | libvips in-process (pyvips, {THREADS} threads, no HTTP) | {rate:.1f} | | | | | |")
print(f"| one photo | resample the kept reduction (1/{reduction_scale(one_name)}) and encode: libvips, one core | | | | | {resample_ms:.1f} ms | |")
print(f"| one photo | osprey-server, alternated with the next row | | | | | {statistics.median(served):.1f} ms "
      f"({', '.join(f'{v:.1f}' for v in served)}) | |")
print(f"| one photo | Osprey's own resample of the kept reduction and encode (ResampleEncode), one core | | | | | "
      f"{statistics.median(own):.1f} ms ({', '.join(f'{v:.1f}' for v in own)}) | |")
print(f"| one photo | djpeg -scale 1/{reduction_scale(one_name)}, one per core | {floor:.1f} decodes/s | | | | | |")
print()
for label, _, _, _ in WORKLOADS:
    peer = next(r for r in rows if r[0] == label and r[1].startswith("thumbor"))
    for osprey in (r for r in rows if r[0] == label and r[1].startswith("osprey-server")):
        line = f"{label}, {osprey[1]}: {osprey[2] / peer[2]:.2f}× thumbor's requests per second at {osprey[5] / peer[5]:.2f}× its memory"
        if label in yardsticks:
            line += f"; {osprey[2] / yardsticks[label]:.2f}× libvips in-process"
        if label == WORKLOADS[0][0]:
            line += f"; CPU per answer {osprey[7] / resample_ms:.2f}× libvips' resample-and-encode"
        print(line)
print(f"one photo, CPU per answer alternated with Osprey's own resample and encode: "
      f"{statistics.median(served) / statistics.median(own):.2f}× (medians of {len(served)} and {len(own)})")
conditional, new_size = restart
print(f"after a restart (median of 15 photos, 3000 px JPEG): a conditional request {conditional:.1f} ms, a new size "
      f"{new_size:.1f} ms: {conditional / new_size:.3f}× the time")
if builds:
    print_builds(builds)
