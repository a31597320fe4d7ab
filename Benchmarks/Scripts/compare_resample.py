"""In-process Lanczos-3 resample on camera photographs, one thread, at the ratios of issue 53:
Osprey's `Resampler.resize` (the fixed-point kernels) and the float resampler it replaced, beside
Pillow-SIMD (PyPI source build with AVX2) and libvips 8.18 (pyvips-binary, Highway SIMD).

Each contender is its own process (ResampleBenchmark, resample_peer.py) pinned to CPU 0: a
warm-up photo resized first, then the measured one RUNS times. Contenders are alternated
within every round, the order turning each round; medians over all rounds. Instruction counts
are callgrind's, for one resize: a process making one minus a process making none (valgrind
reads the Swift binary's debug information no further than a stripped copy of it).

usage: compare_resample.py RESAMPLE_BENCHMARK WORK ROUNDS
"""
import os
import statistics
import subprocess
import sys

binary, work, rounds = sys.argv[1], sys.argv[2], int(sys.argv[3])
here = os.path.dirname(os.path.abspath(__file__))
corpus = os.environ.get("OSPREY_CORPUS", os.path.join(here, "../../../shared/corpus"))
os.makedirs(work, exist_ok=True)
RATIOS = ["1.25", "1.67", "4", "8"]
RUNS = 3


def venv(name, install, environment=None):
    path = os.path.join(work, name)
    python = os.path.join(path, "bin/python")
    if not os.path.exists(python):
        subprocess.run([sys.executable, "-m", "venv", path], check=True)
        subprocess.run([python, "-m", "pip", "install", "--quiet", *install], check=True,
                       env={**os.environ, **(environment or {})})
    return python


# Pillow-SIMD compiles its AVX2 paths only when the compiler is told the CPU has AVX2.
simd = venv("simd-venv", ["--no-binary", "pillow-simd", "pillow-simd"], {"CC": "cc -mavx2"})
vips = venv("vips-venv", ["pyvips", "pyvips-binary"])


def raw(name, source):
    """The photo as raw RGB, decoded once by Pillow; its width and height."""
    path = os.path.join(work, name + ".rgb")
    size = subprocess.run([simd, "-c", f"""
from PIL import Image
im = Image.open({source!r}).convert("RGB")
open({path!r}, "wb").write(im.tobytes())
print(*im.size)"""], check=True, capture_output=True, text=True).stdout.split()
    return path, int(size[0]), int(size[1])


warm = raw("warm", "/usr/share/backgrounds/Dragonfly_by_Bolly.jpg")
photos = {"24 MP camera JPEG (craft-beer.jpg, 6000×4000)": raw("beer", os.path.join(corpus, "photos/craft-beer.jpg")),
          "12 MP camera JPEG (book-beside-flowers.jpg, 3024×4032)": raw("book", os.path.join(corpus, "photos/book-beside-flowers.jpg"))}
peer = os.path.join(here, "resample_peer.py")
CONTENDERS = {
    "Osprey (fixed point)": [binary, "new"],
    "Osprey before (float)": [binary, "float"],
    "libvips 8.18": [vips, peer, "vips"],
    "Pillow-SIMD AVX2": [simd, peer, "pillow"],
}
PINNED = ["taskset", "-c", "0"]
ENVIRONMENT = {**os.environ, "VIPS_CONCURRENCY": "1"}


def command(name, photo, ratio, runs):
    path, w, h = photo
    return CONTENDERS[name] + [warm[0], str(warm[1]), str(warm[2]), path, str(w), str(h), ratio, str(runs)]


times = {(p, r, c): [] for p in photos for r in RATIOS for c in CONTENDERS}
names = list(CONTENDERS)
for round_ in range(rounds):
    order = names[round_ % len(names):] + names[:round_ % len(names)]
    for p, photo in photos.items():
        for r in RATIOS:
            for c in order:
                out = subprocess.run(PINNED + command(c, photo, r, RUNS), check=True, capture_output=True, text=True, env=ENVIRONMENT)
                times[(p, r, c)] += [float(t) for t in out.stdout.split()]


stripped = os.path.join(work, "ResampleBenchmark.stripped")
subprocess.run(["strip", "-o", stripped, binary], check=True)


def instructions(name, ratio):
    """callgrind's count of one resize of the 24 MP photo (process with one minus with none)."""
    counts = []
    for runs in (1, 0):
        argv = command(name, photos_list[0], ratio, runs)
        argv = [stripped] + argv[1:] if argv[0] == binary else argv
        out = subprocess.run(["valgrind", "--tool=callgrind", "--callgrind-out-file=/dev/null"] + argv,
                             capture_output=True, text=True, env=ENVIRONMENT)
        line = [l for l in out.stderr.splitlines() if "Collected" in l]
        counts.append(int(line[-1].split()[-1]) if line else 0)
    return counts[0] - counts[1]


photos_list = list(photos.values())
callgrind = os.environ.get("OSPREY_BENCH_CALLGRIND", "1") == "1"
counts = {(r, c): instructions(c, r) for r in RATIOS for c in CONTENDERS} if callgrind else {}

print(f"\nResample, one thread, median ms of {rounds} rounds × {RUNS} runs (instructions per resize, callgrind, 24 MP):")
for p in photos:
    print(f"\n{p}")
    print("| ratio | " + " | ".join(names) + " | Osprey ÷ fastest peer |")
    print("|---|" + "---|" * (len(names) + 1))
    for r in RATIOS:
        medians = {c: statistics.median(times[(p, r, c)]) for c in names}
        peers = min(medians[c] for c in names if not c.startswith("Osprey"))
        cells = []
        for c in names:
            cell = f"{medians[c]:.1f}"
            if callgrind and p == list(photos)[0]:
                cell += f" ({counts[(r, c)] / 1e6:.0f} M)"
            cells.append(cell)
        print(f"| {r}× | " + " | ".join(cells) + f" | {medians[names[0]] / peers:.2f} |")
