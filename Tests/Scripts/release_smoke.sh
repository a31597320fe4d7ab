#!/usr/bin/env bash
# The release build, run as a user would: the optimiser must not change what the debug
# build's tests proved. Converts one file of each format and checks an error's status.
set -euo pipefail
osprey=$1
corpus=${OSPREY_CORPUS:-$(cd "$(dirname "$0")/../../.." && pwd)/shared/corpus}
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
for input in photos/craft-beer.jpg pngsuite/basn6a16.png webp/animated/pillow_iss634.webp exif-orientation/Portrait_8.jpg; do
    "$osprey" convert "$corpus/$input" --size 320x320 -o "$out/thumb.png"
    "$osprey" info "$out/thumb.png" --json >/dev/null
done
"$osprey" convert "$corpus/pngsuite/basn0g01.png" -o "$out/full.webp"
status=0
"$osprey" convert "$corpus/pngsuite/xcsn0g01.png" -o "$out/x.png" 2>/dev/null || status=$?
[ "$status" = 65 ] || { echo "release smoke: expected status 65 for a corrupt file, got $status"; exit 1; }
echo "release smoke: ok"
