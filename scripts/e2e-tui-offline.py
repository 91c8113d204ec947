#!/usr/bin/env python3
"""End-to-end test of the interface on the local cache (issue 17) through tmux.

Starts `cardwallet mock-server --port P --data FILE` as a process of its own, logs in with
`cardwallet login`, and drives `cardwallet --server URL` in a detached tmux session (private
XDG_STATE_HOME, XDG_CONFIG_HOME, XDG_CACHE_HOME, TMPDIR):

  a first start with the server down and nothing cached: `offline — no cards cached yet`, and
  the app asks again by itself until the server is back · online: the 12 demo cards · the server killed (SIGKILL) and r pressed: the status bar says
  `offline — cards as of HH:MM`, the cards stay, a card opens from the cache, `X` exports all 12
  (read whole in the background while online) · a card added
  offline: marked ↑ pending · a card edited offline, then changed by someone else on the server
  (the same data file served on another port meanwhile) · a server started again on the same
  port (held by the script throughout, so no other program can take it) and data file: the app goes back online by itself (its retry), sends the addition once
  (`cardwallet list` shows one copy), and opens the form's conflict view for the edit; Enter
  keeps both changes (`cardwallet show`) · quit · a second start against the server with `--latency 3s` paints the
  cached cards (`cached HH:MM`) before the server's answer replaces them.

No fixed sleeps: every step waits for its condition with a deadline (the retry's backoff is at
most 30 s). Reuses the tmux helpers of scripts/e2e-tui.py.

    scripts/e2e-tui-offline.py            # after `swift build`
    scripts/e2e-tui-offline.py --binary path/to/cardwallet --timeout 60 --keep

Exit status: 0 when every step passed, 1 when one failed, 2 when tmux or the binary is missing.
"""

import argparse
import importlib.util
import os
import re
import shlex
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
_spec = importlib.util.spec_from_file_location("e2e_tui", ROOT / "scripts" / "e2e-tui.py")
e2e = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(e2e)
StepFailed, Session, wait_until, EMAIL, PASSWORD = e2e.StepFailed, e2e.Session, e2e.wait_until, e2e.EMAIL, e2e.PASSWORD


HELD_PORTS: list[socket.socket] = []


def held_port() -> int:
    """A loopback port held for the whole run, for a server stopped and started again on it.

    Bound with SO_REUSEADDR and never listening: the mock server (which binds with SO_REUSEADDR,
    Hummingbird's default) can take it while it is held, connections are refused while no server
    runs, and the kernel never hands it to another program's port-0 socket in between — unlike a
    port bound, closed and reused by number.
    """
    holder = socket.socket()
    holder.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    holder.bind(("127.0.0.1", 0))
    HELD_PORTS.append(holder)
    return holder.getsockname()[1]


def reachable(base_url: str) -> bool:
    try:
        urllib.request.urlopen(base_url + "/cards", timeout=10)
    except urllib.error.HTTPError:
        return True  # 401 without a token: it answers
    except OSError:
        return False
    return True


def start_server(binary: Path, port: int, data: Path, log: Path, timeout: float, *options: str) -> subprocess.Popen:
    server = subprocess.Popen(
        [str(binary), "mock-server", "--port", str(port), "--data", str(data), *options],
        stdout=log.open("ab"), stderr=subprocess.STDOUT, start_new_session=True)
    wait_until(f"the mock server on port {port}", lambda: server.poll() is None and reachable(f"http://127.0.0.1:{port}/v1")
               or server.poll() is not None, timeout)
    if server.poll() is not None:
        raise StepFailed(f"the mock server exited with {server.returncode} (see {log})")
    return server


def whole_cards_answered(server_log: Path) -> int:
    """How many batched reads of whole cards (`GET /cards/whole`, up to 16 cards each in the
    background) the mock server answered with 200, from its request log."""
    text = server_log.read_text(errors="replace") if server_log.exists() else ""
    return len(re.findall(r"method=GET path=/v1/cards/whole\S* .*status=200", text))


