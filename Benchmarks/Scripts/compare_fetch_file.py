#!/usr/bin/env python3
"""`osprey fetch` of one 46 MB file against curl, whole process, from nginx on loopback.

Starts nginx (Debian's nginx-light) on 127.0.0.1 serving one file of 46 MB of random bytes,
runs `osprey fetch URL -o out` and `curl --silent --fail -o out URL` interleaved, and prints
the median wall time and peak resident memory of each (GNU time), then stops nginx.

usage: compare_fetch_file.py OSPREY_BINARY WORK_DIR [ROUNDS]
"""
import os, subprocess, sys, time

from measure import compare

osprey, work = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 7
port = 18090
root = os.path.join(work, "www")
os.makedirs(root, exist_ok=True)
big = os.path.join(root, "big.bin")
if not os.path.exists(big) or os.path.getsize(big) != 46_000_000:
    with open(big, "wb") as f:
        f.write(os.urandom(46_000_000))
conf = os.path.join(work, "nginx.conf")
with open(conf, "w") as f:
    f.write(f"""daemon on; worker_processes 2; pid {work}/nginx.pid; error_log {work}/nginx-error.log;
events {{ worker_connections 64; }}
http {{ access_log off; sendfile on;
  server {{ listen 127.0.0.1:{port}; root {root}; }} }}
""")
subprocess.run(["nginx", "-c", conf, "-p", work], check=True)
time.sleep(0.5)
url = f"http://127.0.0.1:{port}/big.bin"
out = os.path.join(work, "out.bin")
try:
    compare({"46 MB file from nginx": {
        "osprey fetch": [osprey, "fetch", url, "-o", out],
        "curl": ["curl", "--silent", "--fail", "-o", out, url],
    }}, rounds)
finally:
    subprocess.run(["nginx", "-c", conf, "-p", work, "-s", "stop"])
