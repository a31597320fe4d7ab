#!/usr/bin/env python3
"""The CLI's 24 MP JPEG thumbnail against vipsthumbnail, with the floor beside it.

Interleaved rounds (every command once per round, in rotating order), medians, no `time`
around the processes: `osprey convert` to 640 px, the same with a second build if given,
vipsthumbnail, and two yardsticks, `djpeg -scale 1/8` (the decode alone) and `osprey
--version` (the process's start alone). Prints a Markdown table with ratios to vipsthumbnail.

usage: compare_cli_floor.py OSPREY [OTHER_OSPREY] JPEG ROUNDS
"""
import statistics, subprocess, sys, time

*binaries, src, rounds = sys.argv[1:]
commands = {}
for index, binary in enumerate(binaries):
    label = "" if index == 0 else f" ({binary})"
    commands[f"osprey convert{label}"] = [binary, "convert", src, "--size", "640x640", "--quality", "0.8",
                                          "-o", f"/tmp/osprey-cli-floor-{index}.jpg"]
    commands[f"osprey --version{label}"] = [binary, "--version"]
commands["vipsthumbnail"] = ["vipsthumbnail", src, "-s", "640", "-o", "/tmp/osprey-cli-floor-vips.jpg[Q=80]"]
commands["djpeg -scale 1/8"] = ["djpeg", "-scale", "1/8", "-outfile", "/dev/null", src]

times = {name: [] for name in commands}
for round_index in range(int(rounds)):
    names = list(commands)
    names = names[round_index % len(names):] + names[:round_index % len(names)]
    for name in names:
        started = time.perf_counter()
        subprocess.run(commands[name], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=True)
        times[name].append((time.perf_counter() - started) * 1000)

vips = statistics.median(times["vipsthumbnail"])
print(f"| command ({rounds} rounds, median) | wall time | ÷ vipsthumbnail |")
print("|---|---|---|")
for name, values in times.items():
    print(f"| {name} | {statistics.median(values):.1f} ms | {statistics.median(values) / vips:.2f}× |")
