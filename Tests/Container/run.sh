#!/bin/sh
# Runs the osprey-server image with a typical imgproxy deployment's env file, unchanged
# (Tests/Container/imgproxy.env): waits for the image's health check, then asks for a
# thumbnail signed as imgproxy signs with that file's key, salt and signature size.
# Usage: Tests/Container/run.sh IMAGE CORPUS
set -eu
image=$1
corpus=$2
here=$(cd "$(dirname "$0")" && pwd)
export CONTAINERS_CONF="$here/../../Container/containers.conf"
images=$(mktemp -d)
mkdir -p "$images/photos"
cp "$corpus/photos/jolla.jpg" "$images/photos/"
chmod -R a+rX "$images"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
name="osprey-container-test-$$"
answer="$images/answer"
cleanup() {
    podman logs "$name" >"$images/log" 2>&1 || true
    podman rm --force "$name" >/dev/null 2>&1 || true
    rm -rf "$images"
}
trap cleanup EXIT
# podman's own timer for the health check needs systemd, which a CI machine may not run: its
# complaint is kept out of the way, and the check is run here instead.
podman run --detach --name "$name" --env-file "$here/imgproxy.env" --publish "127.0.0.1:$port:8080" \
    --volume "$images:/images:ro" "$image" >/dev/null 2>"$images/podman-run.log"
healthy=no
for _ in $(seq 1 60); do
    if podman healthcheck run "$name" >/dev/null 2>&1; then healthy=yes; break; fi
    sleep 1
done
if [ "$healthy" != yes ]; then
    echo "container: the health check never passed"; podman logs "$name"; exit 1
fi
path=$(python3 - "$here/imgproxy.env" <<'PY'
import base64, hashlib, hmac, sys
from imgproxy import ImgProxy
env = dict(line.split("=", 1) for line in open(sys.argv[1]).read().splitlines() if line and not line.startswith("#"))
key, salt = (bytes.fromhex(env[name].split(",")[0]) for name in ("IMGPROXY_KEY", "IMGPROXY_SALT"))
path = ImgProxy("local:///photos/jolla.jpg", resizing_type="fill", width=160, height=120)()[len("/insecure"):]
digest = hmac.new(key, salt + path.encode(), hashlib.sha256).digest()[:int(env["IMGPROXY_SIGNATURE_SIZE"])]
print("/" + base64.urlsafe_b64encode(digest).rstrip(b"=").decode() + path)
PY
)
got=$(curl --silent --show-error --output "$answer" --write-out '%{http_code} %{content_type}' \
      --header 'Accept: image/webp,*/*' "http://127.0.0.1:$port$path")
size=$(python3 -c 'import sys; from PIL import Image; print("%dx%d" % Image.open(sys.argv[1]).size)' "$answer")
if [ "$got" != "200 image/webp" ] || [ "$size" != "160x120" ]; then
    echo "container: $path answered $got, $size"; podman logs "$name"; exit 1
fi
echo "container: healthy; a signed thumbnail answered $got, $size"
