# Osprey — build, test and run. Every target installs what it needs first (make setup).
SHELL := /bin/bash
.DEFAULT_GOAL := help

SWIFT ?= swift
# The C libraries' -dev packages and the tools the build and tests use (Debian names).
APT_PACKAGES := pkg-config python3-venv libjpeg62-turbo-dev libpng-dev libwebp-dev libcurl4-openssl-dev libsqlite3-dev libssl-dev python3 python3-pip time libhiredis-dev redis-server liblcms2-dev libgif-dev libcgif-dev libimagequant-dev libtiff-dev librsvg2-2 libxml2-dev libavif-dev libheif-dev libjxl-dev
# The Python tools the tests use (Pillow, pillow-heif, pypng and numpy as reference decoders,
# imgproxy's URL builder, moto's S3 server), pinned in Tests/requirements.txt and installed into
# a virtual environment of the project's own: whatever Python the machine has, the tests run
# the same versions. Its bin comes first on PATH for every target.
VENV := $(CURDIR)/.build/venv
REQUIREMENTS := Tests/requirements.txt
REQUIREMENTS_NODEPS := Tests/requirements-nodeps.txt
export PATH := $(VENV)/bin:$(PATH)
SUDO := $(shell [ "$$(id -u)" = 0 ] || echo sudo)

DEMO_PORT ?= 8080
# The public test images, beside the checkout unless OSPREY_CORPUS names them.
CORPUS ?= $(or $(OSPREY_CORPUS),$(CURDIR)/../shared/corpus)
BENCH_WORK ?= /tmp/osprey-bench
BENCH_ROUNDS ?= 7

.PHONY: help setup build test check soak test-tsan test-asan demo bench docs fuzz clean container

# Release executables carry Swift's runtime and Foundation inside them, as Swift servers are
# deployed: a process starts in two thirds of the time and memory (Docs/BENCHMARKS.md).
RELEASE_BUILD := $(SWIFT) build -c release --static-swift-stdlib
# Both programs from one release build folder: the second compiles only its own module.
RELEASE_PROGRAMS := $(RELEASE_BUILD) --product osprey-server && $(RELEASE_BUILD) --product osprey

# libFuzzer targets (Fuzz/), each run for FUZZ_SECONDS by `make fuzz`. A debug build by default:
# it compiles in less than half the time of a release one, and the decoders' time is mostly
# their C libraries'; FUZZ_CONFIGURATION=release for long runs of the Swift parsers (twice
# the executions per second).
FUZZ_SECONDS ?= 60
FUZZ_CONFIGURATION ?= debug

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
	@[ -x $(VENV)/bin/python3 ] && $(VENV)/bin/python3 Tests/Scripts/check_requirements.py $(REQUIREMENTS) 2>/dev/null \
		&& $(VENV)/bin/python3 Tests/Scripts/check_requirements.py $(REQUIREMENTS_NODEPS) 2>/dev/null || { \
		echo "setup: installing $(REQUIREMENTS) into $(VENV)"; \
		/usr/bin/python3 -m venv --clear $(VENV) && \
		$(VENV)/bin/pip install --quiet --disable-pip-version-check -r $(REQUIREMENTS) && \
		$(VENV)/bin/pip install --quiet --disable-pip-version-check --no-deps -r $(REQUIREMENTS_NODEPS) && \
		$(VENV)/bin/python3 Tests/Scripts/check_requirements.py $(REQUIREMENTS) && \
		$(VENV)/bin/python3 Tests/Scripts/check_requirements.py $(REQUIREMENTS_NODEPS); }

build: setup ## Build the tools in release mode (Swift's runtime linked in): .build/release/osprey and osprey-server
	$(RELEASE_PROGRAMS)

