#!/usr/bin/env python3
"""What one process of the tool costs: `osprey info` on one small PNG, whole process, against
vipsheader on the same file, interleaved, median wall time and peak memory (GNU time).

Osprey runs three ways: as `make build` makes it (Swift's runtime linked in, libavif and
libheif opened only when a file needs them); with Swift's runtime shared (as plain `swift
build -c release` makes it); and that build with libavif and libheif loaded at start
(LD_PRELOAD), which is how every process ran before issue 24's start-up work.

usage: compare_startup.py OSPREY_STATIC OSPREY_SHARED SMALL_IMAGE [ROUNDS]
"""
import sys

from measure import compare

static, shared, image = sys.argv[1], sys.argv[2], sys.argv[3]
rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 15
compare({"osprey info, one small PNG": {
    "osprey, as make build makes it": [static, "info", image],
    "osprey, Swift's runtime shared": [shared, "info", image],
    "osprey, shared, codec libraries at start (before)": ["env", "LD_PRELOAD=libavif.so.15 libheif.so.1", shared, "info", image],
    "vipsheader": ["vipsheader", image],
}}, rounds)
