#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each, seeded from ../shared/corpus (or $OSPREY_CORPUS)
# and Fuzz/Seeds. Working corpora and crash artifacts stay under Fuzz/.build.
# usage: Fuzz/Scripts/run.sh BUILD_DIR SECONDS [TARGET...]
set -euo pipefail
build=$1; seconds=$2; shift 2
here=$(cd "$(dirname "$0")/.." && pwd)
corpus=${OSPREY_CORPUS:-$here/../../shared/corpus}
targets=("$@"); [ ${#targets[@]} -gt 0 ] || targets=(FuzzFormat FuzzJPEG FuzzPNG FuzzWebP FuzzGIF FuzzAPNG FuzzAVIF FuzzHEIC FuzzJXL FuzzSVG FuzzProfile FuzzExif FuzzHeaders)
work=$here/.build/fuzz-work
# Leaks inside the system's codec libraries that are not ours to free, as make test-asan has them.
export LSAN_OPTIONS=suppressions=$here/../Tests/Sanitizers/lsan.supp:print_suppressions=0
mkdir -p "$work/artifacts"

seeds() {
    case $1 in
        FuzzFormat) echo "$corpus/jpeg $corpus/pngsuite $corpus/webp" ;;
        FuzzJPEG) echo "$corpus/jpeg $corpus/exif-orientation" ;;
        FuzzPNG) echo "$corpus/pngsuite" ;;
        FuzzWebP) echo "$corpus/webp" ;;
        FuzzGIF) echo "$corpus/gif" ;;
        FuzzAPNG) echo "$corpus/apng" ;;
        FuzzAVIF) echo "$corpus/avif" ;;
        FuzzHEIC) echo "$corpus/heic" ;;
        FuzzJXL) echo "$work/jxl-seeds" ;;
        FuzzSVG) echo "$here/Seeds/svg" ;;
        FuzzProfile) echo "$work/icc-seeds" ;;
        FuzzExif) echo "$work/exif-seeds" ;;
        FuzzHeaders) echo "$here/Seeds/headers" ;;
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

# EXIF payloads (the APP1 segments after "Exif\0\0") cut from the orientation examples.
mkdir -p "$work/exif-seeds"
python3 - "$corpus/exif-orientation" "$work/exif-seeds" <<'PY'
import os, sys
src, dst = sys.argv[1], sys.argv[2]
for root, _, files in os.walk(src):
    for name in files:
        data = open(os.path.join(root, name), "rb").read()
        at = data.find(b"\xff\xe1")
        if at < 0: continue
        length = int.from_bytes(data[at + 2:at + 4], "big")
        open(os.path.join(dst, name + ".app1"), "wb").write(data[at + 4:at + 2 + length])
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

status=0
for target in "${targets[@]}"; do
    mkdir -p "$work/corpus/$target"
    echo "fuzz: $target for ${seconds}s"
    # shellcheck disable=SC2046
    if ! "$build/$target" "$work/corpus/$target" $(seeds "$target") -max_total_time="$seconds" -max_len=262144 \
        -rss_limit_mb=3072 -timeout=20 -print_final_stats=1 -artifact_prefix="$work/artifacts/$target-" \
        >"$work/$target.log" 2>&1; then
        echo "fuzz: $target FOUND A CRASH — see $work/$target.log and $work/artifacts/"
        status=1
    fi
    grep -E "^stat::number_of_executed_units|^stat::peak_rss_mb" "$work/$target.log" | sed "s/^/  /"
done
exit $status
