#!/usr/bin/env python3
"""Exits 0 when every pinned requirement of the given requirements files is installed at its
pinned version, 1 otherwise (scripts/bootstrap then installs them)."""
import sys
from importlib import metadata

ok = True
for path in sys.argv[1:]:
    for line in open(path, encoding="utf-8"):
        line = line.split("#", 1)[0].strip()
        if not line or "==" not in line:
            continue
        name, version = (part.strip() for part in line.split("==", 1))
        try:
            installed = metadata.version(name)
        except metadata.PackageNotFoundError:
            print(f"missing: {name}=={version}")
            ok = False
            continue
        if installed != version:
            print(f"wrong version: {name} {installed}, wanted {version}")
            ok = False
sys.exit(0 if ok else 1)
