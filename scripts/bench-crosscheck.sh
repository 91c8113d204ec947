#!/usr/bin/env bash
# Cross-checks cardwallet-bench's own figures with outside tools (optional, not run in CI):
#   §5  wrk (Debian package `wrk`) against the in-process mock server and the bare route,
#   §6  hyperfine (Debian package `hyperfine`) on `cardwallet --help`.
# Build first:
#   swift build -c release --product cardwallet-bench && swift build -c release --product cardwallet
# Settings (environment): BIN (default .build/release), DURATION (wrk, default 10s).
set -euo pipefail
cd "$(dirname "$0")/.."

bin="${BIN:-.build/release}"
duration="${DURATION:-10s}"
for tool in wrk hyperfine curl python3; do
    command -v "$tool" >/dev/null || { echo "bench-crosscheck: $tool is missing (apt-get install $tool)" >&2; exit 1; }
done
for program in cardwallet-bench cardwallet; do
    [[ -x "$bin/$program" ]] || { echo "bench-crosscheck: build $bin/$program first (see the top of this script)" >&2; exit 1; }
done

echo "load average: $(cut -d' ' -f1-3 /proc/loadavg)"

# §5 — the servers live in a child bench process; the token stays in a shell variable.
endpoints=$(mktemp)
"$bin/cardwallet-bench" serve-pair --seconds 900 >"$endpoints" &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true; rm -f "$endpoints"' EXIT
for _ in $(seq 1 300); do
    grep -q '^route /v1/cards$' "$endpoints" && break
    kill -0 "$server" 2>/dev/null || { echo "bench-crosscheck: serve-pair exited early" >&2; exit 1; }
    sleep 0.1
done
mock=$(awk '$1 == "mock" { print $2 }' "$endpoints")
bare=$(awk '$1 == "bare" { print $2 }' "$endpoints")
[[ -n "$mock" && -n "$bare" ]] || { echo "bench-crosscheck: serve-pair did not start" >&2; exit 1; }
token=$(curl -sf -H 'Content-Type: application/json' -d '{"email":"demo@cardwallet.dev","password":"demo1234"}' \
    "$mock/v1/auth/login" | python3 -c 'import json, sys; print(json.load(sys.stdin)["data"]["accessToken"])')

echo
echo "§5 wrk, $duration per run (mock then bare, alternating)"
printf '%-22s %-5s %12s %12s %7s\n' route c mock bare ratio
for route in $(awk '$1 == "route" { print $2 }' "$endpoints"); do
    for connections in 1 32; do
        threads=$((connections < 2 ? 1 : 2))
        declare -A rate=()
        for side in mock bare; do
            base=$mock
            [[ $side == bare ]] && base=$bare
            report=$(wrk -t"$threads" -c"$connections" -d"$duration" -H "Authorization: Bearer $token" "$base$route")
            if grep -q 'Non-2xx' <<<"$report"; then
                echo "bench-crosscheck: $side $route answered errors:" >&2
                grep -E 'Non-2xx|Socket errors' <<<"$report" >&2
                exit 1
            fi
            rate[$side]=$(awk '/^Requests\/sec/ { print $2 }' <<<"$report")
        done
        ratio=$(python3 -c "print(f'{${rate[mock]} / ${rate[bare]}:.2f}')")
        printf '%-22s %-5s %12s %12s %7s\n' "$route" "c=$connections" "${rate[mock]}/s" "${rate[bare]}/s" "$ratio"
    done
done

echo
echo "§6 hyperfine: cardwallet --help"
hyperfine -N --warmup 5 --runs 50 "$bin/cardwallet --help" "/bin/true"
