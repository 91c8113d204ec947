#!/bin/bash
# Counts token refreshes made by real `cardwallet list` processes sharing one token file against
# a real mock server (issue 12; results in docs/Session.md, "Measured refresh counts").
#
#   scripts/refresh-counts.sh TTL COUNT seq         COUNT processes one after another
#   ROUNDS=10 ROUND_GAP=2 scripts/refresh-counts.sh TTL COUNT par
#                                                   ROUNDS rounds of COUNT processes at once,
#                                                   ROUND_GAP seconds between rounds
#
# TTL is the server's access-token lifetime (`--access-ttl`, e.g. 2s or 30s). BIN chooses the
# cardwallet binary (default .build/debug/cardwallet). Everything lives in a temporary folder;
# the user's own token file and configuration are never touched.
set -u
BIN=${BIN:-$(cd "$(dirname "$0")/.." && pwd)/.build/debug/cardwallet}
TTL=${1:?TTL}
COUNT=${2:?COUNT}
MODE=${3:?seq or par}
DIR=$(mktemp -d /tmp/cardwallet-refresh-counts.XXXXXX)
chmod 700 "$DIR"
mkdir -m 700 "$DIR/state"
trap 'rm -rf "$DIR"' EXIT
cd "$DIR" || exit 1
export CARDWALLET_TOKEN_FILE=$DIR/state/tokens.json XDG_CONFIG_HOME=$DIR/config

"$BIN" mock-server --port 0 --access-ttl "$TTL" >"$DIR/out" 2>"$DIR/server.log" &
SERVER=$!
for _ in $(seq 100); do grep -q '^listening on ' "$DIR/out" 2>/dev/null && break; sleep 0.1; done
CARDWALLET_SERVER=$(sed -n 's/^listening on //p' "$DIR/out" | head -1)
export CARDWALLET_SERVER
echo demo1234 | "$BIN" login --email demo@cardwallet.dev --password-stdin >/dev/null || exit 1

FAILURES=0
START=$(date +%s%N)
if [ "$MODE" = seq ]; then
    for _ in $(seq "$COUNT"); do "$BIN" list >/dev/null 2>>"$DIR/client.log" || FAILURES=$((FAILURES + 1)); done
else
    for _ in $(seq "${ROUNDS:-1}"); do
        PIDS=()
        for _ in $(seq "$COUNT"); do
            ("$BIN" list >/dev/null 2>>"$DIR/client.log" || echo failed >>"$DIR/failures") &
            PIDS+=($!)
        done
        wait "${PIDS[@]}"
        sleep "${ROUND_GAP:-0}"
    done
    FAILURES=$(cat "$DIR/failures" 2>/dev/null | wc -l)
fi
END=$(date +%s%N)
kill "$SERVER"
wait "$SERVER" 2>/dev/null

REFRESHES=$(grep 'path=/v1/auth/refresh' "$DIR/server.log")
echo "access-ttl $TTL, $MODE, $COUNT processes${ROUNDS:+ x $ROUNDS rounds}: $(((END - START) / 1000000)) ms, $FAILURES failed"
echo "refreshes: $(grep -c . <<<"$REFRESHES") ($(grep -c 'status=200' <<<"$REFRESHES") x 200, $(grep -c 'status=429' <<<"$REFRESHES") x 429 E10)"
echo "at: $(grep -o '^[0-9T:-]*' <<<"$REFRESHES" | cut -c12-19 | tr '\n' ' ')"
