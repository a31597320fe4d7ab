#!/usr/bin/env python3
"""Fails when a library module's public API shows what is meant to stay inside the package.

Reads the symbol graphs `swift package dump-symbol-graph` writes (public symbols only; `package`
and `@_spi` ones are not in them) and looks for the internals issue 23 named — the lock, the
downsampler, the raw-pointer header parser, the pipeline's test hooks — and for any public
declaration that takes or returns a raw pointer.

usage: check_public_symbols.py SYMBOLGRAPH_DIR
"""
import glob, json, os, sys

INTERNAL = ("Locked", "Downsampler", "HTTPHeaderParser", "waitingCallers", "startedLoads")
folder = sys.argv[1]
problems = []
files = [f for f in glob.glob(os.path.join(folder, "Osprey*.symbols.json")) if not any(part in f for part in ("Tests", "Testing", "Contracts"))]
for path in sorted(files):
    for symbol in json.load(open(path))["symbols"]:
        if symbol["accessLevel"] not in ("public", "open"):
            continue
        name = ".".join(symbol["pathComponents"])
        declaration = "".join(f.get("spelling", "") for f in symbol.get("declarationFragments", []))
        if any(part in INTERNAL for part in symbol["pathComponents"]) or "Unsafe" in declaration:
            problems.append(f"{os.path.basename(path)}: {name}: {declaration}")
if not files:
    sys.exit(f"no symbol graphs in {folder}")
for problem in problems:
    print("public but internal:", problem)
print(f"check_public_symbols: {len(files)} modules, {len(problems)} internals in public API")
sys.exit(1 if problems else 0)
