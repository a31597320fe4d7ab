#!/usr/bin/env python3
"""Whole-process AVIF and HEIC comparison: osprey convert vs vipsthumbnail (libvips reads both
through libheif; Osprey reads AVIF through libavif and HEIC through libheif).

- `heic/bimg_test.heic` (iPhone 11 Pro, 4032x3024 = 12.2 MP, a 48-tile grid, Display P3) and a
  12.2 MP AVIF made by libvips from `photos/book-beside-flowers.jpg` (3024x4032), each to a
  640 px JPEG (sRGB) at quality 80.
- A 640 px AVIF thumbnail written from a 640 px JPEG at quality 80 by each tool (Osprey:
  aom speed 8; libvips: its heifsave defaults).

Interleaved rounds, median wall time and peak resident memory (GNU time). Prints a Markdown table.

usage: compare_avif_heic.py OSPREY_BINARY WORK_DIR [ROUNDS]
"""
import os, subprocess, sys

from measure import compare

osprey, work = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 7
corpus = os.environ.get("OSPREY_CORPUS") or os.path.join(os.path.dirname(__file__), "../../../shared/corpus")
os.makedirs(work, exist_ok=True)

heic = os.path.join(corpus, "heic/bimg_test.heic")
avif = os.path.join(work, "photo.avif")
thumb = os.path.join(work, "thumb.jpg")
if not os.path.exists(avif):
    subprocess.run(["vips", "heifsave", os.path.join(corpus, "photos/book-beside-flowers.jpg"), avif,
                    "--compression", "av1", "--Q", "60"], check=True)
if not os.path.exists(thumb):
    subprocess.run(["vipsthumbnail", os.path.join(corpus, "photos/book-beside-flowers.jpg"), "-s", "640", "-o", thumb + "[Q=95]"], check=True)

jpeg_out, avif_out = os.path.join(work, "out.jpg"), os.path.join(work, "out.avif")
cases = {
    "12 MP HEIC → 640 px JPEG": {
        "osprey": [osprey, "convert", heic, "--size", "640x640", "--quality", "0.8", "-o", jpeg_out],
        "vipsthumbnail": ["vipsthumbnail", heic, "-s", "640", "--export-profile", "srgb", "-o", jpeg_out + "[Q=80]"],
    },
    "12 MP AVIF → 640 px JPEG": {
        "osprey": [osprey, "convert", avif, "--size", "640x640", "--quality", "0.8", "-o", jpeg_out],
        "vipsthumbnail": ["vipsthumbnail", avif, "-s", "640", "--export-profile", "srgb", "-o", jpeg_out + "[Q=80]"],
    },
    "640 px JPEG → AVIF, quality 80": {
        "osprey": [osprey, "convert", thumb, "--quality", "0.8", "-o", avif_out],
        "vips heifsave": ["vips", "heifsave", thumb, avif_out, "--compression", "av1", "--Q", "80"],
    },
}

compare(cases, rounds)