# Two loops. `make test` is what a contributor runs before each commit: one debug build, the
# whole Swift suite (unit, contract, loopback integration), the demo in Chromium and the
# public-API checks. `make check` is what CI adds each time (.ci/run calls both): the release
# programs run as users run them, the container, the fleet, imgproxy's cases and the soaks.
#
# The browser test drives headless Chromium (Debian's chromium) over the demo's gallery (its
# photographs from lomiri-wallpapers-16.04), the colour tests compare with libvips
# (libvips-tools), the JPEG XL and HDR tests make files with cjxl/djxl (libjxl-tools) and
# avifenc/avifdec (libavif-bin); only the tests and the demo need them.
TEST_PACKAGES := chromium libvips-tools lomiri-wallpapers-16.04 libjxl-tools libavif-bin
test: APT_PACKAGES += $(TEST_PACKAGES)
test: setup ## Before each commit: the debug build, the whole suite, the demo in Chromium, the public-API checks
	$(SWIFT) build --build-tests
	$(SWIFT) test --disable-xctest --skip-build
	@# The demo in Chromium alone after the suite: the browser's load on both cores is its own.
	OSPREY_DEMO=1 $(SWIFT) test --disable-xctest --skip-build --filter DemoTests
	@# No internals in any module's public API (the symbol graphs hold public symbols only).
	$(SWIFT) package dump-symbol-graph >/dev/null
	python3 Tests/Scripts/check_public_symbols.py .build/$$(uname -m)-unknown-linux-gnu/symbolgraph
	@# The apps use the public API only: their modules type-checked again under another package name.
	python3 Tests/Scripts/check_apps_public_api.py .build/debug.yaml

# Each runs alone: the load of one on both cores would starve the others' time bounds.
check: APT_PACKAGES += $(TEST_PACKAGES) podman runc mmdebstrap
check: setup ## What CI adds: release smoke, QuickStart, container, fleet, imgproxy's cases, both soaks
	$(SWIFT) build --build-tests
	$(RELEASE_PROGRAMS)
	Tests/Scripts/release_smoke.sh .build/release/osprey
	@# A consumer package that uses only the public API and `import Osprey` (Examples/QuickStart).
	$(SWIFT) build --package-path Examples/QuickStart
	Examples/QuickStart/.build/debug/QuickStart $(CORPUS)/photos/craft-beer.jpg "$$(mktemp -d)"
	@# The container image, built from that release server and run with an imgproxy env file unchanged.
	CONTAINERS_CONF=$(CURDIR)/Container/containers.conf Container/build.sh .build/release/osprey-server $(CONTAINER_IMAGE)
	Tests/Container/run.sh $(CONTAINER_IMAGE) $(CORPUS)
	@# The server fleet (three instances sharing Redis) and imgproxy's own cases.
	OSPREY_FLEET=1 $(SWIFT) test --disable-xctest --skip-build --filter Fleet
	OSPREY_IMGPROXY_CASES=1 $(SWIFT) test --disable-xctest --skip-build --filter ImgproxyCompatibilityTests
	@# Two minutes of mixed traffic against the release server with a 300 MB memory budget: it
	@# lives, keeps the budget and answers every request in its classes (make bench: the whole soak).
	OSPREY_CORPUS=$(CORPUS) python3 Benchmarks/Scripts/soak_mixed.py .build/release/osprey-server "$$(mktemp -d)" \
		--budgets 300MB --seconds 120 --idle 10 --urls 4000 --check
	$(MAKE) soak

# The runner is built in release, as programs ship (test-asan runs it again in its debug build).
soak: setup ## 20,000 requests from 64 callers against one pipeline: answers, limits and memory
	$(SWIFT) build --build-tests
	$(RELEASE_BUILD) --product SoakRunner
	OSPREY_SOAK=1 OSPREY_SOAK_RUNNER=.build/release/SoakRunner $(SWIFT) test --disable-xctest --skip-build --filter SoakTests

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

# The suites under the sanitizers, each in its own build folder so the normal build stays.
# Hang guards and child processes' memory bounds widen under them (Tests/OspreyTesting/Support/
# Sanitizer.swift); LeakSanitizer skips memory that is not ours to free (Tests/Sanitizers/lsan.supp),
# and child processes inherit those options. Docs/SECURITY.md ("Sanitizers") has the results.
LSAN_ENV := LSAN_OPTIONS=suppressions=$(CURDIR)/Tests/Sanitizers/lsan.supp:print_suppressions=0

