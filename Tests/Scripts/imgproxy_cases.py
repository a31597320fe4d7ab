#!/usr/bin/env python3
"""imgproxy's own test cases, their expectations ported and checked over HTTP against
osprey-server: v3.31.4's processing handler, signature, path repair, source, option and preset
tests (processing_handler_test.go, security/signature_test.go, fix_path_test.go,
security/source_test.go, options/processing_options_test.go, options/presets_test.go).

imgproxy's tests set its configuration in-process; here each case's configuration is an
imgproxy environment (IMGPROXY_*) that a real osprey-server process starts with, and each
expectation is read from the answer: status, headers as imgproxy's tests compare them, and the
image's format and size. imgproxy's testdata images are stood for by the corpus's (a PNG with
alpha for test1.png). Where a test reads imgproxy's internals (a parsed option, an ETag of its
own hashing), the port asserts what that shows over HTTP, and says so in `adapted`.

Cases that need what Osprey does not do yet carry `pending` with the issue that brings it; they
are run and reported, and a pending case that passes is reported too, so the list stays true.

Usage: imgproxy_cases.py OSPREY_SERVER CORPUS [--json]
Exit status 0 when every case not pending passes.
"""
import base64
import contextlib
import hashlib
import hmac
import http.client
import http.server
import io
import json
import os
import re
import shutil
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse

from PIL import Image

SERVER, CORPUS = sys.argv[1], sys.argv[2]
WORK = tempfile.mkdtemp(prefix="imgproxy-cases-")
LOCAL = os.path.join(WORK, "local")
os.makedirs(LOCAL)
shutil.copy(os.path.join(CORPUS, "pngsuite/basn6a08.png"), os.path.join(LOCAL, "test1.png"))
shutil.copy(os.path.join(CORPUS, "photos/jolla.jpg"), os.path.join(LOCAL, "photo.jpg"))
with open(os.path.join(LOCAL, "notes.txt"), "w") as f:
    f.write("not an image\n")
TEST1 = open(os.path.join(LOCAL, "test1.png"), "rb").read()
KEY, SALT = b"test-key".hex(), b"test-salt".hex()


def sign(path, key=b"test-key", salt=b"test-salt", size=32):
    """imgproxy's signature of `path`: HMAC-SHA256 of salt + path, cut to `size` bytes."""
    digest = hmac.new(key, salt + path.encode(), hashlib.sha256).digest()[:size]
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode()


# MARK: The origin: a loopback server whose answers each case sets


class Origin:
    def __init__(self):
        self.routes = {}
        self.seen = []
        origin = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                origin.seen.append((self.path, dict(self.headers)))
                route = origin.routes.get(self.path.split("?")[0])
                if route is None:
                    self.send_response(404)
                    self.end_headers()
                    return
                status, headers, body = route(self.headers)
                self.send_response(status)
                for name, value in headers.items():
                    self.send_header(name, value)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

            def log_message(self, *args):
                pass

        self.httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.httpd.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self.httpd.server_address[1]}"

    def serve(self, path, body=TEST1, headers=None, status=200, handler=None):
        self.routes[path] = handler or (lambda _: (status, headers or {}, body))
        return self.base + path


ORIGIN = Origin()


# MARK: osprey-server under an imgproxy environment


