# osprey-server as a container image that runs with an imgproxy deployment's env file
# unchanged: `podman run --env-file imgproxy.env -p 8080:8080 osprey-server`.
#
# The server is built on the host with Swift's runtime linked in (`make container` stages it
# beside this file); the image holds Debian's runtime libraries only. AVIF, HEIC and JPEG XL
# are read through libavif, libheif and libjxl, SVG through librsvg, TIFF through libtiff, and
# OpenSSL, SQLite, hiredis and libcurl serve signatures, the disk cache, Redis and origins: the
# server opens each when first needed, so the image must hold them though ldd does not list them.
FROM debian:bookworm-slim

RUN apt-get update \
    && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
        ca-certificates libcurl4 libssl3 libsqlite3-0 libhiredis0.14 libstdc++6 \
        libjpeg62-turbo libpng16-16 libwebp7 libwebpdemux2 libwebpmux3 libgif7 libcgif0 libimagequant0 libtiff6 liblcms2-2 librsvg2-2 libxml2 \
        libavif15 libheif1 libjxl0.7 \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --no-log-init --uid 10001 --user-group --home-dir /var/cache/osprey-server --create-home osprey-server

COPY osprey-server /usr/local/bin/osprey-server

USER osprey-server
# imgproxy's container listens on every address, port 8080; an env file's IMGPROXY_BIND wins.
ENV IMGPROXY_BIND=:8080 \
    OSPREY_CACHE_DIR=/var/cache/osprey-server
EXPOSE 8080
HEALTHCHECK --interval=10s --timeout=5s --start-period=5s --retries=3 CMD ["osprey-server", "health"]
ENTRYPOINT ["osprey-server"]
