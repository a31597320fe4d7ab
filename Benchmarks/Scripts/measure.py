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
