#!/bin/sh
# Builds the osprey-server image from BINARY (a release build with Swift's runtime inside) as
# IMAGE, with podman. Debian's bookworm-slim base is made with mmdebstrap when podman does not
# have it, so no registry is needed; the Dockerfile's RUN steps reach Debian's archive.
# Usage: Container/build.sh BINARY IMAGE  (CONTAINERS_CONF=Container/containers.conf)
set -eu
binary=$1
image=$2
base=docker.io/library/debian:bookworm-slim
if ! podman image exists "$base"; then
    echo "container: making $base with mmdebstrap"
    mmdebstrap --quiet --variant=minbase bookworm - | podman import - "$base" >/dev/null
fi
context=$(mktemp -d)
trap 'rm -rf "$context"' EXIT
cp "$(dirname "$0")/../Dockerfile" "$binary" "$context/"
podman build --quiet --pull=never --format docker --tag "$image" "$context"