class Server:
    def __init__(self, env):
        self.folder = tempfile.mkdtemp(dir=WORK)
        self.log = open(os.path.join(self.folder, "log"), "w+")
        base = {"IMGPROXY_LOCAL_FILESYSTEM_ROOT": LOCAL, "IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "true"}
        environment = {k: v for k, v in os.environ.items() if not k.startswith(("IMGPROXY_", "OSPREY_"))}
        environment.update({k: v for k, v in {**base, **env}.items() if v is not None})
        for attempt in range(5):
            with socket.socket() as s:
                s.bind(("127.0.0.1", 0))
                self.port = s.getsockname()[1]
            self.process = subprocess.Popen([SERVER, "--host", "127.0.0.1", "--port", str(self.port), "--cache-dir",
                                             os.path.join(self.folder, "cache")], env=environment, stdout=self.log,
                                            stderr=subprocess.STDOUT)
            deadline = time.time() + 60
            while time.time() < deadline and self.process.poll() is None:
                if f"listening on http://127.0.0.1:{self.port}/" in self.text():
                    return
                time.sleep(0.05)
            self.process.kill()
            self.process.wait()
            if "Address already in use" not in self.text():
                break
        raise RuntimeError("osprey-server did not start: " + self.text()[-2000:])

    def text(self):
        self.log.flush()
        with open(self.log.name) as f:
            return f.read()

    def get(self, path, headers=None, method="GET"):
        connection = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        connection.request(method, path, headers=headers or {})
        response = connection.getresponse()
        body = response.read()
        connection.close()
        return Answer(response.status, {k.lower(): v for k, v in response.getheaders()}, body)

    def stop(self):
        self.process.terminate()
        self.process.wait(timeout=30)


class Answer:
    def __init__(self, status, headers, body):
        self.status, self.headers, self.body = status, headers, body

    def image(self):
        image = Image.open(io.BytesIO(self.body))
        return image.format, image.size

    def __repr__(self):
        return f"{self.status} {self.headers.get('content-type')} {self.body[:60]!r}"


def start_refused(env):
    """The server's exit status and message when `env` stops its start; None once it listens."""
    environment = {k: v for k, v in os.environ.items() if not k.startswith(("IMGPROXY_", "OSPREY_"))}
    environment.update(env)
    with tempfile.TemporaryFile("w+") as log:
        process = subprocess.Popen([SERVER, "--host", "127.0.0.1", "--port", "0", "--cache-dir", os.path.join(WORK, "refused")],
                                   env=environment, stdout=log, stderr=subprocess.STDOUT)
        deadline = time.time() + 60
        while process.poll() is None and time.time() < deadline:
            log.seek(0)
            if "listening on" in log.read():
                process.terminate()
                process.wait()
                return None
            time.sleep(0.05)
        if process.poll() is None:
            process.kill()
        log.seek(0)
        return (process.wait(), log.read())


# MARK: Cases

CASES = []


def case(source, name, env=None, adapted=None, pending=None):
    def register(check):
        CASES.append({"source": source, "name": name, "env": env or {}, "adapted": adapted, "pending": pending, "check": check})
        return check
    return register


def expect(condition, message):
    if not condition:
        raise AssertionError(message)


H = "processing_handler_test.go"
SIGNED = {"IMGPROXY_KEY": KEY, "IMGPROXY_SALT": SALT}


@case(H, "TestRequest")
def _(s):
    a = s.get("/unsafe/rs:fill:4:4/plain/local:///test1.png")
    expect(a.status == 200 and a.headers.get("content-type") == "image/png", a)
    expect(a.image() == ("PNG", (4, 4)), a.image())


@case(H, "TestSignatureValidationFailure", SIGNED)
def _(s):
    expect(s.get("/unsafe/rs:fill:4:4/plain/local:///test1.png").status == 403, "unsigned refused")


@case(H, "TestSignatureValidationSuccess", SIGNED)
def _(s):
    a = s.get("/My9d3xq_PYpVHsPrCyww0Kh1w5KZeZhIlWhsa4az1TI/rs:fill:4:4/plain/local:///test1.png")
    expect(a.status == 200, a)


for label, allowed, path, refused in [
        ("match http URL without wildcard", "local://,http://images.dev/", "/unsafe/plain/http://images.dev/lorem/ipsum.jpg", False),
        ("match http URL with wildcard in hostname single level", "local://,http://*.mycdn.dev/",
         "/unsafe/plain/http://a-1.mycdn.dev/lorem/ipsum.jpg", False),
        ("match http URL with wildcard in hostname multiple levels", "local://,http://*.mycdn.dev/",
         "/unsafe/plain/http://a-1.b-2.mycdn.dev/lorem/ipsum.jpg", False),
        ("no match s3 URL with allowed local and http URLs", "local://,http://images.dev/", "/unsafe/plain/s3://images/lorem/ipsum.jpg", True),
        ("no match http URL with wildcard in hostname including slash", "local://,http://*.mycdn.dev/",
         "/unsafe/plain/http://other.dev/.mycdn.dev/lorem/ipsum.jpg", True)]:
    @case(H, "TestSourceValidation/" + label, {"IMGPROXY_ALLOWED_SOURCES": allowed},
          adapted="imgproxy's test redirects every fetch to a local file; these hosts do not resolve here, so an allowed "
                  "source is one not refused as an invalid source URL")
    def _(s, path=path, refused=refused):
        a = s.get(path)
        if refused:
            expect(a.status == 404 and a.body == b"Invalid source URL\n", a)
        else:
            expect(a.body != b"Invalid source URL\n", a)


@case(H, "TestSourceNetworkValidation")
def _(s):
    url = ORIGIN.serve("/network/test1.png")
    expect(s.get(f"/unsafe/rs:fill:4:4/plain/{url}").status == 200, "loopback allowed")
    closed = Server({"IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "false"})
    try:
        expect(closed.get(f"/unsafe/rs:fill:4:4/plain/{url}").status == 404, "loopback refused")
    finally:
        closed.stop()


@case(H, "TestSourceFormatNotSupported", adapted="a source no decoder reads stands for PNG loading turned off")
def _(s):
    expect(s.get("/unsafe/rs:fill:4:4/plain/local:///notes.txt").status == 422, "422")


@case(H, "TestResultingFormatNotSupported", adapted="a format no encoder writes stands for PNG saving turned off")
def _(s):
    expect(s.get("/unsafe/rs:fill:4:4/plain/local:///test1.png@svg").status == 422, "422")


@case(H, "TestSkipProcessingConfig", {"IMGPROXY_SKIP_PROCESSING_FORMATS": "png"})
def _(s):
    a = s.get("/unsafe/rs:fill:4:4/plain/local:///test1.png")
    expect(a.status == 200 and a.body == TEST1, a)


@case(H, "TestSkipProcessingPO")
def _(s):
    a = s.get("/unsafe/rs:fill:4:4/skp:png/plain/local:///test1.png")
    expect(a.status == 200 and a.body == TEST1, a)


@case(H, "TestSkipProcessingSameFormat", {"IMGPROXY_SKIP_PROCESSING_FORMATS": "png"})
def _(s):
    a = s.get("/unsafe/rs:fill:4:4/plain/local:///test1.png@png")
    expect(a.status == 200 and a.body == TEST1, a)


@case(H, "TestSkipProcessingDifferentFormat", {"IMGPROXY_SKIP_PROCESSING_FORMATS": "png"})
def _(s):
    a = s.get("/unsafe/rs:fill:4:4/plain/local:///test1.png@jpg")
    expect(a.status == 200 and a.body != TEST1, a)


SVG = (b'<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10">'
       b'<script>alert(1)</script><rect width="10" height="10" fill="red" onload="alert(2)"/></svg>')
with open(os.path.join(LOCAL, "test1.svg"), "wb") as f:
    f.write(SVG)
SANITIZED = "imgproxy compares the answer with its own sanitiser's bytes; here the answer is SVG with no script or handler left"


@case(H, "TestSkipProcessingSVG", adapted=SANITIZED)
def _(s):
    a = s.get("/unsafe/rs:fill:4:4/plain/local:///test1.svg")
    expect(a.status == 200 and a.headers.get("content-type") == "image/svg+xml", a)
    expect(b"<svg" in a.body and b"<rect" in a.body and b"script" not in a.body and b"onload" not in a.body, a.body)
    expect(a.headers.get("content-security-policy") == "script-src 'none'", a.headers)


@case(H, "TestNotSkipProcessingSVGToJPG")
def _(s):
    a = s.get("/unsafe/rs:fill:4:4/plain/local:///test1.svg@jpg")
    expect(a.status == 200 and a.body != SVG and a.image() == ("JPEG", (4, 4)), a)


@case(H, "TestAlwaysRasterizeSvg", {"IMGPROXY_ALWAYS_RASTERIZE_SVG": "true"})
def _(s):
    a = s.get("/unsafe/rs:fill:40:40/plain/local:///test1.svg")
    expect(a.status == 200 and a.headers.get("content-type") == "image/png", a)
    expect(a.image() == ("PNG", (40, 40)), "drawn at the size asked, past its own 10x10")


@case(H, "TestAlwaysRasterizeSvgWithEnforceAvif", {"IMGPROXY_ALWAYS_RASTERIZE_SVG": "true", "IMGPROXY_ENFORCE_WEBP": "true"})
def _(s):
    a = s.get("/unsafe/plain/local:///test1.svg", headers={"Accept": "image/webp"})
    expect(a.status == 200 and a.headers.get("content-type") == "image/webp", a)


@case(H, "TestAlwaysRasterizeSvgDisabled", {"IMGPROXY_ALWAYS_RASTERIZE_SVG": "false", "IMGPROXY_ENFORCE_WEBP": "true"})
def _(s):
    a = s.get("/unsafe/plain/local:///test1.svg")
    expect(a.status == 200 and a.headers.get("content-type") == "image/svg+xml", a)


@case(H, "TestAlwaysRasterizeSvgWithFormat", {"IMGPROXY_ALWAYS_RASTERIZE_SVG": "true", "IMGPROXY_SKIP_PROCESSING_FORMATS": "svg"})
def _(s):
    a = s.get("/unsafe/plain/local:///test1.svg@svg")
    expect(a.status == 200 and a.headers.get("content-type") == "image/svg+xml", a)


@case(H, "TestErrorSavingToSVG")
def _(s):
    expect(s.get("/unsafe/rs:fill:4:4/plain/local:///test1.png@svg").status == 422, "422")


def passthrough_origin(path, headers):
    return ORIGIN.serve(path, headers=headers)


def http_date(seconds_from_now):
    return time.strftime("%a, %d %b %Y %H:%M:%S GMT", time.gmtime(time.time() + seconds_from_now))


@case(H, "TestCacheControlPassthroughCacheControl", {"IMGPROXY_CACHE_CONTROL_PASSTHROUGH": "true"},
      adapted="Osprey keeps the source's freshness, not its header: the header is rebuilt from it, in imgproxy's form")
def _(s):
    url = passthrough_origin("/cc/test1.png", {"Cache-Control": "max-age=1234, public", "Expires": http_date(3600)})
    a = s.get("/unsafe/rs:fill:4:4/plain/" + url)
    expect(a.headers.get("cache-control") == "max-age=1234, public" and "expires" not in a.headers, a.headers)


@case(H, "TestCacheControlPassthroughExpires", {"IMGPROXY_CACHE_CONTROL_PASSTHROUGH": "true"})
def _(s):
    url = passthrough_origin("/expires/test1.png", {"Expires": http_date(1239)})
    a = s.get("/unsafe/rs:fill:4:4/plain/" + url)
    expect(re.fullmatch(r"max-age=123[0-9], public", a.headers.get("cache-control", "")) and "expires" not in a.headers, a.headers)


@case(H, "TestCacheControlPassthroughDisabled", {"IMGPROXY_CACHE_CONTROL_PASSTHROUGH": "false"})
def _(s):
    url = passthrough_origin("/nopass/test1.png", {"Cache-Control": "max-age=1234, public", "Expires": http_date(3600)})
    a = s.get("/unsafe/rs:fill:4:4/plain/" + url)
    expect(a.headers.get("cache-control") != "max-age=1234, public" and "expires" not in a.headers, a.headers)


@case(H, "TestETagDisabled", {"IMGPROXY_USE_ETAG": "false"})
def _(s):
    a = s.get("/unsafe/rs:fill:4:4/plain/local:///test1.png")
    expect(a.status == 200 and "etag" not in a.headers, a.headers)


ETAG_ADAPTED = "Osprey's ETags are its own hashes: the port checks that one is sent, and that it, and only it, gets a 304"
ETAGGED = {"IMGPROXY_USE_ETAG": "true"}


def etag_origin(path, tag):
    return ORIGIN.serve(path, headers={"ETag": tag} if tag else {})


for name, tag in [("TestETagReqNoIfNotModified", '"loremipsumdolor"'), ("TestETagDataNoIfNotModified", None)]:
    @case(H, name, ETAGGED, adapted=ETAG_ADAPTED)
    def _(s, name=name, tag=tag):
        a = s.get(f"/unsafe/rs:fill:4:4/plain/{etag_origin('/' + name + '/test1.png', tag)}")
        expect(a.status == 200 and a.headers.get("etag"), a.headers)


for name, tag in [("TestETagReqMatch", '"loremipsumdolor"'), ("TestETagDataMatch", None)]:
    @case(H, name, ETAGGED, adapted=ETAG_ADAPTED)
    def _(s, name=name, tag=tag):
        path = f"/unsafe/rs:fill:4:4/plain/{etag_origin('/' + name + '/test1.png', tag)}"
        first = s.get(path)
        again = s.get(path, {"If-None-Match": first.headers["etag"]})
        expect(again.status == 304 and again.headers.get("etag") == first.headers["etag"], again.headers)


for name, tag in [("TestETagReqNotMatch", '"loremipsumdolor"'), ("TestETagDataNotMatch", None), ("TestETagProcessingOptionsNotMatch", None)]:
    @case(H, name, ETAGGED, adapted=ETAG_ADAPTED)
    def _(s, name=name, tag=tag):
        path = f"/unsafe/rs:fill:4:4/plain/{etag_origin('/' + name + '/test1.png', tag)}"
        first = s.get(path)
        other = s.get(path, {"If-None-Match": '"loremipsum"'})
        expect(other.status == 200 and other.headers.get("etag") == first.headers["etag"], other.headers)


LAST_MODIFIED = "Wed, 21 Oct 2015 07:28:00 GMT"


def modified_origin(path):
    """An origin that answers 304 when the client's date is at or after its file's."""
    def answer(headers):
        since = headers.get("If-Modified-Since")
        if since and time.strptime(since, "%a, %d %b %Y %H:%M:%S GMT") >= time.strptime(LAST_MODIFIED, "%a, %d %b %Y %H:%M:%S GMT"):
            return 304, {"Last-Modified": LAST_MODIFIED}, b""
        return 200, {"Last-Modified": LAST_MODIFIED}, TEST1
    return ORIGIN.serve(path, handler=answer)


@case(H, "TestLastModifiedEnabled", {"IMGPROXY_USE_LAST_MODIFIED": "true"})
def _(s):
    a = s.get("/unsafe/rs:fill:4:4/plain/" + modified_origin("/lm-on/test1.png"))
    expect(a.headers.get("last-modified") == LAST_MODIFIED, a.headers)


@case(H, "TestLastModifiedDisabled", {"IMGPROXY_USE_LAST_MODIFIED": "false"})
def _(s):
    a = s.get("/unsafe/rs:fill:4:4/plain/" + modified_origin("/lm-off/test1.png"))
    expect("last-modified" not in a.headers, a.headers)


for name, since, enabled, status in [
        ("TestModifiedSinceReqExactMatchLastModifiedDisabled", LAST_MODIFIED, False, 200),
        ("TestModifiedSinceReqExactMatchLastModifiedEnabled", LAST_MODIFIED, True, 304),
        ("TestModifiedSinceReqCompareMoreRecentLastModifiedDisabled", "Thu, 25 Feb 2021 01:45:00 GMT", False, 200),
        ("TestModifiedSinceReqCompareMoreRecentLastModifiedEnabled", "Thu, 25 Feb 2021 01:45:00 GMT", True, 304),
        ("TestModifiedSinceReqCompareTooOldLastModifiedDisabled", "Tue, 01 Oct 2013 17:31:00 GMT", False, 200),
        ("TestModifiedSinceReqCompareTooOldLastModifiedEnabled", "Tue, 01 Oct 2013 17:31:00 GMT", True, 200)]:
    @case(H, name, {"IMGPROXY_USE_LAST_MODIFIED": "true" if enabled else "false"},
          adapted="the origin answers as a real one would (its file, or 304 for a date at or after the file's); "
                  "Osprey compares the date with what it keeps rather than passing it on")
    def _(s, name=name, since=since, status=status):
        a = s.get(f"/unsafe/plain/{modified_origin('/' + name + '/test1.png')}", {"If-Modified-Since": since})
        expect(a.status == status, a)


S = "security/signature_test.go"
# imgproxy's own figures, for the path "asd": the signer here cuts signatures as imgproxy does.
assert sign("asd") == "dtLwhdnPPiu_epMl1LrzheLpvHas-4mwvY6L3Z8WwlY"
assert sign("asd", size=8) == "dtLwhdnPPis"
assert sign("asd", b"test-key2", b"test-salt2") == "jbDffNPt1-XBgDccsaE-XJB9lx8JIJqdeYIZKgOqZpg"
SIGNED_PATH = "/rs:fill:4:4/plain/local:///test1.png"
SIG_ADAPTED = "imgproxy signs the path `asd`; a URL's path starts with a slash, so a real path is signed the same way"


@case(S, "TestVerifySignature", SIGNED, adapted=SIG_ADAPTED)
def _(s):
    expect(s.get("/" + sign(SIGNED_PATH) + SIGNED_PATH).status == 200, "full signature")


@case(S, "TestVerifySignatureTruncated", {**SIGNED, "IMGPROXY_SIGNATURE_SIZE": "8"}, adapted=SIG_ADAPTED)
def _(s):
    expect(s.get("/" + sign(SIGNED_PATH, size=8) + SIGNED_PATH).status == 200, "8-byte signature")
    expect(s.get("/" + sign(SIGNED_PATH) + SIGNED_PATH).status == 403, "a whole signature is not an 8-byte one")


@case(S, "TestVerifySignatureInvalid", SIGNED, adapted=SIG_ADAPTED)
def _(s):
    expect(s.get("/" + sign(SIGNED_PATH, size=8) + SIGNED_PATH).status == 403, "cut signature refused")


@case(S, "TestVerifySignatureMultiplePairs", {"IMGPROXY_KEY": KEY + "," + b"test-key2".hex(), "IMGPROXY_SALT": SALT + "," + b"test-salt2".hex()},
      adapted=SIG_ADAPTED)
def _(s):
    expect(s.get("/" + sign(SIGNED_PATH) + SIGNED_PATH).status == 200, "first pair")
    expect(s.get("/" + sign(SIGNED_PATH, b"test-key2", b"test-salt2") + SIGNED_PATH).status == 200, "second pair")
    expect(s.get("/" + sign(SIGNED_PATH, size=8) + SIGNED_PATH).status == 403, "cut signature refused")


@case(S, "TestVerifySignatureTrusted", {**SIGNED, "IMGPROXY_TRUSTED_SIGNATURES": "truested"})
def _(s):
    expect(s.get("/truested" + SIGNED_PATH).status == 200, "trusted")
    expect(s.get("/untrusted" + SIGNED_PATH).status == 403, "untrusted")


F = "fix_path_test.go"
FIX_ADAPTED = "imgproxy's test calls fixPath; here the repaired path must be the one signed and served"
for label, given, fixed in [
        ("http:/ repaired", "/w:4/h:4/plain/http:/{origin}/fix/test1.png", "/w:4/h:4/plain/http://{origin}/fix/test1.png"),
        ("local:/ repaired", "/w:4/h:4/plain/local:/test1.png", "/w:4/h:4/plain/local:///test1.png"),
        ("%3A in options and local:/", "/w%3A4/h%3A4/plain/local:/test1.png", "/w:4/h:4/plain/local:///test1.png"),
        ("%3A without plain", "/w%3A4/h%3A4/{b64}", "/w:4/h:4/{b64}"),
        ("%3A with an empty plain source", "/w%3A4/h%3A4/plain/", "/w:4/h:4/plain/")]:
    @case(F, "TestFixPath/" + label, SIGNED, adapted=FIX_ADAPTED)
    def _(s, given=given, fixed=fixed):
        ORIGIN.serve("/fix/test1.png")
        host = ORIGIN.base[len("http://"):]
        b64 = base64.urlsafe_b64encode(b"local:///test1.png").rstrip(b"=").decode()
        given, fixed = (p.replace("{origin}", host).replace("{b64}", b64) for p in (given, fixed))
        a = s.get("/" + sign(fixed) + given)
        if fixed.endswith("/plain/"):
            expect(a.status == 404 and a.body == b"Invalid URL\n", a)
        else:
            expect(a.status == 200 and a.image()[1] == (4, 4), a)


N = "security/source_test.go"
for label, url, env, refused in [
        ("Loopback local not allowed", "{origin}", {"IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "false"}, True),
        ("Loopback local allowed", "{origin}", {"IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "true"}, False),
        ("Unspecified (0.0.0.0) not allowed", "http://0.0.0.0:1/x.png", {"IMGPROXY_ALLOW_LOOPBACK_SOURCE_ADDRESSES": "true"}, True),
        ("Link local unicast not allowed", "http://169.254.0.1:1/x.png", {}, True),
        ("Private address not allowed", "http://192.168.0.1:1/x.png", {"IMGPROXY_ALLOW_PRIVATE_SOURCE_ADDRESSES": "false"}, True)]:
    @case(N, "TestVerifySourceNetwork/" + label, env,
          adapted="imgproxy's test calls the address check; here the source is asked for, and a refused one is 404 before any connection")
    def _(s, url=url, refused=refused):
        source = url.replace("{origin}", ORIGIN.serve("/net/test1.png"))
        a = s.get("/unsafe/w:4/plain/" + source)
        expect(a.status == 404 if refused else a.status == 200, a)


O = "options/processing_options_test.go"
OPT_ADAPTED = "imgproxy's test reads the parsed options; here the answer shows them"


def b64(url):
    return base64.urlsafe_b64encode(url.encode()).rstrip(b"=").decode()


@case(O, "TestParseBase64URL", adapted=OPT_ADAPTED)
def _(s):
    a = s.get(f"/unsafe/size:4:4/{b64(ORIGIN.serve('/b64/ipsum.jpg') + '?param=value')}.png")
    expect(a.status == 200 and a.headers.get("content-type") == "image/png", a)
    expect(any(p == "/b64/ipsum.jpg?param=value" for p, _ in ORIGIN.seen), "the query reaches the origin")


BASE = {"IMGPROXY_BASE_URL": ORIGIN.base + "/"}
KEPT = OPT_ADAPTED + ": no format named, a PNG source stays PNG"
for name, env, adapted, path in [
        ("TestParseBase64URLWithoutExtension", {}, KEPT, lambda: f"/unsafe/size:4:4/{b64(ORIGIN.serve('/b64-plain/ipsum.jpg'))}"),
        ("TestParseBase64URLWithBase", BASE, OPT_ADAPTED, lambda: f"/unsafe/size:4:4/{b64('lorem/ipsum.jpg')}.png"),
        ("TestParsePlainURL", {}, OPT_ADAPTED, lambda: f"/unsafe/size:4:4/plain/{ORIGIN.serve('/plain/ipsum.jpg')}@png"),
        ("TestParsePlainURLWithoutExtension", {}, KEPT, lambda: f"/unsafe/size:4:4/plain/{ORIGIN.serve('/plain-bare/ipsum.jpg')}"),
        ("TestParsePlainURLEscaped", {}, OPT_ADAPTED,
         lambda: f"/unsafe/size:4:4/plain/{urllib.parse.quote(ORIGIN.serve('/escaped/ipsum.jpg') + '?param=value', safe='')}@png"),
        ("TestParsePlainURLWithBase", BASE, OPT_ADAPTED, lambda: "/unsafe/size:4:4/plain/lorem/ipsum.jpg@png"),
        ("TestParsePlainURLEscapedWithBase", BASE, OPT_ADAPTED,
         lambda: f"/unsafe/size:4:4/plain/{urllib.parse.quote('lorem/ipsum.jpg?param=value', safe='')}@png")]:
    @case(O, name, env, adapted=adapted)
    def _(s, path=path):
        ORIGIN.serve("/lorem/ipsum.jpg")
        a = s.get(path())
        expect(a.status == 200 and a.headers.get("content-type") == "image/png", a)


REPLACEMENTS = {"IMGPROXY_URL_REPLACEMENTS": f"test://*/=test2://{ORIGIN.base[len('http://'):]}/${{1}}/dolor/;test2://=http://"}
REPLACED = OPT_ADAPTED + "; the replacements lead to the test's origin instead of images.dev"
for name, path in [("TestParseBase64URLWithReplacement", lambda: f"/unsafe/size:4:4/{b64('test://lorem/ipsum.jpg?param=value')}.png"),
                   ("TestParsePlainURLWithReplacement", lambda: "/unsafe/size:4:4/plain/test://lorem/ipsum.jpg?param=value@png")]:
    @case(O, name, REPLACEMENTS, adapted=REPLACED)
    def _(s, path=path):
        ORIGIN.serve("/lorem/dolor/ipsum.jpg")
        a = s.get(path())
        expect(a.status == 200 and a.headers.get("content-type") == "image/png", a)
        expect("/lorem/dolor/ipsum.jpg?param=value" in [seen for seen, _ in ORIGIN.seen], ORIGIN.seen[-3:])


@case(O, "TestParseWithArgumentsSeparator", {"IMGPROXY_ARGUMENTS_SEPARATOR": ","}, adapted=OPT_ADAPTED)
def _(s):
    a = s.get("/unsafe/size,64,64,1/plain/local:///test1.png@png")
    expect(a.status == 200 and a.image() == ("PNG", (64, 64)), a)
    expect(s.get("/unsafe/size:64:64:1/plain/local:///test1.png@png").status == 404, "`:` is not the separator then")


@case(O, "TestParseBase64URLWithFilename", {"IMGPROXY_BASE64_URL_INCLUDES_FILENAME": "true"}, adapted=OPT_ADAPTED)
def _(s):
    a = s.get(f"/unsafe/size:4:4/{b64(ORIGIN.serve('/with-filename/ipsum.jpg'))}.png/puppy.jpg")
    expect(a.status == 200 and a.headers.get("content-type") == "image/png", a)


@case(O, "TestParseAllowedOptions", {"IMGPROXY_ALLOWED_PROCESSING_OPTIONS": "w,h,pr", "IMGPROXY_PRESETS": "test1=blur:0.2"},
      adapted="imgproxy's test reads the parser's error; here the answer is imgproxy's 404 for it")
def _(s):
    source = b64(ORIGIN.serve("/allowed/ipsum.jpg"))
    for options, status in [("w:4/h:4", 200), ("w:4/h:4/blur:10", 404), ("w:4/h:4/pr:test1", 200), ("w:4/h:4/pr:test1/blur:10", 404)]:
        a = s.get(f"/unsafe/{options}/{source}.png")
        expect(a.status == status, f"{options}: {a}")


@case(O, "TestParsePathFormat", adapted=OPT_ADAPTED)
def _(s):
    a = s.get("/unsafe/format:webp/w:4/plain/local:///test1.png")
    expect(a.headers.get("content-type") == "image/webp", a)


@case(O, "TestParsePathWebpDetection", {"IMGPROXY_AUTO_WEBP": "true"}, adapted=OPT_ADAPTED)
def _(s):
    a = s.get("/unsafe/w:4/plain/local:///photo.jpg", {"Accept": "image/webp"})
    expect(a.headers.get("content-type") == "image/webp" and a.headers.get("vary") == "Accept", a.headers)
    b = s.get("/unsafe/w:4/plain/local:///photo.jpg@png", {"Accept": "image/webp"})
    expect(b.headers.get("content-type") == "image/png", "auto, not enforced: the URL's format stands")


@case(O, "TestParsePathWebpEnforce", {"IMGPROXY_ENFORCE_WEBP": "true"}, adapted=OPT_ADAPTED)
def _(s):
    a = s.get("/unsafe/w:4/plain/local:///photo.jpg@png", {"Accept": "image/webp"})
    expect(a.headers.get("content-type") == "image/webp", a.headers)


@case(O, "TestParsePathWidthHeader", {"IMGPROXY_ENABLE_CLIENT_HINTS": "true"}, adapted=OPT_ADAPTED)
def _(s):
    a = s.get("/unsafe/plain/local:///photo.jpg@png", {"Width": "100"})
    expect(a.image()[1][0] == 100 and "Width" in a.headers.get("vary", ""), (a.image(), a.headers))


@case(O, "TestParsePathWidthHeaderDisabled", adapted=OPT_ADAPTED)
def _(s):
    a = s.get("/unsafe/plain/local:///photo.jpg@png", {"Width": "100"})
    expect(a.image()[1][0] != 100, a.image())


@case(O, "TestParsePathWidthHeaderRedefine", {"IMGPROXY_ENABLE_CLIENT_HINTS": "true"}, adapted=OPT_ADAPTED)
def _(s):
    a = s.get("/unsafe/width:150/plain/local:///photo.jpg@png", {"Width": "100"})
    expect(a.image()[1][0] == 150, a.image())


@case(O, "TestParsePathDprHeader", {"IMGPROXY_ENABLE_CLIENT_HINTS": "true"}, adapted=OPT_ADAPTED)
def _(s):
    a = s.get("/unsafe/w:50/plain/local:///photo.jpg@png", {"Dpr": "2"})
    expect(a.image()[1][0] == 100, a.image())


@case(O, "TestParsePathDprHeaderDisabled", adapted=OPT_ADAPTED)
def _(s):
    a = s.get("/unsafe/w:50/plain/local:///photo.jpg@png", {"Dpr": "2"})
    expect(a.image()[1][0] == 50, a.image())


@case(O, "TestParseSkipProcessing", adapted=OPT_ADAPTED)
def _(s):
    a = s.get("/unsafe/w:4/skp:jpg:png/plain/local:///test1.png")
    expect(a.status == 200 and a.body == TEST1, a)


@case(O, "TestParseSkipProcessingInvalid", adapted=OPT_ADAPTED)
def _(s):
    a = s.get("/unsafe/w:4/skp:jpg:png:bad_format/plain/local:///test1.png")
    expect(a.status == 404 and a.body == b"Invalid URL\n", a)


@case(O, "TestParseExpires", adapted=OPT_ADAPTED)
def _(s):
    expect(s.get("/unsafe/exp:32503669200/w:4/plain/local:///test1.png").status == 200, "not expired")


@case(O, "TestParseExpiresExpired", adapted=OPT_ADAPTED)
def _(s):
    a = s.get("/unsafe/exp:1609448400/w:4/plain/local:///test1.png")
    expect(a.status == 404 and a.body == b"Invalid URL\n", a)


PRESETS = {"IMGPROXY_PRESETS": "test1=resizing_type:fill/width:4/height:2,test2=blur:0.2/quality:50"}


@case(O, "TestParsePathPreset", PRESETS, adapted=OPT_ADAPTED)
def _(s):
    a = s.get("/unsafe/preset:test1:test2/plain/local:///photo.jpg@png")
    expect(a.image()[1] == (4, 2), a.image())


@case(O, "TestParsePathPresetDefault", {"IMGPROXY_PRESETS": "default=resizing_type:fill/width:4/height:2/quality:50"}, adapted=OPT_ADAPTED)
def _(s):
    a = s.get("/unsafe/quality:70/plain/local:///photo.jpg@png")
    expect(a.image()[1] == (4, 2), a.image())


@case(O, "TestParsePathPresetLoopDetection", {"IMGPROXY_PRESETS": "test1=resizing_type:fill/preset:test2,test2=width:4/height:2/preset:test1"},
      adapted=OPT_ADAPTED)
def _(s):
    a = s.get("/unsafe/preset:test1/plain/local:///photo.jpg@png")
    expect(a.status == 200 and a.image()[1] == (4, 2), a)


@case(O, "TestParsePathOnlyPresets", {**PRESETS, "IMGPROXY_ONLY_PRESETS": "true"}, adapted=OPT_ADAPTED)
def _(s):
    a = s.get("/unsafe/test1:test2/plain/local:///photo.jpg@png")
    expect(a.image()[1] == (4, 2), a.image())


@case(O, "TestParseBase64URLOnlyPresets", {**PRESETS, "IMGPROXY_ONLY_PRESETS": "true"}, adapted=OPT_ADAPTED)
def _(s):
    a = s.get(f"/unsafe/test1:test2/{b64('local:///photo.jpg')}.png")
    expect(a.image() == ("PNG", (4, 2)), a.image())


@case(O, "TestParsePathStripMetadata", adapted=OPT_ADAPTED + "; answers never carry metadata, so the option is accepted")
def _(s):
    for value in ("true", "false"):
        expect(s.get(f"/unsafe/strip_metadata:{value}/w:4/plain/local:///photo.jpg").status == 200, value)


P = "options/presets_test.go"
for name, presets, starts in [("TestParsePreset", "test=resizing_type:fill/blur:0.2", True),
                              ("TestParsePresetInvalidString", "test", False),
                              ("TestParsePresetEmptyName", "=resizing_type:fill/blur:0.2", False),
                              ("TestParsePresetEmptyValue", "test=", False),
                              ("TestParsePresetInvalidValue", "test=resizing_type:fill/blur", False),
                              ("TestParsePresetEmptyString", "  ", True),
                              ("TestParsePresetComment", "#  test=resizing_type:fill", True),
                              ("TestValidatePresets", "test=resizing_type:fill/blur:0.2", True),
                              ("TestValidatePresetsInvalid", "test=resizing_type:fill/blur:-0.2", False)]:
    @case(P, name, adapted="imgproxy's test parses one preset; here a server starts with it, or refuses to")
    def _(s, presets=presets, starts=starts):
        path = os.path.join(WORK, "presets.txt")
        with open(path, "w") as f:
            f.write(presets + "\n")
        refused = start_refused({"IMGPROXY_PRESETS_PATH": path, "IMGPROXY_BIND": "127.0.0.1:1"})
        if starts:
            expect(refused is None or "IMGPROXY_PRESETS" not in refused[1], refused)
        else:
            expect(refused is not None and "IMGPROXY_PRESETS" in refused[1], "refused to start")


D = "docs/configuration/options.md (v3.31), over HTTP"


@case(D, "HEAD and CORS preflight OPTIONS answer 200 at once", {"IMGPROXY_ALLOW_ORIGIN": "https://app.example"})
def _(s):
    for method in ("HEAD", "OPTIONS"):
        a = s.get("/unsafe/rs:fill:4:4/plain/local:///test1.png", method=method)
        expect(a.status == 200 and a.body == b"" and a.headers.get("access-control-allow-origin") == "https://app.example"
               and a.headers.get("access-control-allow-methods") == "GET, OPTIONS", (method, a.headers))


@case(D, "IMGPROXY_ENABLE_DEBUG_HEADERS", {"IMGPROXY_ENABLE_DEBUG_HEADERS": "true"})
def _(s):
    a = s.get("/unsafe/rs:fill:4:2/plain/local:///test1.png")
    expected = {"x-result-width": "4", "x-result-height": "2", "x-origin-width": "32", "x-origin-height": "32",
                "x-origin-content-length": str(len(TEST1))}
    expect(all(a.headers.get(k) == v for k, v in expected.items()), a.headers)


@case(D, "IMGPROXY_FALLBACK_IMAGE_PATH with its HTTP code and TTL",
      {"IMGPROXY_FALLBACK_IMAGE_PATH": os.path.join(LOCAL, "test1.png"), "IMGPROXY_FALLBACK_IMAGE_HTTP_CODE": "404",
       "IMGPROXY_FALLBACK_IMAGE_TTL": "60"})
def _(s):
    a = s.get("/unsafe/rs:fill:4:4/plain/local:///missing.png")
    expect(a.status == 404 and a.headers.get("fallback-image") == "1" and a.headers.get("cache-control") == "max-age=60, public"
           and a.image() == ("PNG", (4, 4)), a)


@case(D, "exp shortens Cache-Control")
def _(s):
    a = s.get(f"/unsafe/exp:{int(time.time()) + 100}/rs:fill:4:4/plain/local:///test1.png")
    expect(re.fullmatch(r"max-age=(9[0-9]|100), public", a.headers.get("cache-control", "")), a.headers)


@case(D, "IMGPROXY_TTL=0 is no-cache", {"IMGPROXY_TTL": "0"})
def _(s):
    expect(s.get("/unsafe/rs:fill:4:4/plain/local:///test1.png").headers.get("cache-control") == "no-cache", "no-cache")


@case(D, "security options are 403 unless allowed")
def _(s):
    a = s.get("/unsafe/max_src_resolution:0.0001/rs:fill:4:4/plain/local:///test1.png")
    expect(a.status == 403 and a.body == b"Invalid URL\n", a)


@case(D, "IMGPROXY_ALLOW_SECURITY_OPTIONS: a URL's tighter limits", {"IMGPROXY_ALLOW_SECURITY_OPTIONS": "true"})
def _(s):
    expect(s.get("/unsafe/msr:0.002/rs:fill:4:4/plain/local:///test1.png").status == 200, "32x32 is within 2000 pixels")
    expect(s.get("/unsafe/msr:0.0001/rs:fill:4:4/plain/local:///test1.png").status == 422, "not within 100")
    expect(s.get(f"/unsafe/msfs:{len(TEST1) - 1}/rs:fill:4:4/plain/local:///test1.png").status == 422, "a byte too many")


@case(D, "IMGPROXY_PREFERRED_FORMATS: the source's format when listed, else the first that fits",
      {"IMGPROXY_PREFERRED_FORMATS": "webp,png"})
def _(s):
    expect(s.get("/unsafe/rs:fill:4:4/plain/local:///test1.png").headers.get("content-type") == "image/png", "PNG listed: kept")
    expect(s.get("/unsafe/rs:fill:4:4/plain/local:///photo.jpg").headers.get("content-type") == "image/webp", "JPEG not listed")


@case(D, "IMGPROXY_FORMAT_QUALITY and IMGPROXY_QUALITY: smaller answers at lower quality",
      {"IMGPROXY_FORMAT_QUALITY": "webp=10", "IMGPROXY_QUALITY": "95"})
def _(s):
    low = s.get("/unsafe/w:300/plain/local:///photo.jpg@webp")
    high = s.get("/unsafe/w:300/plain/local:///photo.jpg@jpg")
    named = s.get("/unsafe/w:300/q:95/plain/local:///photo.jpg@webp")
    expect(len(low.body) < len(named.body) / 2 and len(high.body) > len(low.body), (len(low.body), len(named.body), len(high.body)))


# MARK: Turns and mirrors

R = "processing/rotate_and_flip_test.go (imgproxy master)"
ORIENTED = [f"orientation-{n}.jpg" for n in range(1, 9)]
for n, name in enumerate(ORIENTED, start=1):
    shutil.copy(os.path.join(CORPUS, f"exif-orientation/Landscape_{n}.jpg"), os.path.join(LOCAL, name))
TURNS = [(rotate, h, v) for rotate in (0, 90, 180, 270) for h in (False, True) for v in (False, True)]


def turned(name, rotate, flip_h, flip_v, auto_rotate):
    """Pillow's picture of what the URL asks: EXIF orientation applied or the pixels as
    stored, turned clockwise, then mirrored, as imgproxy orders them."""
    from PIL import ImageOps
    image = Image.open(os.path.join(LOCAL, name))
    image = ImageOps.exif_transpose(image) if auto_rotate else image
    image = image.convert("L").rotate(-rotate, expand=True)
    image = ImageOps.mirror(image) if flip_h else image
    return ImageOps.flip(image) if flip_v else image


def turn_url(name, rotate, flip_h, flip_v, auto_rotate):
    options = [f"rot:{rotate}"] if rotate else []
    if flip_h or flip_v:
        options.append(f"fl:{int(flip_h)}:{int(flip_v)}")
    if not auto_rotate:
        options.append("ar:0")
    return "/unsafe/w:90/" + "/".join(options + ["plain", f"local:///{name}@png"])


def check_turns(s, names, turns, auto_rotate):
    """Each answer is Pillow's picture of it (mean grey difference under 8 of 255 at the
    answer's size), so answers that should differ do, as imgproxy's hashes compare them."""
    from PIL import ImageChops, ImageStat
    for name in names:
        for rotate, flip_h, flip_v in turns:
            url = turn_url(name, rotate, flip_h, flip_v, auto_rotate)
            a = s.get(url)
            expect(a.status == 200, f"{url}: {a}")
            answer = Image.open(io.BytesIO(a.body)).convert("L")
            expected = turned(name, rotate, flip_h, flip_v, auto_rotate)
            expect(answer.size[0] == 90 and abs(answer.size[1] - round(90 * expected.size[1] / expected.size[0])) <= 1,
                   f"{url}: {answer.size} for {expected.size}")
            difference = ImageStat.Stat(ImageChops.difference(answer, expected.resize(answer.size, Image.BILINEAR))).mean[0]
            expect(difference < 8, f"{url}: differs from Pillow's by {difference:.1f}")


ADAPTED_TURNS = ("imgproxy's orientation-N.png hold one picture's pixels under each EXIF orientation; the corpus's "
                 "Landscape_N.jpg hold one upright picture stored in each. Each answer is compared with Pillow's turn and "
                 "mirror of the source instead of with the other answers' hashes; the 16 turns and mirrors are asked of "
                 "orientations 1, 4, 6 and 7 (none, a mirror, a turn, both), not all 8")
# A turn, a mirror, neither and both: the grid's cases without asking it of every orientation.
GRID = [ORIENTED[n - 1] for n in (1, 4, 6, 7)]


@case(R, "TestOrientationAutoRotate", adapted=ADAPTED_TURNS)
def _(s):
    check_turns(s, ORIENTED, [(0, False, False)], auto_rotate=False)
    check_turns(s, ORIENTED, [(0, False, False)], auto_rotate=True)


@case(R, "TestRotateFlip", adapted=ADAPTED_TURNS)
def _(s):
    check_turns(s, GRID, TURNS, auto_rotate=False)


@case(R, "TestRotateFlipAutoRotate", adapted=ADAPTED_TURNS)
def _(s):
    check_turns(s, GRID, TURNS, auto_rotate=True)


@case(R, "IMGPROXY_AUTO_ROTATE=false: pixels as stored unless ar:1", {"IMGPROXY_AUTO_ROTATE": "false"})
def _(s):
    from PIL import ImageChops, ImageStat
    for option, auto_rotate in [("", False), ("ar:1/", True)]:
        a = Image.open(io.BytesIO(s.get(f"/unsafe/w:90/{option}plain/local:///orientation-6.jpg@png").body)).convert("L")
        expected = turned("orientation-6.jpg", 0, False, False, auto_rotate)
        expect(a.size[1] == round(90 * expected.size[1] / expected.size[0]), f"{option or 'default'}: {a.size}")
        difference = ImageStat.Stat(ImageChops.difference(a, expected.resize(a.size, Image.BILINEAR))).mean[0]
        expect(difference < 8, f"{option or 'default'}: differs from Pillow's by {difference:.1f}")


# MARK: Every format imgproxy reads and writes

X = "docs/image_formats_support.md (v3.31), over HTTP against libvips"
FORMATS_MADE = False


def make_format_sources():
    """The photo as libvips writes each format imgproxy reads, in the local root."""
    global FORMATS_MADE
    if FORMATS_MADE:
        return
    photo = os.path.join(LOCAL, "photo.jpg")
    steps = [["vips", "thumbnail", photo, os.path.join(WORK, "photo800.png"), "800"],
             ["vips", "tiffsave", os.path.join(WORK, "photo800.png"), os.path.join(LOCAL, "strips.tif"), "--compression", "lzw"],
             ["vips", "colourspace", os.path.join(WORK, "photo800.png"), os.path.join(WORK, "photo16.v"), "rgb16"],
             ["vips", "tiffsave", os.path.join(WORK, "photo16.v"), os.path.join(LOCAL, "tiled16.tif"), "--tile", "--compression", "deflate"],
             ["vips", "icc_transform", os.path.join(WORK, "photo800.png"), os.path.join(LOCAL, "cmyk.tif"), "cmyk"]]
    for step in steps:
        subprocess.run(step, check=True, capture_output=True)
    rgb = Image.open(os.path.join(WORK, "photo800.png")).convert("RGB")
    rgb.save(os.path.join(LOCAL, "photo.bmp"))
    rgb.save(os.path.join(LOCAL, "photo.ico"), sizes=[(64, 64), (256, 256)])
    FORMATS_MADE = True


def psnr(a, b):
    from PIL import ImageChops, ImageStat
    squares = ImageStat.Stat(ImageChops.difference(a.convert("RGB"), b.convert("RGB"))).sum2
    mse = sum(squares) / (3 * a.size[0] * a.size[1])
    return 99 if mse == 0 else 10 * __import__("math").log10(255 * 255 / mse)


# libvips takes an icon's first entry (64 pixels, which it would enlarge); Osprey the one nearest the size: the 256's.
for source, reference in [("photo.bmp", ""), ("strips.tif", ""), ("tiled16.tif", ""), ("cmyk.tif", ""), ("photo.ico", "[page=1]")]:
    @case(X, f"{source} answered as JPEG, PNG and WebP at the size asked, as libvips makes it",
          {"IMGPROXY_MAX_SRC_RESOLUTION": "50"})
    def _(s, source=source, reference=reference):
        make_format_sources()
        theirs = os.path.join(WORK, f"vips-{source}.png")
        subprocess.run(["vips", "thumbnail", os.path.join(LOCAL, source) + reference, theirs, "200"], check=True, capture_output=True)
        reference = Image.open(theirs)
        for extension, kind in [("jpg", "JPEG"), ("png", "PNG"), ("webp", "WEBP")]:
            a = s.get(f"/unsafe/w:200/plain/local:///{source}@{extension}")
            expect(a.status == 200 and a.image() == (kind, reference.size), f"{source}@{extension}: {a} {a.image() if a.status == 200 else ''}")
            quality = psnr(Image.open(io.BytesIO(a.body)), reference)
            # PNG is lossless, so it shows the decode and resize; JPEG and WebP at quality 80 add their loss.
            floor = 35 if extension == "png" else 28
            expect(quality >= floor, f"{source}@{extension}: PSNR {quality:.1f} dB against libvips' thumbnail (at least {floor})")


@case(X, "GIF, TIFF, BMP and ICO answers are read back by Pillow")
def _(s):
    make_format_sources()
    for extension, kind in [("gif", "GIF"), ("tiff", "TIFF"), ("bmp", "BMP"), ("ico", "ICO")]:
        a = s.get(f"/unsafe/w:200/plain/local:///photo.jpg@{extension}")
        expect(a.status == 200 and a.image()[0] == kind and a.image()[1][0] == 200, f"@{extension}: {a}")


# MARK: Run


def main():
    results, servers = [], {}
    for c in CASES:
        key = json.dumps(c["env"], sort_keys=True)
        outcome = {"source": c["source"], "name": c["name"], "adapted": c["adapted"], "pending": c["pending"]}
        try:
            if key not in servers:
                servers[key] = Server(c["env"])
            c["check"](servers[key])
            outcome["passed"] = True
        except Exception as error:  # every case is reported, whatever it raised
            outcome["passed"] = False
            outcome["error"] = f"{type(error).__name__}: {error}"[:400]
        results.append(outcome)
    for server in servers.values():
        server.stop()
    ORIGIN.httpd.shutdown()
    shutil.rmtree(WORK, ignore_errors=True)
    failed = [r for r in results if not r["passed"] and not r["pending"]]
    if "--json" in sys.argv:
        print(json.dumps({"cases": results, "failed": len(failed)}, indent=1))
    else:
        for r in results:
            mark = "pass" if r["passed"] else ("pending" if r["pending"] else "FAIL")
            print(f"{mark:8} {r['source']}: {r['name']}" + (f"  — {r.get('error')}" if not r["passed"] else ""))
        print(f"{sum(r['passed'] for r in results)} of {len(results)} pass; {len(failed)} fail; "
              f"{sum(1 for r in results if r['pending'] and not r['passed'])} pending")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
