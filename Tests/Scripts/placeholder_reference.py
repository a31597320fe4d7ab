"""BlurHash and ThumbHash by their reference implementations on PyPI (blurhash-python,
thumbhash-python), to check Osprey's against.

thumbs OUT_DIR PHOTO...   writes each photo's ≤ 100 px thumbnail (Pillow, Lanczos) as
                          OUT_DIR/<index>.png, one path per line
compare                   reads `png<TAB>blurhash<TAB>thumbhash-base64` lines (Osprey's hashes of
                          each PNG), prints one JSON line per PNG: the references' hashes, and
                          the PSNR in dB between each reference's decodes of both hashes
"""
import io
import json
import math
import sys

import warnings

import blurhash
import thumbhash
from PIL import Image

# blurhash-python reads bands with Pillow's getdata, deprecated since Pillow 13.
warnings.filterwarnings("ignore", category=DeprecationWarning)


def psnr(a, b):
    a, b = a.convert("RGB"), b.convert("RGB").resize(a.size)
    squared = sum((x - y) ** 2 for x, y in zip(a.tobytes(), b.tobytes()))
    mse = squared / (a.size[0] * a.size[1] * 3)
    return math.inf if mse == 0 else 10 * math.log10(255 ** 2 / mse)


def main():
    if sys.argv[1] == "thumbs":
        for index, path in enumerate(sys.argv[3:]):
            image = Image.open(path).convert("RGB")
            image.thumbnail((100, 100), Image.LANCZOS)
            out = f"{sys.argv[2]}/{index}.png"
            image.save(out)
            print(out)
        return
    for line in sys.stdin:
        png, ours_bh, ours_th = line.rstrip("\n").split("\t")
        image = Image.open(png).convert("RGB")
        reference_bh = blurhash.encode(image, x_components=4, y_components=3)
        reference_th = thumbhash.image_to_thumbhash(png)
        size = (32, 32)
        bh = psnr(blurhash_image(reference_bh, size), blurhash_image(ours_bh, size))
        th = psnr(thumbhash.thumbhash_to_image(reference_th), thumbhash.thumbhash_to_image(ours_th))
        print(json.dumps({"png": png, "blurhash": reference_bh, "thumbhash": reference_th,
                          "blurhash_psnr": min(bh, 999.0), "thumbhash_psnr": min(th, 999.0)}))


def blurhash_image(hash, size):
    image = blurhash.decode(hash, size[0], size[1])
    return image if isinstance(image, Image.Image) else Image.frombytes("RGB", size, bytes(image))


if __name__ == "__main__":
    main()
