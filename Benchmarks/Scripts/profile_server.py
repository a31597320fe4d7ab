#!/usr/bin/env python3
"""Where osprey-server's CPU goes answering sizes of one photo from its kept reduction: the
one-photo workload of compare_server.py (boxes of 400–600 px, JPEG q80, each URL once, wrk with
2 threads and 4 connections) for 15 s under `perf record -g` (the server started under it), then
the shares that Docs/BENCHMARKS.md reports, from `perf report --children`.

usage: profile_server.py OSPREY_SERVER PHOTO WORK_DIR
"""
import os, random, re, shutil, signal, subprocess, sys, time, urllib.request

server, photo, work = sys.argv[1], os.path.abspath(sys.argv[2]), os.path.abspath(sys.argv[3])
origin_port, port = 18191, 18192
os.makedirs(os.path.join(work, "www"), exist_ok=True)
link = os.path.join(work, "www", "p.jpg")
if os.path.lexists(link):
    os.remove(link)
os.symlink(photo, link)
conf = os.path.join(work, "nginx.conf")
with open(conf, "w") as f:
    f.write(f"""daemon on; worker_processes 1; pid {work}/nginx.pid; error_log {work}/nginx-error.log;
events {{ worker_connections 256; }} http {{ access_log off; server {{ listen 127.0.0.1:{origin_port}; root {work}/www; }} }}""")
url = lambda w, h: f"/insecure/rs:fit:{w}:{h}/q:80/plain/http://127.0.0.1:{origin_port}/p.jpg@jpg"
jobs = [(w, h) for w in range(400, 601) for h in range(400, 601)]
random.Random(1).shuffle(jobs)
lua = os.path.join(work, "jobs.lua")
with open(lua, "w") as f:
    f.write("local jobs = {\n" + "".join(f'"{url(w, h)}",\n' for w, h in jobs) + "}\n"
            "local threads = 0\nfunction setup(t) t:set('tid', threads); threads = threads + 1 end\n"
            "function init(a) n = tid + 1 end\n"
            "request = function() local p = jobs[n]; n = n + 2; if p == nil then p = '/x' end; return wrk.format('GET', p) end\n")

subprocess.run(["nginx", "-c", conf, "-p", work], check=True)
cache = os.path.join(work, "cache")
shutil.rmtree(cache, ignore_errors=True)
data = os.path.join(work, "perf.data")
# The server starts under perf with recording off, so every thread it makes is followed (the
# image work runs on threads made for it), and recording starts after the warm-up's decode.
control, ack = os.path.join(work, "perf.control"), os.path.join(work, "perf.ack")
for fifo in (control, ack):
    if os.path.exists(fifo):
        os.remove(fifo)
    os.mkfifo(fifo)
process = subprocess.Popen(["perf", "record", "-F", "999", "-g", "-o", data, "-D", "-1", "--control", f"fifo:{control},{ack}", "--",
                            server, "--port", str(port), "--allow-unsigned", "--allowed-source", f"http://127.0.0.1:{origin_port}/",
                            "--cache-dir", cache], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
try:
    for _ in range(100):
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/health").read()
            break
        except OSError:
            time.sleep(0.1)
    urllib.request.urlopen(f"http://127.0.0.1:{port}" + url(300, 300), timeout=120).read()  # the reduction
    with open(control, "w") as c, open(ack) as a:
        c.write("enable\n")
        c.flush()
        a.readline()
    out = subprocess.run(["wrk", "-t2", "-c4", "-d15s", "-s", lua, f"http://127.0.0.1:{port}"], capture_output=True, text=True).stdout
finally:
    process.send_signal(signal.SIGINT)  # perf stops recording and ends the server
    process.wait()
    subprocess.run(["nginx", "-c", conf, "-p", work, "-s", "stop"])
print(re.search(r"Requests/sec:.*", out).group(0), "(under perf)")
report = subprocess.run(["perf", "report", "-i", data, "--children", "--sort", "symbol", "-g", "none"],
                        capture_output=True, text=True).stdout
shares = {}
for line in report.splitlines():
    found = re.match(r"\s+([\d.]+)%\s+([\d.]+)%\s+\[.\]\s+(\S+)", line)
    if found:
        shares.setdefault(found.group(3), (float(found.group(1)), float(found.group(2))))
PARTS = [("resampling, with what it calls", r"ResamplerO6resize.*PixelSizeVtFZ$"),
         ("resampling, its own code", r"ResamplerO6resize.*EfU_$|ResamplerO6resize.*Tf4nnd_n$"),
         ("page faults", r"^asm_exc_page_fault$"), ("munmap", r"^__x64_sys_munmap$"),
         ("answer kept on disk (DiskCache.store)", r"OspreyDiskCache0bC0C5store_3for"),
         ("file creation (openat)", r"^__x64_sys_openat$"), ("fsync", r"^__x64_sys_fsync$"),
         ("HTTP (SwiftNIO event loops)", r"8NIOPosix19SelectableEventLoopC3run"),
         ("URL parsing and signature", r"ImgproxyPathV_7presets"),
         ("memory cache insertion", r"OspreyMemoryCache0b4DataC0C5store"), ("ETag digest", r"ContentDigest"),
         ("logging", r"7Logging6LoggerV")]
for label, pattern in PARTS:
    matches = [v for name, v in shares.items() if re.search(pattern, name)]
    total = max((m[0] if label != "resampling, its own code" else m[1] for m in matches), default=0.0)
    print(f"| {label} | {total:.1f}% |")
# Shares by library: the call chains do not go through libjpeg-turbo's frames, so its samples
# are not under the encoder's Swift frames.
libraries = subprocess.run(["perf", "report", "-i", data, "--no-children", "--sort", "dso", "-g", "none"],
                           capture_output=True, text=True).stdout
for label, library in [("JPEG encoding (libjpeg-turbo's code)", "libjpeg"), ("the kernel, all of it", "[kernel.kallsyms]")]:
    found = re.search(rf"\s([\d.]+)%\s+{re.escape(library)}", libraries)
    print(f"| {label} | {float(found.group(1)) if found else 0.0:.1f}% |")
