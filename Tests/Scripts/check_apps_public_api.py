#!/usr/bin/env python3
"""The apps (Apps/) use Osprey's public API only, as an outside consumer would.

SwiftPM gives every module of the package one package name, so `package` declarations of the
library modules are visible to the apps. This check type-checks the apps' modules again with
the exact command the build used (read from the build's manifest, .build/debug.yaml), but
under another package name: any `package` or `@_spi` use of a library module fails to
compile. It needs the debug build (`swift build`) done.

usage: check_apps_public_api.py [BUILD_MANIFEST]
"""
import json, re, subprocess, sys

manifest = sys.argv[1] if len(sys.argv) > 1 else ".build/debug.yaml"
APP_MODULES = ["OspreyPrograms", "osprey", "osprey_server"]
# Options that make outputs: a type check makes none.
DROP_WITH_VALUE = {"-emit-module-path", "-output-file-map", "-index-store-path", "-emit-objc-header-path"}
DROP = {"-emit-dependencies", "-emit-module", "-incremental", "-c", "-enable-batch-mode", "-serialize-diagnostics",
        "-parseable-output", "-emit-objc-header"}

commands = {}
for line in open(manifest):
    match = re.match(r'\s*args: (\[.*\])\s*$', line)
    if not match:
        continue
    args = json.loads(match.group(1))
    if "-module-name" in args and args[0].endswith("swiftc") and "-emit-module-path" in args:
        name = args[args.index("-module-name") + 1]
        if name in APP_MODULES and "/Modules/" in args[args.index("-emit-module-path") + 1]:
            commands[name] = args

failed = False
for name in APP_MODULES:
    args = commands.get(name)
    if not args:
        sys.exit(f"check_apps_public_api: no build command for {name} in {manifest}: build first")
    checked, skip = [], False
    for arg in args:
        if skip:
            skip = False
            continue
        if arg in DROP_WITH_VALUE:
            skip = True
            continue
        if arg in DROP:
            continue
        checked.append(arg)
    checked[checked.index("-package-name") + 1] = "osprey_apps_public_api_check"
    outcome = subprocess.run(checked + ["-typecheck"], capture_output=True, text=True)
    if outcome.returncode != 0:
        failed = True
        errors = [l for l in (outcome.stdout + outcome.stderr).splitlines() if "error:" in l]
        print(f"check_apps_public_api: {name} uses API that is not public:\n  " + "\n  ".join(errors[:20]))
if failed:
    sys.exit(1)
print(f"check_apps_public_api: {', '.join(APP_MODULES)} use the public API only")
