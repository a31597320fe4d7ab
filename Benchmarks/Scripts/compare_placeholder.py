#!/usr/bin/env python3
"""A placeholder's cost against a resize of the same photo, whole process (issue 55).

For each photo: `osprey info --placeholder --json` (BlurHash, ThumbHash, average from a 100 px
preview), `osprey convert` to 640 px, and `djpeg -scale 1/8` (libjpeg-turbo's smallest decode:
what a resize cannot go below) and `osprey --version` (the process alone) as yardsticks.
Interleaved rounds in rotating order after a warm-up on another photo; medians. Prints a
Markdown table with each command's ratio to the resize of the same photo.

usage: compare_placeholder.py OSPREY ROUNDS PHOTO...
"""
import os, statistics, subprocess, sys, time

osprey, rounds, *photos = sys.argv[1:]
corpus = os.environ.get("OSPREY_CORPUS") or os.path.join(os.path.dirname(__file__), "../../../shared/corpus")
warm_up = os.path.join(corpus, "photos/jolla.jpg")


def commands(photo):
    return {
        "info --placeholder": [osprey, "info", photo, "--placeholder", "--json"],
        "convert 640 px": [osprey, "convert", photo, "--size", "640x640", "--quality", "0.8", "-o", "/tmp/osprey-placeholder-bench.jpg"],
        "djpeg -scale 1/8": ["djpeg", "-scale", "1/8", "-outfile", "/dev/null", photo],
        "osprey --version": [osprey, "--version"],
    }


def run(command):
    started = time.perf_counter()
    subprocess.run(command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
    return (time.perf_counter() - started) * 1000


for command in commands(warm_up).values():
    run(command)
print(f"| photo | command ({rounds} rounds, median) | wall time | ÷ the resize |")
print("|---|---|---|---|")
for photo in photos:
    jobs = commands(photo)
    times = {name: [] for name in jobs}
    for round_index in range(int(rounds)):
        names = list(jobs)
        shift = round_index % len(names)
        for name in names[shift:] + names[:shift]:
            times[name].append(run(jobs[name]))
    resize = statistics.median(times["convert 640 px"])
    for name, values in times.items():
        median = statistics.median(values)
        print(f"| {os.path.basename(photo)} | `{name}` | {median:.1f} ms | {median / resize:.2f} |")
