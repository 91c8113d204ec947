#!/usr/bin/env python3
"""Fuzz the mock card server against docs/openapi.yaml with schemathesis.

Starts `cardwallet mock-server` on a free port (with --admin and a throw-away configuration
that adds a dedicated fuzzing account), runs `st run` with every applicable check, then reads
the server's own request statistics and fails if any response was a 5xx.

    pip install schemathesis
    scripts/fuzz-api.py                      # build, then fuzz with the defaults
    scripts/fuzz-api.py --max-examples 200 --seed 7 --no-build

Exit status: 0 when the server answered no 5xx (schemathesis findings are printed either
way), 1 when it answered a 5xx or failed to start, 2 for usage errors.
"""

import argparse
import json
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import textwrap
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FUZZ_EMAIL = "fuzz@cardwallet.dev"
FUZZ_PASSWORD = "fuzz-password-1234"

# Checks that need a second user's credentials (object_level_authorization) are covered by
# the Swift cross-user tests instead.
EXCLUDED_CHECKS = ["object_level_authorization"]

HOOKS = textwrap.dedent(
    """
    import json, os, urllib.request
    import schemathesis

    BASE = os.environ["FUZZ_BASE_URL"]

    @schemathesis.auth(refresh_interval=30)
    class FuzzAccount:
        \"\"\"Logs the fuzzing account in; re-logs in when a 401 says the session ended.\"\"\"

        def get(self, case, context):
            body = json.dumps({"email": os.environ["FUZZ_EMAIL"], "password": os.environ["FUZZ_PASSWORD"]})
            request = urllib.request.Request(
                BASE + "/auth/login", data=body.encode(), method="POST",
                headers={"Content-Type": "application/json"})
            with urllib.request.urlopen(request, timeout=10) as response:
                return json.load(response)["data"]["accessToken"]

        def set(self, case, data, context):
            case.headers = case.headers or {}
            case.headers["Authorization"] = f"Bearer {data}"
    """
)


def write_configuration(folder: Path) -> Path:
    """A copy of Config/mock-server.json with a fuzzing account that owns copies of the demo cards."""
    config = json.loads((ROOT / "Config/mock-server.json").read_text())
    cards = json.loads((ROOT / "Config/demo-cards.json").read_text())["cards"]
    fuzz_cards = [dict(card, id=card["id"].replace("demo", "fuzz"), owner=FUZZ_EMAIL)
                  for card in cards if card["owner"] == "demo@cardwallet.dev"]
    (folder / "cards.json").write_text(json.dumps({"cards": cards + fuzz_cards}, ensure_ascii=False))
    config["users"].append({"id": "user-fuzz", "email": FUZZ_EMAIL, "name": "Fuzz", "password": FUZZ_PASSWORD})
    config["cardsFile"] = "cards.json"
    config["passwordHashCost"] = 4
    config["limits"]["refreshesPerMinute"] = 100000
    path = folder / "mock-server.json"
    path.write_text(json.dumps(config, ensure_ascii=False, indent=2))
    return path


def server_statistics(base_url: str) -> dict:
    with urllib.request.urlopen(base_url + "/_admin/stats", timeout=10) as response:
        return json.load(response)["data"]["requests"]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--max-examples", type=int, default=100, help="test cases per operation (default 100)")
    parser.add_argument("--seed", type=int, default=20261121, help="random seed, for reproducible runs")
    parser.add_argument("--max-time", type=int, default=0, help="time budget in seconds for the whole run (default none)")
    parser.add_argument("--no-build", action="store_true", help="use the existing .build/debug/cardwallet")
    parser.add_argument("--report-dir", default=None, help="write schemathesis JUnit and NDJSON reports here")
    arguments = parser.parse_args()

    st = shutil.which("st") or shutil.which("schemathesis")
    if st is None:
        print("schemathesis is not installed: pip install schemathesis", file=sys.stderr)
        return 2
    if not arguments.no_build:
        subprocess.run(["swift", "build", "--product", "cardwallet"], cwd=ROOT, check=True)
    binary = ROOT / ".build/debug/cardwallet"

    with tempfile.TemporaryDirectory(prefix="cardwallet-fuzz-") as temporary:
        folder = Path(temporary)
        config = write_configuration(folder)
        (folder / "cardwallet_fuzz_hooks.py").write_text(HOOKS)
        server = subprocess.Popen(
            [str(binary), "mock-server", "--config", str(config), "--port", "0", "--admin",
             "--access-ttl", "1h", "--log-level", "warning"],
            cwd=ROOT, stdout=subprocess.PIPE, stderr=sys.stderr, text=True)
        try:
            first = server.stdout.readline().strip()
            if not first.startswith("listening on "):
                print(f"the server did not start: {first!r}", file=sys.stderr)
                return 1
            base_url = first.removeprefix("listening on ")
            print(f"fuzzing {base_url} with schemathesis, seed {arguments.seed}", flush=True)
            environment = dict(os.environ, FUZZ_BASE_URL=base_url, FUZZ_EMAIL=FUZZ_EMAIL,
                               FUZZ_PASSWORD=FUZZ_PASSWORD, SCHEMATHESIS_HOOKS="cardwallet_fuzz_hooks",
                               PYTHONPATH=str(folder) + os.pathsep + os.environ.get("PYTHONPATH", ""))
            command = [st, "run", str(ROOT / "docs/openapi.yaml"), "--url", base_url,
                       "--checks", "all", "--exclude-checks", ",".join(EXCLUDED_CHECKS),
                       "--max-examples", str(arguments.max_examples), "--seed", str(arguments.seed),
                       "--generation-database", "none", "--no-color", "--workers", "1"]
            if arguments.max_time:
                command += ["--max-time", str(arguments.max_time)]
            if arguments.report_dir:
                command += ["--report", "junit,ndjson", "--report-dir", arguments.report_dir]
            schemathesis_status = subprocess.run(command, cwd=folder, env=environment).returncode

            statistics = server_statistics(base_url)
            by_class: dict[str, int] = {}
            server_errors = []
            for route, statuses in sorted(statistics.items()):
                for status, count in statuses.items():
                    by_class[status[0] + "xx"] = by_class.get(status[0] + "xx", 0) + count
                    if status.startswith("5"):
                        server_errors.append(f"{route}: {count} × {status}")
            total = sum(by_class.values())
            print(f"\nserver statistics: {total} requests, " +
                  ", ".join(f"{key}: {value}" for key, value in sorted(by_class.items())))
            for route, statuses in sorted(statistics.items()):
                print(f"  {route}: " + ", ".join(f"{s}×{c}" for s, c in sorted(statuses.items())))
            print(f"schemathesis exit status: {schemathesis_status}")
            if server_errors:
                print("5xx responses:\n  " + "\n  ".join(server_errors))
                return 1
            print("zero 5xx responses")
            return 0
        finally:
            server.send_signal(signal.SIGTERM)
            try:
                server.wait(timeout=20)
            except subprocess.TimeoutExpired:
                server.kill()
            if server.returncode not in (0, -signal.SIGKILL):
                print(f"the server exited with {server.returncode}", file=sys.stderr)


if __name__ == "__main__":
    sys.exit(main())
