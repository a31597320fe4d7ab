#!/usr/bin/env python3
"""Whole-process thumbnail comparison: osprey convert vs vipsthumbnail vs Pillow.

For a 24-megapixel JPEG, PNG and WebP made from a corpus photo, runs each tool to make a
640 px JPEG thumbnail, interleaved (every tool once per round, in rotating order), and
reports the median wall time and peak resident memory (GNU time) over the rounds, with
Osprey's ratio to each peer. Prints a Markdown table.

usage: compare_thumbnails.py OSPREY_BINARY WORK_DIR [ROUNDS]
"""
import os, statistics, subprocess, sys, time

from measure import run

osprey, work = sys.argv[1], sys.argv[2]
rounds = int(sys.argv[3]) if len(sys.argv) > 3 else 7
corpus = os.environ.get("OSPREY_CORPUS") or os.path.join(os.path.dirname(__file__), "../../../shared/corpus")
photo = os.path.join(corpus, "photos/craft-beer.jpg")  # 6000x4000, 24 MP
os.makedirs(work, exist_ok=True)

def make_inputs():
    from PIL import Image
    paths = {fmt: os.path.join(work, f"big.{fmt}") for fmt in ("jpg", "png", "webp")}
    if all(os.path.exists(p) for p in paths.values()):
        return paths
    with Image.open(photo) as im:
        im.load()
        im.save(paths["jpg"], quality=90)
        im.save(paths["png"], compress_level=6)
        im.save(paths["webp"], quality=80)
    return paths

PILLOW = ("from PIL import Image; import sys; im = Image.open(sys.argv[1]); im.draft('RGB', (640, 640)); "
          "im.thumbnail((640, 640), Image.LANCZOS); im.convert('RGB').save(sys.argv[2], quality=80)")

def commands(src, out):
    return {
        "osprey": [osprey, "convert", src, "--size", "640x640", "--quality", "0.8", "-o", out],
        "vipsthumbnail": ["vipsthumbnail", src, "-s", "640", "-o", out + "[Q=80]"],
        "pillow": [sys.executable, "-c", PILLOW, src, out],
    }

inputs = make_inputs()
results = {}
for round_index in range(rounds):
    for fmt, src in inputs.items():
        cmds = commands(src, os.path.join(work, "out.jpg"))
        names = list(cmds)
        names = names[round_index % 3:] + names[:round_index % 3]  # rotate who goes first
        for name in names:
            results.setdefault((fmt, name), []).append(run(cmds[name]))

print(f"| input ({rounds} rounds, median) | tool | wall time | peak memory | Osprey time ratio | Osprey memory ratio |")
print("|---|---|---|---|---|---|")
for fmt, src in inputs.items():
    o_time = statistics.median(r[0] for r in results[(fmt, "osprey")])
    o_mem = statistics.median(r[1] for r in results[(fmt, "osprey")])
    size = os.path.getsize(src) / 1e6
    for name in ("osprey", "vipsthumbnail", "pillow"):
        t = statistics.median(r[0] for r in results[(fmt, name)])
        m = statistics.median(r[1] for r in results[(fmt, name)])
        ratio_t = "—" if name == "osprey" else f"{o_time / t:.2f}×"
        ratio_m = "—" if name == "osprey" else f"{o_mem / m:.2f}×"
        print(f"| big.{fmt} ({size:.1f} MB) | {name} | {t * 1000:.0f} ms | {m / 1e6:.1f} MB | {ratio_t} | {ratio_m} |")
