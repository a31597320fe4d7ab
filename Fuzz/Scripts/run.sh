#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each, seeded from ../shared/corpus (or $OSPREY_CORPUS)
# and Fuzz/Seeds. Working corpora and crash artifacts stay under Fuzz/.build.
# usage: Fuzz/Scripts/run.sh BUILD_DIR SECONDS [TARGET...]
set -euo pipefail
build=$1; seconds=$2; shift 2
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${OSPREY_CORPUS:-$here/../../shared/corpus}
targets=("$@"); [ ${#targets[@]} -gt 0 ] || targets=(FuzzFormat FuzzJPEG FuzzPNG FuzzWebP FuzzGIF FuzzAPNG FuzzAVIF FuzzHEIC FuzzJXL FuzzSVG FuzzTIFF FuzzBMP FuzzICO FuzzProfile FuzzExif FuzzHeaders FuzzImgproxyPath FuzzClientHeaders FuzzSourceURL)
work=$here/.build/fuzz-work
# libFuzzer prints its own stack; Swift's backtracer reading a crashed process's memory under
# AddressSanitizer only adds a report of its own.
export SWIFT_BACKTRACE=enable=no
# Leaks inside the system's codec libraries that are not ours to free, as make test-asan has them.
export LSAN_OPTIONS=suppressions=$here/../Tests/Sanitizers/lsan.supp:print_suppressions=0
mkdir -p "$work/artifacts"

seeds() {
    case $1 in
        FuzzFormat) echo "$corpus/jpeg $corpus/pngsuite $corpus/webp" ;;
        FuzzJPEG) echo "$corpus/jpeg $corpus/exif-orientation $work/thumbnail-seeds" ;;
        FuzzPNG) echo "$corpus/pngsuite $work/png-seeds" ;;
        FuzzWebP) echo "$corpus/webp" ;;
        FuzzGIF) echo "$corpus/gif" ;;
        FuzzAPNG) echo "$corpus/apng" ;;
        FuzzAVIF) echo "$corpus/avif" ;;
        FuzzHEIC) echo "$corpus/heic" ;;
        FuzzJXL) echo "$work/jxl-seeds" ;;
        FuzzSVG) echo "$here/Seeds/svg" ;;
        FuzzTIFF) echo "$work/tiff-seeds" ;;
        FuzzBMP) echo "$work/bmp-seeds" ;;
        FuzzICO) echo "$work/ico-seeds" ;;
        FuzzProfile) echo "$work/icc-seeds" ;;
        FuzzExif) echo "$work/exif-seeds" ;;
        FuzzHeaders) echo "$here/Seeds/headers" ;;
        FuzzImgproxyPath) echo "$here/Seeds/urls" ;;
        FuzzClientHeaders) echo "$here/Seeds/client-headers" ;;
        FuzzSourceURL) echo "$here/Seeds/sources" ;;
    esac
}

# JPEG XL seeds made by cjxl (Debian's libjxl-tools) from small corpus images: lossy, lossless,
# with alpha, animated, and a recompressed JPEG.
mkdir -p "$work/jxl-seeds"
if [ -z "$(ls -A "$work/jxl-seeds")" ]; then
    cjxl "$corpus/pngsuite/basn2c08.png" "$work/jxl-seeds/lossy.jxl" -d 1 -e 3 >/dev/null 2>&1 || true
    cjxl "$corpus/pngsuite/basn6a08.png" "$work/jxl-seeds/alpha.jxl" -d 0 -e 1 >/dev/null 2>&1 || true
    cjxl "$corpus/pngsuite/basn0g16.png" "$work/jxl-seeds/gray16.jxl" -d 0 -e 1 >/dev/null 2>&1 || true
    cjxl "$corpus/gif/linku_star.gif" "$work/jxl-seeds/animated.jxl" -e 1 >/dev/null 2>&1 || true
    cjxl "$corpus/jpeg/libjpeg-turbo/testorig.jpg" "$work/jxl-seeds/jpeg.jxl" >/dev/null 2>&1 || true
