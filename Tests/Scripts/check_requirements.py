#!/usr/bin/env python3
"""Exits 0 when every `name==version` pin of a requirements file is what this Python has
installed, else names the first difference and exits 1 (make setup then reinstalls)."""
import importlib.metadata
import re
import sys


def main(path):
    for line in open(path):
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, pinned = re.split(r"\s*==\s*", line)
        try:
            installed = importlib.metadata.version(name)
        except importlib.metadata.PackageNotFoundError:
            print(f"requirements: {name} is not installed", file=sys.stderr)
            return 1
        if installed != pinned:
            print(f"requirements: {name} {installed} is installed, {pinned} is pinned", file=sys.stderr)
            return 1
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1]))