# Each sanitizer builds and runs the test targets it has something to find in (the manifest
# keeps only OSPREY_TEST_TARGETS), so neither pays for the other's.
# ThreadSanitizer where there is concurrency: the pipeline, its coalescing and memory budget
# (Domain), the caches under concurrent callers, the loader's libcurl thread, Redis's
# connections, the pipeline end to end, and the server (its process tests run the server built
# with TSan). The codecs, pixels and processing work one image per call on one thread; the
# CLI's batches run on the batch loader, checked in Domain.
# Of the server's tests it skips imgproxy's options, sources and settings one by one, and the
# cloud deployments and S3 addressing (a request at a time against moto, through code the other
# tests run concurrently; the credential cache's concurrent callers stay), and the two that time
# CPU-heavy work against limits.
TSAN_TESTS := DomainTests,MemoryCacheTests,DiskCacheTests,NetworkTests,RedisCacheTests,EndToEndTests,ServerTests
TSAN_SKIP := ServerTests\.(Imgproxy[A-Za-z]*Tests|ExtremeNumbersTests|CloudSourcesProcessTests|EnvironmentSourcesTests)|NetworkTests\.(S3DataLoaderTests|GCSDataLoaderTests|ABSDataLoaderTests)|aRequestPastItsDeadlineStopsUsingItsWorker|s3SourcesStayInTheirBucket
# AddressSanitizer over everything that touches C or unsafe buffers: the codecs and the C
# libraries under them, the resampler and the effects, SQLite, libcurl, hiredis, the CLI's
# programs, the pipeline end to end and the soak. The server's own C (HMAC, the SVG sanitiser)
# is also fuzzed with AddressSanitizer by make fuzz, as are all its parsers.
ASAN_TESTS := CodecTests,PixelsTests,ProcessingTests,SystemLibraryTests,DiskCacheTests,NetworkTests,RedisCacheTests,EndToEndTests,CLITests

test-tsan: setup ## The concurrent suites under ThreadSanitizer (build folder .build-tsan)
	OSPREY_TEST_TARGETS=$(TSAN_TESTS) $(SWIFT) build --product OspreyPackageTests --sanitize=thread --scratch-path .build-tsan
	OSPREY_TEST_TARGETS=$(TSAN_TESTS) $(SWIFT) test --disable-xctest --skip-build --sanitize=thread --scratch-path .build-tsan \
		--skip '$(TSAN_SKIP)'

test-asan: setup ## The suites over C code and the soak under AddressSanitizer and LeakSanitizer (build folder .build-asan)
	OSPREY_TEST_TARGETS=$(ASAN_TESTS) $(SWIFT) build --product OspreyPackageTests --sanitize=address --scratch-path .build-asan
	OSPREY_TEST_TARGETS=$(ASAN_TESTS) $(LSAN_ENV) $(SWIFT) test --disable-xctest --skip-build --sanitize=address --scratch-path .build-asan
	OSPREY_TEST_TARGETS=$(ASAN_TESTS) $(LSAN_ENV) OSPREY_SOAK=1 OSPREY_SOAK_REQUESTS=5000 $(SWIFT) test --disable-xctest --skip-build \
		--sanitize=address --scratch-path .build-asan --filter SoakTests

fuzz: APT_PACKAGES += libjxl-tools libvips-tools
fuzz: setup ## Build the libFuzzer targets with AddressSanitizer and run each for FUZZ_SECONDS (default 60)
	@# A stale build manifest would miss source files added to the root package since, and the
	@# root package's modules can be kept compiled against older types (see bench).
	rm -rf Fuzz/.build/$(FUZZ_CONFIGURATION).yaml Fuzz/.build/$(FUZZ_CONFIGURATION)/Osprey*.build
	$(SWIFT) build -c $(FUZZ_CONFIGURATION) --package-path Fuzz -Xswiftc -sanitize=fuzzer,address -Xswiftc -parse-as-library
	Fuzz/Scripts/run.sh Fuzz/.build/$(FUZZ_CONFIGURATION) $(FUZZ_SECONDS)