fi

# PNG seeds with a cICP chunk telling PQ and HLG (PNG's third edition), 16- and 8-bit, put
# after the IHDR of small corpus images.
mkdir -p "$work/png-seeds"
if [ -z "$(ls -A "$work/png-seeds")" ]; then
python3 - "$corpus/pngsuite" "$work/png-seeds" <<'PY'
import os, struct, sys, zlib
src, out = sys.argv[1:3]
for name, transfer in (("basn2c16.png", 16), ("basn2c08.png", 18), ("basn6a16.png", 16)):
    data = open(os.path.join(src, name), "rb").read()
    body = b"cICP" + bytes([9, transfer, 0, 1])
    chunk = struct.pack(">I", 4) + body + struct.pack(">I", zlib.crc32(body))
    open(os.path.join(out, f"cicp-{transfer}-{name}"), "wb").write(data[:33] + chunk + data[33:])
PY
fi

# TIFF seeds written by libvips from small corpus images: strips, 16-bit tiles, CMYK with a
# profile, alpha, and JPEG-compressed.
mkdir -p "$work/tiff-seeds"
if [ -z "$(ls -A "$work/tiff-seeds")" ]; then
    vips tiffsave "$corpus/pngsuite/basn2c08.png" "$work/tiff-seeds/strips.tif" --compression lzw >/dev/null 2>&1 || true
    vips tiffsave "$corpus/pngsuite/basn2c16.png" "$work/tiff-seeds/tiled16.tif" --tile --tile-width 16 --tile-height 16 >/dev/null 2>&1 || true
    vips icc_transform "$corpus/pngsuite/basn2c08.png" "$work/tiff-seeds/cmyk.tif" cmyk >/dev/null 2>&1 || true
    vips tiffsave "$corpus/pngsuite/basn6a08.png" "$work/tiff-seeds/alpha.tif" --compression deflate >/dev/null 2>&1 || true
    vips tiffsave "$corpus/pngsuite/basn2c08.png" "$work/tiff-seeds/jpeg.tif" --compression jpeg >/dev/null 2>&1 || true
fi

# BMP and ICO seeds written by Pillow from small corpus images: 1, 8, 24 and 32 bits, bit
# masks (16-bit 5-6-5), an RLE8 bitmap made by hand; icons of several sizes, PNG and bitmap entries.
mkdir -p "$work/bmp-seeds" "$work/ico-seeds"
if [ -z "$(ls -A "$work/bmp-seeds")" ]; then
python3 - "$corpus/pngsuite" "$work/bmp-seeds" "$work/ico-seeds" <<'PY'
import os, struct, sys
from PIL import Image
src, bmp, ico = sys.argv[1:4]
rgb = Image.open(os.path.join(src, "basn2c08.png")).convert("RGB")
rgba = Image.open(os.path.join(src, "basn6a08.png")).convert("RGBA")
rgb.save(os.path.join(bmp, "rgb24.bmp"))
rgb.convert("P", palette=Image.ADAPTIVE, colors=16).save(os.path.join(bmp, "palette.bmp"))
rgb.convert("1").save(os.path.join(bmp, "mono.bmp"))
rgba.save(os.path.join(bmp, "alpha32.bmp"))
# 16-bit 5-6-5 with BI_BITFIELDS, 2x2, bottom-up.
pixels = struct.pack("<4H", 0xF800, 0x07E0, 0x001F, 0xFFFF)
header = struct.pack("<IiiHHIIiiII", 40, 2, 2, 1, 16, 3, len(pixels), 2835, 2835, 0, 0) + struct.pack("<3I", 0xF800, 0x07E0, 0x001F)
open(os.path.join(bmp, "masks565.bmp"), "wb").write(b"BM" + struct.pack("<IHHI", 14 + len(header) + len(pixels), 0, 0, 14 + len(header)) + header + pixels)
# RLE8, 4x2: a run, end of line, a literal of 3, a delta, end of bitmap.
data = bytes([4, 0, 0, 0, 0, 3, 1, 0, 1, 0, 0, 2, 1, 0, 0, 1])
header = struct.pack("<IiiHHIIiiII", 40, 4, 2, 1, 8, 1, len(data), 2835, 2835, 2, 0) + bytes([0, 0, 255, 0, 255, 0, 0, 0])
open(os.path.join(bmp, "rle8.bmp"), "wb").write(b"BM" + struct.pack("<IHHI", 14 + len(header) + len(data), 0, 0, 14 + len(header)) + header + data)
rgb.save(os.path.join(ico, "sizes.ico"), sizes=[(16, 16), (32, 32)])
rgba.save(os.path.join(ico, "alpha.ico"), sizes=[(16, 16), (32, 32)])
rgb.save(os.path.join(ico, "bitmap.ico"), sizes=[(16, 16)], bitmap_format="bmp")
PY
fi

