#!/usr/bin/env python3
"""Thumbnailing a folder on both cores, whole run: `osprey convert FOLDER` (one process,
--jobs 2) against vipsthumbnail run two at a time over the same files (`xargs -P 2`), and
against `osprey convert` run the same way, one process per file.

Makes 100 distinct 12-megapixel JPEGs, and 30 PNGs and 30 WebPs of the same kind (Pillow,
once), then thumbnails each folder to 256x256 (fit) in the input's format, quality 80, the
three commands interleaved, and prints the median wall time and the peak memory of the
largest process (GNU time: a pipeline's peak is its largest descendant's).

A yardstick runs beside them, not a peer: ThumbnailC (Benchmarks/Sources/ThumbnailC), the same
thumbnail with libjpeg-turbo's or libwebp's scaled decoding and nothing around it, two at a
time; for PNG none is given (libpng decodes every row at full size whoever calls it).

usage: compare_batch.py OSPREY_BINARY BENCH_BUILD_DIR WORK_DIR [ROUNDS]
"""
import os, shutil, sys

from measure import compare
from photos import make_photos

osprey, build, work = sys.argv[1], sys.argv[2], sys.argv[3]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 5
sets = {"jpg": 100, "png": 30, "webp": 30}
cases = {}
for extension, count in sets.items():
    folder = os.path.join(work, extension)
    make_photos(folder, count, extension=extension)
    out = os.path.join(work, f"out-{extension}")
    shutil.rmtree(out, ignore_errors=True)
    os.makedirs(out)
    files = f"ls {folder}/*.{extension} | xargs -P 2 -n 1"
    vips_options = "" if extension == "png" else "[Q=80]"
    cases[f"{count} {extension.upper()}s, 12 MP → 256 px"] = {
        "osprey convert, one process": [osprey, "convert", folder, "--size", "256x256", "--jobs", "2", "--overwrite",
                                        "-o", out + "/batch"],
        "vipsthumbnail, xargs -P 2": ["sh", "-c", f"{files} vipsthumbnail --size 256x256 -o '{out}/%s_256.{extension}{vips_options}'"],
        "osprey convert per file, xargs -P 2": ["sh", "-c", f"{files} {osprey} convert --size 256x256 --overwrite -o {out}/each"],
    }
    if extension != "png":
        thumbnail_c = os.path.join(build, "ThumbnailC")
        cases[f"{count} {extension.upper()}s, 12 MP → 256 px"]["C on the codec library alone, xargs -P 2 (yardstick)"] = [
            "sh", "-c", f"{files} -I{{}} {thumbnail_c} {{}} {out}/c.{extension}"]
compare(cases, rounds)