docs: setup ## Build the DocC documentation of every module into .build/docs (no warnings allowed)
	@mkdir -p $(DOCS_OUT); for target in $(DOC_TARGETS); do \
		echo "docs: $$target"; \
		OSPREY_DOCS=1 $(SWIFT) package --disable-sandbox generate-documentation --target $$target --warnings-as-errors \
			--output-path $(DOCS_OUT)/$$target >/dev/null || exit 1; \
	done
	@echo "docs: written to $(DOCS_OUT)/<module>"

bench: APT_PACKAGES += lomiri-wallpapers-16.04 linux-perf
bench: setup ## Benchmarks against vipsthumbnail, vipsheader, Pillow, Pillow-SIMD, NSCache, curl, URLSession and AsyncHTTPClient, and the 100-image grid (results for Docs/BENCHMARKS.md)
	@command -v vipsthumbnail >/dev/null && command -v nginx >/dev/null && command -v curl >/dev/null && command -v wrk >/dev/null && \
		command -v djpeg >/dev/null && command -v djxl >/dev/null && command -v valgrind >/dev/null || { $(SUDO) apt-get update -qq && \
		DEBIAN_FRONTEND=noninteractive $(SUDO) apt-get install -y -qq --no-install-recommends libvips-tools nginx-light curl wrk \
		libjpeg-turbo-progs libjxl-tools valgrind >/dev/null; }
	$(RELEASE_BUILD) --product osprey
	@# A stale build manifest would miss source files added to the root package since, and
	@# SwiftPM has kept the root package's modules compiled against an older layout of its
	@# types (the grid then crashed): both are made again each time.
	rm -rf Benchmarks/.build/release.yaml Benchmarks/.build/release/Osprey*.build
	$(SWIFT) build -c release --package-path Benchmarks
	python3 Benchmarks/Scripts/compare_thumbnails.py .build/release/osprey $(BENCH_WORK) $(BENCH_ROUNDS)
	python3 Benchmarks/Scripts/compare_cli_floor.py .build/release/osprey $(BENCH_WORK)/big.jpg 31
	python3 Benchmarks/Scripts/compare_placeholder.py .build/release/osprey 21 $(CORPUS)/photos/craft-beer.jpg $(BENCH_WORK)/big.jpg \
		$(CORPUS)/photos/olympus_e-p3_42_IndexError.jpg
	python3 Benchmarks/Scripts/compare_colour_animation.py .build/release/osprey $(BENCH_WORK)/colour $(BENCH_ROUNDS)
	python3 Benchmarks/Scripts/compare_avif_heic.py .build/release/osprey $(BENCH_WORK)/avif $(BENCH_ROUNDS)
	python3 Benchmarks/Scripts/compare_jxl.py .build/release/osprey $(BENCH_WORK)/jxl $(BENCH_ROUNDS)
	@# A folder on both cores (issue 24), and what one process of the tool costs.
	python3 Benchmarks/Scripts/compare_batch.py .build/release/osprey Benchmarks/.build/release $(BENCH_WORK)/batch 3
	$(SWIFT) build -c release --package-path Benchmarks --product osprey
	python3 Benchmarks/Scripts/compare_startup.py .build/release/osprey Benchmarks/.build/release/osprey $(CORPUS)/pngsuite/basn2c08.png 15
	taskset -c 0 Benchmarks/.build/release/CodecBenchmark $(BENCH_WORK)/big.jpg 10
	@# The resampler in process on one core against Pillow-SIMD (AVX2) and libvips 8.18, each from
	@# PyPI in a virtualenv of its own, with callgrind's instruction counts.
	python3 Benchmarks/Scripts/compare_resample.py Benchmarks/.build/release/ResampleBenchmark $(BENCH_WORK)/resample 3
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
