#!/usr/bin/env python3
"""Whole-process download comparison: Osprey's CurlDataLoader vs curl, URLSession and
AsyncHTTPClient, each fetching the same files from nginx on loopback, 6 at a time.

Starts nginx (Debian's nginx-light) on 127.0.0.1 serving 1000 files of about 50 KB and 20 of
about 5 MB, runs each client ROUNDS times interleaved (starting client rotating), reports
the median wall time and peak memory (GNU time) and the ratios of Osprey and of the two
references below to every other client, then stops nginx.
Two references in C run beside them, not peers but yardsticks: FetchLibcurlC (libcurl's multi
interface with nothing around it, each body kept in memory as a loader must) and
FetchRawSocket (six blocking keep-alive connections, bytes dropped: this machine's floor).

usage: compare_fetch.py BENCH_BUILD_DIR WORK_DIR [ROUNDS]
"""
import os, random, statistics, subprocess, sys, time

from measure import run

build, work = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 5
port = 18089
root = os.path.join(work, "www")
os.makedirs(root, exist_ok=True)

rng = random.Random(1)
names = []
for i in range(1000):
    names.append((f"small-{i}.bin", 50_000 + rng.randrange(-5_000, 5_000)))
for i in range(20):
    names.append((f"large-{i}.bin", 5_000_000 + rng.randrange(-100_000, 100_000)))
for name, size in names:
    path = os.path.join(root, name)
    if not os.path.exists(path) or os.path.getsize(path) != size:
        with open(path, "wb") as f:
            f.write(os.urandom(size))
urls = [f"http://127.0.0.1:{port}/{name}" for name, _ in names]
rng.shuffle(urls)
url_list = os.path.join(work, "urls.txt")
with open(url_list, "w") as f:
    f.write("\n".join(urls) + "\n")
curl_config = os.path.join(work, "curl.cfg")
with open(curl_config, "w") as f:
    for url in urls:
        f.write(f'url = "{url}"\noutput = "/dev/null"\n')

conf = os.path.join(work, "nginx.conf")
with open(conf, "w") as f:
    f.write(f"""daemon on; worker_processes 2; pid {work}/nginx.pid; error_log {work}/nginx-error.log;
events {{ worker_connections 1024; }}
http {{ access_log off; sendfile on; keepalive_requests 100000;
  server {{ listen 127.0.0.1:{port}; root {root}; }} }}
""")
subprocess.run(["nginx", "-c", conf, "-p", work], check=True)
time.sleep(0.5)

ospreys = ["osprey"]
references = ["libcurl in C (reference)", "raw sockets in C (reference)"]
clients = {
    ospreys[0]: [os.path.join(build, "FetchOsprey"), url_list],
    references[0]: [os.path.join(build, "FetchLibcurlC"), url_list],
    references[1]: [os.path.join(build, "FetchRawSocket"), url_list],
    "curl": ["curl", "--silent", "--fail", "--parallel", "--parallel-max", "6", "--config", curl_config],
    "urlsession": [os.path.join(build, "FetchURLSession"), url_list],
    "asynchttpclient": [os.path.join(build, "FetchAHC"), url_list],
}
results = {name: [] for name in clients}
try:
    names_order = list(clients)
    for r in range(rounds):
        order = names_order[r % len(names_order):] + names_order[:r % len(names_order)]
        for name in order:
            results[name].append(run(clients[name]))
finally:
    subprocess.run(["nginx", "-c", conf, "-p", work, "-s", "stop"])

total = sum(size for _, size in names) / 1e6
median = {name: statistics.median(t for t, _ in results[name]) for name in clients}
print(f"| client ({rounds} rounds, median; {len(names)} files, {total:.0f} MB) | wall time | peak memory |")
print("|---|---|---|")
for name in clients:
    m = statistics.median(y for _, y in results[name])
    print(f"| {name} | {median[name]:.3f} s | {m / 1e6:.1f} MB |")
# Osprey's ratios to the peers (the issue's targets) and to the references; the references'
# own ratios to the peers show what libcurl alone, and the machine, allow.
columns = [name for name in clients if name not in ospreys]
print()
print("| time over | " + " | ".join(columns) + " |")
print("|---|" + "---|" * len(columns))
for row in ospreys + references:
    print(f"| {row} | " + " | ".join("—" if row == column else f"{median[row] / median[column]:.2f}×" for column in columns) + " |")
