# Osprey — build, test and run. Every target installs what it needs first (make setup).
SHELL := /bin/bash
.DEFAULT_GOAL := help

SWIFT ?= swift
# The C libraries' -dev packages and the tools the build and tests use (Debian names).
APT_PACKAGES := pkg-config libjpeg62-turbo-dev libpng-dev libwebp-dev libcurl4-openssl-dev libsqlite3-dev libssl-dev python3 python3-pip time libhiredis-dev redis-server liblcms2-dev libgif-dev libcgif-dev libimagequant-dev libtiff-dev librsvg2-2 libxml2-dev libavif-dev libheif-dev libjxl-dev
# Reference decoders for the codec tests (PyPI): pypng is exact for PngSuite; Pillow for JPEG,
# WebP, GIF, APNG and AVIF; pillow-heif for HEIC; numpy for the HDR reference; imgproxy, a URL
# builder, for the server tests.
PIP_PACKAGES := pypng Pillow pillow-heif numpy imgproxy 'moto[server]' boto3
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

DEMO_PORT ?= 8080
# The public test images, beside the checkout unless OSPREY_CORPUS names them.
CORPUS ?= $(or $(OSPREY_CORPUS),$(CURDIR)/../shared/corpus)
BENCH_WORK ?= /tmp/osprey-bench
BENCH_ROUNDS ?= 7

.PHONY: help setup build test soak test-tsan test-asan demo bench docs fuzz clean container

# Release executables carry Swift's runtime and Foundation inside them, as Swift servers are
# deployed: a process starts in two thirds of the time and memory (Docs/BENCHMARKS.md).
RELEASE_BUILD := $(SWIFT) build -c release --static-swift-stdlib

# libFuzzer targets (Fuzz/), each run for FUZZ_SECONDS by `make fuzz`.
FUZZ_SECONDS ?= 60

# Every module with a DocC catalog; `make docs` builds each, warnings counted as errors.
DOC_TARGETS := Osprey OspreyDomain OspreyPixels OspreyCodec OspreyProcessing OspreyMemoryCache OspreyDiskCache OspreyNetwork OspreyRedisCache OspreyServer
DOCS_OUT ?= .build/docs

help: ## List the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-8s %s\n", $$1, $$2}'

