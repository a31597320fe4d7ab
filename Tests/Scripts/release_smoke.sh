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
# The pipeline, batch loader and prefetcher in release: a release-only miscompile once
# crashed the batch loader (a nested function capturing task-group state).
mkdir -p "$out/www"
cp "$corpus/photos/craft-beer.jpg" "$corpus/pngsuite/basn6a16.png" "$out/www/"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
python3 -m http.server "$port" --bind 127.0.0.1 --directory "$out/www" >/dev/null 2>&1 &
server=$!
trap 'kill $server 2>/dev/null; rm -rf "$out"' EXIT
for _ in $(seq 50); do curl -s -o /dev/null "http://127.0.0.1:$port/" && break; sleep 0.1; done
urls=("http://127.0.0.1:$port/craft-beer.jpg" "http://127.0.0.1:$port/basn6a16.png")
"$osprey" load "${urls[@]}" "${urls[@]}" --size 64x64 --mode fill --process blur=2,round=8 --cache-dir "$out/cache" --json >/dev/null
printf '%s\n' "${urls[@]}" > "$out/urls.txt"
"$osprey" prefetch --from "$out/urls.txt" --cache-dir "$out/cache2" --json >/dev/null
echo "release smoke: ok"
