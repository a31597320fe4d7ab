#!/usr/bin/env python3
"""The seed's grid: 100 distinct 12-megapixel JPEGs served by nginx on loopback, loaded through
Osprey's pipeline at 200x200 — cold (network), warm (disk, new process) and hot (memory) —
and the same grid decoded at full size, with wall time and peak memory for each.

Also checks the memory bound: the grid's peak minus the peak of loading one image must stay
within 1.5x of (decoded thumbnails + what the transfers and decodes in flight hold).

usage: grid.py BENCH_BUILD_DIR WORK_DIR [ROUNDS]
"""
import json, os, shutil, statistics, subprocess, sys, time

from measure import run_output
from photos import make_photos

build, work = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 3
port = 18090
root = os.path.join(work, "www")
os.makedirs(root, exist_ok=True)
driver = os.path.join(build, "GridBenchmark")
W, H, COUNT = 4000, 3000, 100


make_photos(root, COUNT, W, H)
names = sorted(n for n in os.listdir(root) if n.endswith(".jpg"))[:COUNT]
urls = [f"http://127.0.0.1:{port}/{n}" for n in names]
url_list = os.path.join(work, "grid-urls.txt")
with open(url_list, "w") as f:
    f.write("\n".join(urls) + "\n")
one_list = os.path.join(work, "grid-one.txt")
with open(one_list, "w") as f:
    f.write(urls[0] + "\n")
largest_file = max(os.path.getsize(os.path.join(root, n)) for n in names)

conf = os.path.join(work, "grid-nginx.conf")
with open(conf, "w") as f:
    f.write(f"""daemon on; worker_processes 2; pid {work}/grid-nginx.pid; error_log {work}/grid-nginx-error.log;
events {{ worker_connections 1024; }}
http {{ access_log off; sendfile on; keepalive_requests 100000;
  server {{ listen 127.0.0.1:{port}; root {root}; }} }}
""")
subprocess.run(["nginx", "-c", conf, "-p", work], check=True)
time.sleep(0.5)

cache = os.path.join(work, "grid-cache")


def load(urls_file, side, passes, fresh):
    if fresh:
        shutil.rmtree(cache, ignore_errors=True)
    wall, peak, out = run_output([driver, urls_file, cache, str(side), str(passes)])
    return wall, peak, [json.loads(line) for line in out.splitlines() if line.startswith("{")]


results = {k: [] for k in ["one", "cold", "warm", "hot", "full-cold", "full-warm", "full-hot"]}
try:
    for _ in range(rounds):
        _, peak, passes = load(one_list, 200, 1, True)
        results["one"].append((passes[0]["seconds"], peak, passes[0]))
        for prefix, side in [("", 200), ("full-", 0)]:
            _, peak, passes = load(url_list, side, 1, True)
            results[prefix + "cold"].append((passes[0]["seconds"], peak, passes[0]))
            _, peak, passes = load(url_list, side, 1, False)
            results[prefix + "warm"].append((passes[0]["seconds"], peak, passes[0]))
            _, peak, passes = load(url_list, side, 2, False)
            results[prefix + "hot"].append((passes[1]["seconds"], peak, passes[1]))
finally:
    subprocess.run(["nginx", "-c", conf, "-p", work, "-s", "stop"])

def median(key, i):
    return statistics.median(r[i] for r in results[key])

print(f"| grid of {COUNT} JPEGs, 4000x3000 ({rounds} rounds, median) | time | process peak memory | tiers |")
print("|---|---|---|---|")
for key, label in [("cold", "200x200, cold (network)"), ("warm", "200x200, warm (disk, new process)"),
                   ("hot", "200x200, hot (memory, second pass)"), ("full-cold", "full size, cold"),
                   ("full-warm", "full size, warm"), ("full-hot", "full size, hot"), ("one", "one image at 200x200, cold")]:
    tiers = results[key][-1][2]["tiers"]
    print(f"| {label} | {median(key, 0):.3f} s | {median(key, 1) / 1e6:.1f} MB | {', '.join(f'{k} {v}' for k, v in sorted(tiers.items()))} |")

thumbs = results["cold"][-1][2]["decodedBytes"]
# The pipeline runs at most 6 transfers + one decode per core loads at once (its load slots);
# each holds at most one encoded body, whether transferring, waiting or decoding.
decoders = os.cpu_count()
slots = 6 + decoders
bodies = slots * largest_file
# A decode also holds its DCT-scaled image (1/8 of 4000x3000, RGB) plus the resampler's
# float rows (4 bytes a channel) for the same rows: about 5 times the scaled image.
per_decode = (W // 8) * (H // 8) * 3 * 5
decodes = decoders * per_decode
added = median("cold", 1) - median("one", 1)
bound = 1.5 * (thumbs + bodies + decodes)
print()
print(f"Memory bound (cold grid): added over one image {added / 1e6:.1f} MB; "
      f"decoded thumbnails {thumbs / 1e6:.1f} MB + {slots} loads in flight x {largest_file / 1e6:.1f} MB body + "
      f"{decoders} decodes x {per_decode / 1e6:.1f} MB = {(thumbs + bodies + decodes) / 1e6:.1f} MB; "
      f"bound 1.5x = {bound / 1e6:.1f} MB: {'holds' if added <= bound else 'EXCEEDED'}")
full_added = median("full-cold", 1) - median("one", 1)
print(f"Full-size decoding adds {full_added / 1e6:.1f} MB over one image: {full_added / max(added, 1):.1f}x the thumbnail grid's.")