setup: ## Install the system packages (apt-get update once, then install; quiet when done)
	@missing=$$(for p in $(APT_PACKAGES); do dpkg-query -W -f='$${Status}\n' $$p 2>/dev/null | grep -q '^install ok installed$$' || echo $$p; done); \
	if [ -n "$$missing" ]; then \
		echo "setup: installing$$(printf ' %s' $$missing)"; \
		$(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
	fi
	@python3 -c 'import png, PIL, pillow_heif, numpy, imgproxy, moto.server, boto3' 2>/dev/null || { echo "setup: installing $(PIP_PACKAGES) from PyPI"; \
		python3 -m pip install --quiet --disable-pip-version-check $(PIP_PACKAGES) 2>/dev/null || \
		python3 -m pip install --quiet --disable-pip-version-check --break-system-packages $(PIP_PACKAGES); }

build: setup ## Build the tools in release mode (Swift's runtime linked in); the CLI lands at .build/release/osprey
	$(RELEASE_BUILD) --product osprey
	$(RELEASE_BUILD) --product osprey-server

# The browser test drives headless Chromium (Debian's chromium) over the demo's gallery (its
# photographs from lomiri-wallpapers-16.04), the colour tests compare with libvips
# (libvips-tools), the JPEG XL and HDR tests make files with cjxl/djxl (libjxl-tools) and
# avifenc/avifdec (libavif-bin); only the tests and the demo need them.
test: APT_PACKAGES += chromium libvips-tools lomiri-wallpapers-16.04 libjxl-tools libavif-bin podman runc mmdebstrap
test: setup ## Smoke-test the release build, then run the whole test suite (with the browser test and the container)
	$(RELEASE_BUILD) --product osprey
	Tests/Scripts/release_smoke.sh .build/release/osprey
	$(SWIFT) test --disable-xctest
	@# No internals in any module's public API (the symbol graphs hold public symbols only).
	$(SWIFT) package dump-symbol-graph >/dev/null
	python3 Tests/Scripts/check_public_symbols.py .build/$$(uname -m)-unknown-linux-gnu/symbolgraph
	@# The apps use the public API only: their modules type-checked again under another package name.
	python3 Tests/Scripts/check_apps_public_api.py .build/debug.yaml
	@# A consumer package that uses only the public API and `import Osprey` (Examples/QuickStart).
	$(SWIFT) build --package-path Examples/QuickStart
	Examples/QuickStart/.build/debug/QuickStart $(CORPUS)/photos/craft-beer.jpg "$$(mktemp -d)"
	@# The server fleet (three instances sharing Redis), imgproxy's own cases and the demo in
	@# Chromium run after the suite and one after another: the load of each on both cores would starve the others' and
	@# the suite's time bounds. The soak is `make soak` (CI runs it after this).
	OSPREY_FLEET=1 $(SWIFT) test --disable-xctest --skip-build --filter Fleet
	OSPREY_IMGPROXY_CASES=1 $(SWIFT) test --disable-xctest --skip-build --filter ImgproxyCompatibilityTests
	OSPREY_DEMO=1 $(SWIFT) test --disable-xctest --skip-build --filter DemoTests
	@# The container image, built and run with an imgproxy env file unchanged.
	$(MAKE) container
	Tests/Container/run.sh $(CONTAINER_IMAGE) $(CORPUS)
	@# Two minutes of mixed traffic against that release server with a 300 MB memory budget: it
	@# lives, keeps the budget and answers every request in its classes (make bench: the whole soak).
	OSPREY_CORPUS=$(CORPUS) python3 Benchmarks/Scripts/soak_mixed.py .build/release/osprey-server "$$(mktemp -d)" \
		--budgets 300MB --seconds 120 --idle 10 --urls 4000 --check

soak: setup ## 20,000 requests from 64 callers against one pipeline: answers, limits and memory (after make test)
	$(SWIFT) build --build-tests
	OSPREY_SOAK=1 $(SWIFT) test --disable-xctest --skip-build --filter SoakTests

# The image: osprey-server built here with Swift's runtime inside, on Debian's runtime
# libraries (Dockerfile). podman takes its settings from Container/containers.conf; the base
# image is made with mmdebstrap when podman does not have it (no registry is needed).
CONTAINER_IMAGE ?= localhost/osprey-server:latest
container: APT_PACKAGES += podman runc mmdebstrap
container: setup ## Build the container image (podman) of osprey-server
	$(RELEASE_BUILD) --product osprey-server
	CONTAINERS_CONF=$(CURDIR)/Container/containers.conf Container/build.sh .build/release/osprey-server $(CONTAINER_IMAGE)


# The demo: osprey-server with its gallery of photographs from Debian's lomiri-wallpapers-16.04
# (and files made from them with libvips, Demo/make_samples.sh), signed with a demo key pair.
DEMO_SAMPLES ?= .build/demo-samples
DEMO_KEY := 943b421c9eb07c83
DEMO_SALT := 520f986b998545b4

demo: APT_PACKAGES += lomiri-wallpapers-16.04 libvips-tools
demo: setup ## Build osprey-server and serve the demo gallery on http://127.0.0.1:8080/ (Ctrl-C stops it)
	$(RELEASE_BUILD) --product osprey-server
	[ -f $(DEMO_SAMPLES)/SOURCES.tsv ] || Demo/make_samples.sh $(DEMO_SAMPLES)
	.build/release/osprey-server --host 127.0.0.1 --port $(DEMO_PORT) --key $(DEMO_KEY) --salt $(DEMO_SALT) \
		--gallery $(DEMO_SAMPLES) --cache-dir .build/demo-cache --auto-format webp

# The suite under the sanitizers, each in its own build folder so the normal build stays.
# Hang guards and child processes' memory bounds widen under them (Tests/OspreyTesting/Support/
# Sanitizer.swift); LeakSanitizer skips memory that is not ours to free (Tests/Sanitizers/lsan.supp),
# and child processes inherit those options. Docs/SECURITY.md ("Sanitizers") has the results.
LSAN_ENV := LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp:print_suppressions=0

test-tsan: setup ## The test suite under ThreadSanitizer (build folder .build-tsan)
	$(SWIFT) build --build-tests --sanitize=thread --scratch-path .build-tsan
	$(SWIFT) test --disable-xctest --skip-build --sanitize=thread --scratch-path .build-tsan

test-asan: setup ## The test suite and the soak under AddressSanitizer and LeakSanitizer (build folder .build-asan)
	$(SWIFT) build --build-tests --sanitize=address --scratch-path .build-asan
	$(LSAN_ENV) $(SWIFT) test --disable-xctest --skip-build --sanitize=address --scratch-path .build-asan
	$(LSAN_ENV) OSPREY_SOAK=1 OSPREY_SOAK_REQUESTS=5000 $(SWIFT) test --disable-xctest --skip-build --sanitize=address --scratch-path .build-asan \
		--filter SoakTests

fuzz: APT_PACKAGES += libjxl-tools libvips-tools
fuzz: setup ## Build the libFuzzer targets with AddressSanitizer and run each for FUZZ_SECONDS (default 60)
	@# A stale build manifest would miss source files added to the root package since, and the
	@# root package's modules can be kept compiled against older types (see bench).
	rm -rf Fuzz/.build/release.yaml Fuzz/.build/release/Osprey*.build
	$(SWIFT) build -c release --package-path Fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
	Fuzz/Scripts/run.sh Fuzz/.build/release $(FUZZ_SECONDS)

docs: setup ## Build the DocC documentation of every module into .build/docs (no warnings allowed)
	@mkdir -p $(DOCS_OUT); for target in $(DOC_TARGETS); do \
		echo "docs: $$target"; \
		$(SWIFT) package --disable-sandbox generate-documentation --target $$target --warnings-as-errors \
			--output-path $(DOCS_OUT)/$$target >/dev/null || exit 1; \
	done
	@echo "docs: written to $(DOCS_OUT)/<module>"

bench: APT_PACKAGES += lomiri-wallpapers-16.04 linux-perf
bench: setup ## Benchmarks against vipsthumbnail, vipsheader, Pillow, NSCache, curl, URLSession and AsyncHTTPClient, and the 100-image grid (results for Docs/BENCHMARKS.md)
	@command -v vipsthumbnail >/dev/null && command -v nginx >/dev/null && command -v curl >/dev/null && command -v wrk >/dev/null && \
		command -v djpeg >/dev/null && command -v djxl >/dev/null || { $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends libvips-tools nginx-light curl wrk \
		libjpeg-turbo-progs libjxl-tools >/dev/null; }
	$(RELEASE_BUILD) --product osprey
	@# A stale build manifest would miss source files added to the root package since, and
	@# SwiftPM has kept the root package's modules compiled against an older layout of its
	@# types (the grid then crashed): both are made again each time.
	rm -rf Benchmarks/.build/release.yaml Benchmarks/.build/release/Osprey*.build
	$(SWIFT) build -c release --package-path Benchmarks
	python3 Benchmarks/Scripts/compare_thumbnails.py .build/release/osprey $(BENCH_WORK) $(BENCH_ROUNDS)
	python3 Benchmarks/Scripts/compare_colour_animation.py .build/release/osprey $(BENCH_WORK)/colour $(BENCH_ROUNDS)
	python3 Benchmarks/Scripts/compare_avif_heic.py .build/release/osprey $(BENCH_WORK)/avif $(BENCH_ROUNDS)
	python3 Benchmarks/Scripts/compare_jxl.py .build/release/osprey $(BENCH_WORK)/jxl $(BENCH_ROUNDS)
	@# A folder on both cores (issue 24), and what one process of the tool costs.
	python3 Benchmarks/Scripts/compare_batch.py .build/release/osprey Benchmarks/.build/release $(BENCH_WORK)/batch 3
	$(SWIFT) build -c release --package-path Benchmarks --product osprey
	python3 Benchmarks/Scripts/compare_startup.py .build/release/osprey Benchmarks/.build/release/osprey $(CORPUS)/pngsuite/basn2c08.png 15
	taskset -c 0 Benchmarks/.build/release/CodecBenchmark $(BENCH_WORK)/big.jpg 10
	Benchmarks/.build/release/CacheBenchmark all $(BENCH_WORK)
	@# The download clients twice: as built above (Swift's runtime and Foundation loaded as shared
	@# libraries), and with them linked in (--static-swift-stdlib, as Swift servers are deployed).
	python3 Benchmarks/Scripts/compare_fetch.py Benchmarks/.build/release $(BENCH_WORK)/fetch $(BENCH_ROUNDS)
	python3 Benchmarks/Scripts/compare_fetch_file.py .build/release/osprey $(BENCH_WORK)/fetchfile $(BENCH_ROUNDS)
	rm -rf Benchmarks/.build-static/release.yaml Benchmarks/.build-static/release/Osprey*.build
	for client in FetchOsprey FetchURLSession FetchAHC FetchLibcurlC FetchRawSocket; do \
		$(SWIFT) build -c release --package-path Benchmarks --scratch-path Benchmarks/.build-static --static-swift-stdlib --product $$client || exit 1; done
	python3 Benchmarks/Scripts/compare_fetch.py Benchmarks/.build-static/release $(BENCH_WORK)/fetch $(BENCH_ROUNDS)
	python3 Benchmarks/Scripts/grid.py Benchmarks/.build/release $(BENCH_WORK)/grid 3
	@# osprey-server against thumbor (from PyPI, in a virtualenv of its own), loaded by wrk, each URL once;
	@# libvips in-process (pyvips, in the same virtualenv), djpeg and Osprey's own resample and encode
	@# (ResampleEncode, built above) as yardsticks.
	$(RELEASE_BUILD) --product osprey-server
	[ -x $(BENCH_WORK)/thumbor-venv/bin/thumbor ] || { python3 -m venv $(BENCH_WORK)/thumbor-venv && \
		$(BENCH_WORK)/thumbor-venv/bin/pip install --quiet thumbor; }
	$(BENCH_WORK)/thumbor-venv/bin/python -c 'import pyvips' 2>/dev/null || $(BENCH_WORK)/thumbor-venv/bin/pip install --quiet pyvips
	python3 Benchmarks/Scripts/compare_server.py .build/release/osprey-server $(BENCH_WORK)/thumbor-venv/bin/thumbor $(BENCH_WORK)/server 20
	@# Where the server's CPU goes on that photo (perf, Debian's linux-perf).
	python3 Benchmarks/Scripts/profile_server.py .build/release/osprey-server /usr/share/backgrounds/seeding_by_Clements_Engelhardt.jpg $(BENCH_WORK)/profile
	python3 Benchmarks/Scripts/fleet.py .build/release/osprey-server $(BENCH_WORK)/fleet
	@# Mixed traffic, each URL once, with and without a memory budget and against thumbor; RSS
	@# sampled every half second and plotted (matplotlib, in thumbor's virtualenv).
	$(BENCH_WORK)/thumbor-venv/bin/python -c 'import matplotlib' 2>/dev/null || $(BENCH_WORK)/thumbor-venv/bin/pip install --quiet matplotlib
	OSPREY_CORPUS=$(CORPUS) $(BENCH_WORK)/thumbor-venv/bin/python Benchmarks/Scripts/soak_mixed.py .build/release/osprey-server \
		$(BENCH_WORK)/soak --thumbor $(BENCH_WORK)/thumbor-venv/bin/thumbor --plot Docs/images/soak-memory.png

clean: ## Remove build output
	rm -rf .build .build-tsan .build-asan Fuzz/.build Benchmarks/.build Benchmarks/.build-static Examples/QuickStart/.build
