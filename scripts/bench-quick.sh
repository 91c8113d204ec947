#!/usr/bin/env bash
# The benchmarks' CI smoke run: every implemented figure at tiny sizes, in a debug build, in
# seconds. Fails only when something is broken (a server that will not start, a wrong answer),
# never because a target is missed. The full run is `swift run -c release cardwallet-bench`.
set -euo pipefail
cd "$(dirname "$0")/.."

swift run cardwallet-bench --quick
