"""One peer of the in-process resample comparison (compare_resample.py), on this thread only:
Pillow's `Image.resize(..., LANCZOS)` (run by the Pillow-SIMD virtualenv) or libvips'
`resize(kernel="lanczos3")` (pyvips-binary, libvips 8.18). Raw RGB photos decoded beforehand;
a warm-up photo is resized first, then the measured one RUNS times; milliseconds on one line.

usage: resample_peer.py pillow|vips WARMUP.rgb WIDTH HEIGHT PHOTO.rgb WIDTH HEIGHT RATIO RUNS
"""
import sys
import time

peer, warm, ww, wh, photo, pw, ph, ratio, runs = sys.argv[1:]
ww, wh, pw, ph, ratio, runs = int(ww), int(wh), int(pw), int(ph), float(ratio), int(runs)


def target(w, h):
    return round(w / ratio), round(h / ratio)


if peer == "pillow":
    from PIL import Image

    def load(path, w, h):
        return Image.frombytes("RGB", (w, h), open(path, "rb").read())

    def resize(image):
        return image.resize(target(*image.size), Image.LANCZOS)
else:
    import pyvips

    pyvips.cache_set_max(0)

    def load(path, w, h):
        return pyvips.Image.new_from_memory(open(path, "rb").read(), w, h, 3, "uchar")

    def resize(image):
        w, h = target(image.width, image.height)
        return image.resize(w / image.width, vscale=h / image.height, kernel="lanczos3").write_to_memory()

resize(load(warm, ww, wh))
image = load(photo, pw, ph)
times = []
for _ in range(runs):
    start = time.perf_counter()
    resize(image)
    times.append((time.perf_counter() - start) * 1000)
print(" ".join("%.2f" % t for t in times))
