"""Runs a command to completion and measures it: wall time and the command's own peak memory.

GNU time forks the command itself, so the peak is the command's: a child forked from the
calling script would inherit the script's own high-water mark, since Linux keeps ru_maxrss
across exec. Wall time includes time's own fork, the same for every command measured.
"""
import os, subprocess, sys, tempfile, time

_PEAK = os.path.join(tempfile.gettempdir(), f"osprey-peak-{os.getpid()}.txt")


def run(argv):
    """(wall seconds, peak bytes) of `argv`; exits the script if the command fails."""
    wall, peak, _ = run_output(argv)
    return wall, peak


def run_output(argv):
    """(wall seconds, peak bytes, stdout text) of `argv`; exits the script if the command fails."""
    start = time.perf_counter()
    proc = subprocess.run(["/usr/bin/time", "-q", "-f", "%M", "-o", _PEAK] + argv,
                          stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    wall = time.perf_counter() - start
    if proc.returncode != 0:
        sys.exit(f"failed: {' '.join(argv)}: {proc.stderr.decode()[-500:]}")
    with open(_PEAK) as f:
        return wall, int(f.read().split()[-1]) * 1024, proc.stdout.decode()


def compare(cases, rounds):
    """Runs every command of every case once per round, the starting command rotating, and
    prints a Markdown table of the medians: each case's first command against the others.

    `cases` maps a case's name to {command name: argv}."""
    import statistics
    results = {}
    for round_index in range(rounds):
        for case, commands in cases.items():
            names = list(commands)
            shift = round_index % len(names)
            for name in names[shift:] + names[:shift]:
                results.setdefault((case, name), []).append(run(commands[name]))
    print(f"| case ({rounds} rounds, median) | command | wall time | peak memory | first ÷ this, time | memory |")
    print("|---|---|---|---|---|---|")
    for case, commands in cases.items():
        first = list(commands)[0]
        t0 = statistics.median(r[0] for r in results[(case, first)])
        m0 = statistics.median(r[1] for r in results[(case, first)])
        for name in commands:
            t = statistics.median(r[0] for r in results[(case, name)])
            m = statistics.median(r[1] for r in results[(case, name)])
            ratios = "— | —" if name == first else f"{t0 / t:.2f}× | {m0 / m:.2f}×"
            print(f"| {case} | {name} | {t * 1000:.0f} ms | {m / 1e6:.1f} MB | {ratios} |")