# EXIF payloads (the APP1 segments after "Exif\0\0") cut from the orientation examples and
# from camera photos with an IFD1 thumbnail; small JPEGs carrying those cameras' APP1 (the
# preview decode reads their thumbnails).
mkdir -p "$work/exif-seeds" "$work/thumbnail-seeds"
python3 - "$corpus" "$work/exif-seeds" "$work/thumbnail-seeds" <<'PY'
import io, os, sys
from PIL import Image
corpus, dst, thumbs = sys.argv[1:4]
cameras = [os.path.join(corpus, "photos", name) for name in ("canon_hdr_NO.jpg", "olympus_e-p3_42_IndexError.jpg")]
paths = [os.path.join(root, name) for root, _, files in os.walk(os.path.join(corpus, "exif-orientation")) for name in files]
for path in paths + cameras:
    data = open(path, "rb").read()
    at = data.find(b"\xff\xe1")
    if at < 0: continue
    length = int.from_bytes(data[at + 2:at + 4], "big")
    payload = data[at + 4:at + 2 + length]
    open(os.path.join(dst, os.path.basename(path) + ".app1"), "wb").write(payload)
    if path in cameras:
        with Image.open(path) as im:
            small = im.convert("RGB").resize((64, 48))
        small.save(os.path.join(thumbs, os.path.basename(path)), quality=50, exif=payload)
PY

# ICC profiles cut from the colour-tagged corpus images (Pillow reads them out).
mkdir -p "$work/icc-seeds"
python3 - "$corpus/icc" "$work/icc-seeds" <<'PY'
import os, sys
from PIL import Image
src, dst = sys.argv[1], sys.argv[2]
for name in sorted(os.listdir(src)):
    try:
        with Image.open(os.path.join(src, name)) as im:
            icc = im.info.get("icc_profile")
    except Exception:
        continue
    if icc: open(os.path.join(dst, name + ".icc"), "wb").write(icc)
PY

# One fuzzer per core at a time: each is single-threaded, so the targets share the machine
# without shortening anyone's minute.
run_one() {
    local target=$1
    mkdir -p "$work/corpus/$target"
    # shellcheck disable=SC2046
    if ! "$build/$target" "$work/corpus/$target" $(seeds "$target") -max_total_time="$seconds" -max_len=262144 \
        -rss_limit_mb=3072 -timeout=20 -print_final_stats=1 -artifact_prefix="$work/artifacts/$target-" \
        >"$work/$target.log" 2>&1; then
        echo "fuzz: $target FOUND A CRASH — see $work/$target.log and $work/artifacts/"
        return 1
    fi
    echo "fuzz: $target ran ${seconds}s: $(grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$work/$target.log" | tr '\n' ' ')"
}

jobs=${FUZZ_JOBS:-$(nproc)}
status=0
running=0
for target in "${targets[@]}"; do
    if [ "$running" -ge "$jobs" ]; then
        wait -n || status=1
        running=$((running - 1))
    fi
    run_one "$target" &
    running=$((running + 1))
done
while [ "$running" -gt 0 ]; do
    wait -n || status=1
    running=$((running - 1))
done
exit $status
