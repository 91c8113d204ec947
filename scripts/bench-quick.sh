#!/usr/bin/env bash
# The benchmarks' CI smoke run: every figure at tiny sizes, in a debug build, in about ten
# seconds. Fails only when something is broken (a server that will not start, a wrong answer, a
# TUI that shows no list in its pseudo-terminal, a --data write answered with an error), never
# because a target is missed. §4 compares with abook when it is installed and says it skipped it
# when not; #15 likewise with vobject, KDE KContacts and ez-vcard (300 vCards of each corpus parsed
# and exported side by side, ours checked card by card against the realistic corpus and against
# ez-vcard, and the streaming memory probe; a peer that is not installed is skipped and said so).
# The full run is
# `swift run -c release cardwallet-bench` (see docs/BENCHMARKS.md).
set -euo pipefail
cd "$(dirname "$0")/.."

swift run cardwallet-bench --quick
# The first-frame figure's paired mode (--baseline-cardwallet), with the same build as its own baseline.
swift run cardwallet-bench run first-frame --quick --baseline-cardwallet .build/debug/cardwallet