def run(arguments) -> int:
    binary = Path(arguments.binary).resolve()
    if shutil.which("tmux") is None or not os.access(binary, os.X_OK):
        print("e2e-tui-offline: tmux or the binary is missing (`swift build`, scripts/bootstrap)", file=sys.stderr)
        return 2
    folder = Path(tempfile.mkdtemp(prefix="cardwallet-offline-"))
    environment = {
        "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "tmux-256color", "SWIFT_BACKTRACE": "enable=no",
        "HOME": str(folder), "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    }
    for name in ("state", "config", "cache", "tmp"):
        (folder / name).mkdir(mode=0o700)
        environment[{"tmp": "TMPDIR"}.get(name, f"XDG_{name.upper()}_HOME")] = str(folder / name)
    port = held_port()
    base_url = f"http://127.0.0.1:{port}/v1"
    data, server_log = folder / "server.sqlite", folder / "server.log"
    session = Session(folder, arguments.timeout)
    server = None
    step = "start the mock server"
    started = time.monotonic()
    command = f"{shlex.quote(str(binary))} --server {shlex.quote(base_url)}; exec sleep 3600"
    try:
        server = start_server(binary, port, data, server_log, arguments.timeout)
        step = "cardwallet login"
        login = subprocess.run([str(binary), "login", "--server", base_url, "--email", EMAIL, "--password-stdin"],
                               input=PASSWORD + "\n", capture_output=True, text=True, env=environment, timeout=60)
        if login.returncode != 0:
            raise StepFailed(f"login exited {login.returncode}: {login.stderr.strip()}")

        step = "a first start without the server and nothing cached: said, and retried until it answers"
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
        session.start(command, environment)
        session.wait_text("offline — no cards cached yet", "no cards cached yet for this account: retrying")
        server = start_server(binary, port, data, server_log, arguments.timeout)

        step = "online: the server's cards"
        session.wait_text("12 cards", "김민준", f"{EMAIL} @", absent=("offline",), timeout=arguments.timeout + 35)

        # The whole cards are read in the background after the list (WholeCardFiller, 16 per
        # request: the 12 in one): wait until the server has answered it before it goes away,
        # rather than racing the fill (the clean-clone CI lost that race once).
        step = "online: the 12 whole cards read in the background"
        wait_until("the server's answer to GET /cards/whole for the 12 cards",
                   lambda: whole_cards_answered(server_log) >= 1, arguments.timeout)

        step = "the server killed: offline from the cache"
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()
        server = None
        session.keys("r")
        session.wait_text("offline — cards as of", "12 cards", "김민준")
        session.keys("g", "j", "Enter")
        session.wait_text("CardWallet · card", "김민준", absent=("Loading the card",))
        session.keys("q")
        session.wait_text("12 cards", "offline — cards as of")
        # Every card was read whole in the background while online: all of them export offline.
        session.keys("X")
        session.wait_text("File", "vCard 3.0")
        session.keys("Enter")
        session.wait_text("Exported 12 cards")

        step = "a card added offline: pending"
        session.keys("a")
        session.wait_text("New card", "Name")
        session.type("Offline Person")
        session.keys("Enter")
        session.wait_text("CardWallet · card", "Offline Person", "id local:")
        session.keys("q")
        session.wait_for("the pending mark", lambda text: any(
            line.startswith("↑") and "Offline Person" in line for line in text.splitlines()))

        step = "a card edited offline: pending"
        session.keys("g", "j", "e")
        session.wait_text("Edit “김민준”")
        session.keys("Tab", "End")
        session.type(" (offline)")
        session.keys("Enter")
        session.wait_for("the edit's pending mark", lambda text: any(
            line.startswith("↑") and "김민준" in line for line in text.splitlines()))

        step = "someone changes that card on the server meanwhile (the same data, through another port)"
        other_port = held_port()
        other_url = f"http://127.0.0.1:{other_port}/v1"
        other = start_server(binary, other_port, data, server_log, arguments.timeout)
        try:
            for change in (["login", "--server", other_url, "--email", EMAIL, "--password-stdin"],
                           ["edit", "demo-02", "--company", "Changed elsewhere", "--server", other_url]):
                done = subprocess.run([str(binary), *change], input=PASSWORD + "\n", capture_output=True, text=True,
                                      env=environment, timeout=60)
                if done.returncode != 0:
                    raise StepFailed(f"{change[0]} exited {done.returncode}: {done.stderr.strip()}")
        finally:
            os.killpg(other.pid, signal.SIGTERM)
            other.wait(timeout=30)

        step = "the server back on the same port and data: online by itself, the edit's conflict view"
        server = start_server(binary, port, data, server_log, arguments.timeout)
        session.wait_text("while you were offline: your edit was not sent", "Server, version 2", "Changed elsewhere",
                          timeout=arguments.timeout + 35)
        session.keys("Enter")
        session.wait_text("13 cards", "Offline Person", "Saved “김민준”", absent=("offline —",))
        shown = subprocess.run([str(binary), "show", "demo-02", "--server", base_url], capture_output=True, text=True,
                               env=environment, timeout=60)
        if "(offline)" not in shown.stdout or "Changed elsewhere" not in shown.stdout:
            raise StepFailed(f"the edit made offline and the other change are not both kept:\n{shown.stdout}")
        listed = subprocess.run([str(binary), "list", "--server", base_url], capture_output=True, text=True,
                                env=environment, timeout=60)
        if listed.stdout.count("Offline Person") != 1:
            raise StepFailed(f"the server holds {listed.stdout.count('Offline Person')} copies of the offline card")

        step = "quit, then a second start against a slow server paints the cached cards first"
        session.keys("q")
        session.wait_for("the interface to quit", lambda text: "13 cards" not in text)
        session.kill()
        os.killpg(server.pid, signal.SIGTERM)
        server.wait(timeout=30)
        server = start_server(binary, port, data, server_log, arguments.timeout, "--latency", "3s")
        session = Session(folder, arguments.timeout)
        session.start(command, environment)
        session.wait_text("cached ", "13 cards", "Offline Person", f"{EMAIL} @")
        session.wait_text("13 cards", "Offline Person", absent=("cached ",))
        print(f"e2e-tui-offline: passed in {time.monotonic() - started:.1f} s")
        return 0
    except (StepFailed, OSError, subprocess.SubprocessError) as failure:
        print(f"e2e-tui-offline: FAILED at step “{step}”: {failure}", file=sys.stderr)
        print("----- last capture -----", file=sys.stderr)
        print(session.last_capture, file=sys.stderr)
        return 1
    finally:
        session.kill()
        if server is not None and server.poll() is None:
            os.killpg(server.pid, signal.SIGTERM)
            server.wait(timeout=30)
        for holder in HELD_PORTS:
            holder.close()
        if arguments.keep:
            print(f"e2e-tui-offline: kept {folder}", file=sys.stderr)
        else:
            shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(ROOT / ".build/debug/cardwallet"), help="the cardwallet to test")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds each step may take (default 30)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    return run(parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
