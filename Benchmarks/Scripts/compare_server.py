#!/usr/bin/env python3
"""osprey-server against thumbor, each on both cores, thumbnailing one 12 MP JPEG served by
nginx on loopback.

thumbor runs with its Pillow engine, one process per core (--processes 2), its original
storage on (files) and no result storage; osprey-server with its defaults. wrk asks both to
fit the photo into a box of a random size from 200 to 1199 px on each side, as JPEG at
quality 80, from 4 connections for DURATION seconds after a warm-up, so neither can answer
from a cache of results. Prints requests per second, p50 and p99 latency, and the peak
resident memory of each server (the sum over thumbor's processes).

usage: compare_server.py OSPREY_SERVER THUMBOR WORK_DIR [DURATION]
"""
import os, re, shutil, signal, subprocess, sys, time, urllib.request

from photos import make_photos

osprey_server, thumbor, work = sys.argv[1], sys.argv[2], sys.argv[3]
duration = int(sys.argv[4]) if len(sys.argv) > 4 else 20
os.makedirs(work, exist_ok=True)
photo = make_photos(os.path.join(work, "www"), 1)[0]
origin_port, osprey_port, thumbor_port = 18091, 18092, 18093
source = f"http://127.0.0.1:{origin_port}/{os.path.basename(photo)}"

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

lua = os.path.join(work, "sizes.lua")


def write_lua(prefix, suffix):
    with open(lua, "w") as f:
        f.write(f"""math.randomseed(1)
request = function()
  local w, h = math.random(200, 1199), math.random(200, 1199)
  return wrk.format("GET", string.format("{prefix}", w, h) .. "{suffix}")
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
    for _ in range(200):
        try:
            urllib.request.urlopen(url, timeout=30).read()
            return
        except Exception:
            time.sleep(0.1)
    sys.exit(f"not ready: {url}")


def measure(name, argv, port, ready_path, prefix, suffix):
    base = f"http://127.0.0.1:{port}"
    # A session of its own, so the stop reaches thumbor's worker processes too.
    server = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True)
    try:
        wait_ready(base + ready_path)
        if server.poll() is not None:
            sys.exit(f"{name} exited at start (is its port taken?)")
        write_lua(prefix, suffix)
        subprocess.run(["wrk", "-t2", "-c4", "-d3s", "-s", lua, base], capture_output=True)  # warm-up: the original downloaded and stored
        out = subprocess.run(["wrk", "-t2", "-c4", f"-d{duration}s", "--latency", "-s", lua, base],
                             capture_output=True, text=True).stdout
        memory = peak(tree(server.pid))
    finally:
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        time.sleep(1)
    rps = float(re.search(r"Requests/sec:\s+([\d.]+)", out).group(1))
    def latency(p):
        value, unit = re.search(rf"\s{p}%\s+([\d.]+)(us|ms|s)", out).groups()
        return float(value) * {"us": 0.001, "ms": 1, "s": 1000}[unit]
    errors = re.search(r"Non-2xx or 3xx responses: (\d+)", out)
    return name, rps, latency(50), latency(99), memory, int(errors.group(1)) if errors else 0


subprocess.run(["nginx", "-c", conf, "-p", work], check=True)
try:
    shutil.rmtree(os.path.join(work, "osprey-cache"), ignore_errors=True)
    shutil.rmtree(os.path.join(work, "thumbor-storage"), ignore_errors=True)
    rows = [
        measure("osprey-server", [osprey_server, "--port", str(osprey_port), "--allow-unsigned", "--allow-origin", source,
                                  "--cache-dir", os.path.join(work, "osprey-cache")],
                osprey_port, "/health", f"/insecure/rs:fit:%d:%d/q:80/f:jpg/plain/", source),
        measure("thumbor (Pillow, 2 processes)", [thumbor, "--port", str(thumbor_port), "--processes", "2", "-c", thumbor_conf],
                thumbor_port, "/healthcheck", f"/unsafe/fit-in/%dx%d/filters:quality(80):format(jpeg)/", source),
    ]
finally:
    subprocess.run(["nginx", "-c", conf, "-p", work, "-s", "stop"])

print(f"| server ({duration} s, 4 connections, wrk) | requests/s | p50 | p99 | peak memory | errors |")
print("|---|---|---|---|---|---|")
for name, rps, p50, p99, memory, errors in rows:
    print(f"| {name} | {rps:.1f} | {p50:.0f} ms | {p99:.0f} ms | {memory / 1e6:.0f} MB | {errors} |")
print(f"\nosprey-server / thumbor: {rows[0][1] / rows[1][1]:.2f}× the requests per second, "
      f"{rows[0][4] / rows[1][4]:.2f}× the memory")
