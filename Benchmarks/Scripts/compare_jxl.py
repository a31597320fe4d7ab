#!/usr/bin/env python3
"""Whole-process JPEG XL comparison: a 24 MP JPEG XL to a 640 px JPEG by osprey convert and by
vipsthumbnail (Debian's libvips 8.14 reads JPEG XL through the same libjxl 0.7), beside djxl
decoding the same file to full-size pixels (libjxl's own tool, the yardstick: the decode every
thumbnailer has to do, since libjxl 0.7 decodes whole frames).

- `big.jxl`: `photos/craft-beer.jpg` enlarged by libvips to 6000x4000 (24 MP), written by
  `cjxl -d 1 -e 3` (lossy, XYB, as cameras and converters write JPEG XL).

Interleaved rounds, median wall time and peak resident memory (GNU time). Prints a Markdown table.

usage: compare_jxl.py OSPREY_BINARY WORK_DIR [ROUNDS]
"""
import os, subprocess, sys

from measure import compare

osprey, work = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 7
corpus = os.environ.get("OSPREY_CORPUS") or os.path.join(os.path.dirname(__file__), "../../../shared/corpus")
os.makedirs(work, exist_ok=True)

big = os.path.join(work, "big.jxl")
if not os.path.exists(big):
    png = os.path.join(work, "big.png")
    subprocess.run(["vips", "thumbnail", os.path.join(corpus, "photos/craft-beer.jpg"), png, "6000",
                    "--height", "4000", "--size", "force"], check=True)
    subprocess.run(["cjxl", png, big, "-d", "1", "-e", "3"], check=True, capture_output=True)
    os.remove(png)

out = os.path.join(work, "out.jpg")
cases = {
    "24 MP JPEG XL → 640 px JPEG": {
        "osprey": [osprey, "convert", big, "--size", "640x640", "--quality", "0.8", "-o", out],
        "vipsthumbnail": ["vipsthumbnail", big, "-s", "640", "-o", out + "[Q=80]"],
        "djxl (full decode only)": ["djxl", big, os.path.join(work, "full.ppm")],
    },
}

compare(cases, rounds)
