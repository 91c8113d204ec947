#!/usr/bin/env python3
"""End-to-end test of the accounts the wallet remembers (issue 38), as a person would use them:
the built `cardwallet` binary against a real Radicale (two users) and a real GNOME Keyring on a
private session bus, with private HOME and XDG_* folders.

  1. keyring: `login` keeps alice's password in the keyring (secret-tool finds it under
     application=cardwallet server=… user=…), a new process uses it with no --server, and no file
     under the state, config or cache folders holds it;
  2. two accounts side by side at one server: bob's login does not log alice out; `accounts`
     lists both (the default marked *), `--account` picks one, each card goes to its own book,
     the caches stay apart; `logout --account alice` removes her password from the keyring and
     leaves bob logged in;
  3. no keyring (no session bus): the password goes to the token file and login says so;
  4. --password-command: one that works (nothing stored, run again by the next process), one that
     fails, one that prints nothing, one that hangs — each a clear error naming the command and
     never showing what it printed, nothing changed;
  5. migration: a version 2 token file written by the cardwallet before accounts (its CardDAV
     password in plain text) is read, and the password moves into the keyring the first time one
     answers, leaving the file only after the keyring holds it.

    scripts/e2e-accounts.py                 # after `swift build`
    scripts/e2e-accounts.py --binary path/to/cardwallet --keep

Exit status: 0 when every check passed, 1 when one failed, 2 when a peer or the binary is missing
(scripts/bootstrap installs dbus, gnome-keyring, libsecret-tools and Radicale).
"""

import argparse
import importlib.util
import json
import os
import selectors
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
USERS = {"alice": "alice-Pa55-canary", "bob": "bob-Pa55-canary"}
KEYRING_PASSWORD = "keyring-unlock-pw"
STEP = "setup"


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


def step(name):
    global STEP
    STEP = name
    print(f"e2e-accounts: {name}", file=sys.stderr)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "cardwallet"))
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = parser.parse_args()
    missing = [tool for tool in ("/usr/bin/dbus-daemon", "/usr/bin/gnome-keyring-daemon", "/usr/bin/secret-tool")
               if not os.access(tool, os.X_OK)]
    if importlib.util.find_spec("radicale") is None:
        missing.append("radicale (pip install -r scripts/requirements-carddav.txt)")
    if missing:
        print(f"e2e-accounts: missing {', '.join(missing)}: run scripts/bootstrap", file=sys.stderr)
        return 2
    if not os.access(args.binary, os.X_OK):
        print(f"e2e-accounts: {args.binary} is not built (swift build)", file=sys.stderr)
        return 2

    started = time.monotonic()
    scratch = Path(tempfile.mkdtemp(prefix="cardwallet-accounts-"))
    processes = []
    try:
        radicale = start_radicale(scratch, processes)
        run_checks(args.binary, scratch, radicale, processes)
        print(f"e2e-accounts: accounts, keyring, password commands and migration: OK "
              f"({time.monotonic() - started:.1f}s)")
        return 0
    except CheckFailed as failure:
        print(f"e2e-accounts: FAILED at {STEP}: {failure}", file=sys.stderr)
        return 1
    finally:
        for process in reversed(processes):
            if process.stdin:
                process.stdin.close()
            if process.poll() is None:
                process.send_signal(signal.SIGKILL)
            process.wait(timeout=30)
        if args.keep:
            print(f"e2e-accounts: kept {scratch}", file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)


def first_line(process, seconds, what):
    deadline = time.monotonic() + seconds
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        while time.monotonic() < deadline:
            if selector.select(timeout=0.2):
                return process.stdout.readline().strip()
            check(process.poll() is None, f"{what} exited {process.returncode} before saying its address")
    raise CheckFailed(f"{what} said nothing in {seconds}s")


def start_radicale(scratch, processes):
    log = open(scratch / "radicale.log", "w", encoding="utf-8")
    command = [sys.executable, str(ROOT / "scripts" / "carddav-server.py"), "radicale", "--data",
               str(scratch / "radicale")]
    for user, password in USERS.items():
        command += ["--user", f"{user}:{password}"]
    server = subprocess.Popen(command, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log, text=True)
    processes.append(server)
    root = first_line(server, 60, "Radicale")
    check(root.startswith("http://"), f"Radicale said {root!r}")
    return root


class Keyring:
    """dbus-daemon on a socket of its own, and gnome-keyring-daemon on it with a new login keyring."""

    def __init__(self, scratch, processes):
        self.runtime = scratch / "keyring-run"
        self.runtime.mkdir(mode=0o700)
        base = {"HOME": str(scratch / "keyring-home"), "XDG_DATA_HOME": str(scratch / "keyring-data"),
                "XDG_RUNTIME_DIR": str(self.runtime), "PATH": "/usr/bin:/bin"}
        bus = subprocess.Popen(["/usr/bin/dbus-daemon", f"--config-file={ROOT / 'scripts' / 'private-session-bus.conf'}",
                                "--nofork", "--nopidfile", "--print-address=1", f"--address=unix:dir={self.runtime}"], env=base, stdout=subprocess.PIPE,
                               stderr=subprocess.DEVNULL, text=True)
        processes.append(bus)
        self.address = first_line(bus, 20, "dbus-daemon")
        self.env = dict(base, DBUS_SESSION_BUS_ADDRESS=self.address)
        daemon = subprocess.Popen(["/usr/bin/gnome-keyring-daemon", "--foreground", "--unlock",
                                   "--components=secrets"], env=self.env, stdin=subprocess.PIPE,
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        processes.append(daemon)
        daemon.stdin.write(KEYRING_PASSWORD.encode())
        daemon.stdin.close()
        daemon.stdin = None
        deadline = time.monotonic() + 20
        while time.monotonic() < deadline:
            probe = subprocess.run(["secret-tool", "store", "--label=probe", "application", "cardwallet-probe"],
                                   env=self.env, input="probe", capture_output=True, text=True, timeout=10)
            if probe.returncode == 0:
                subprocess.run(["secret-tool", "clear", "application", "cardwallet-probe"], env=self.env,
                               capture_output=True, timeout=10)
                return
            time.sleep(0.1)
        raise CheckFailed(f"the private keyring never answered: secret-tool said {probe.stderr.strip()!r}")

    def lookup(self, server, user):
        result = subprocess.run(["secret-tool", "lookup", "application", "cardwallet", "server", server, "user",
                                 user], env=self.env, capture_output=True, text=True, timeout=10)
        return result.stdout if result.returncode == 0 else None


class Wallet:
    """cardwallet with one private set of folders, and the environment of a session (or none)."""

    def __init__(self, binary, folder, session_env):
        self.binary, self.folder = binary, folder
        self.env = {"PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"}
        for name, variable in (("home", "HOME"), ("state", "XDG_STATE_HOME"), ("cache", "XDG_CACHE_HOME"),
                               ("config", "XDG_CONFIG_HOME")):
            (folder / name).mkdir(parents=True, exist_ok=True)
            self.env[variable] = str(folder / name)
        for key in ("DBUS_SESSION_BUS_ADDRESS", "XDG_RUNTIME_DIR"):
            if key in session_env:
                self.env[key] = session_env[key]
        self.tokens = folder / "state" / "cardwallet" / "tokens.json"

    def run(self, *arguments, input=None, expect=0, timeout=120):
        try:
            result = subprocess.run([self.binary, *arguments], env=self.env, input=input, capture_output=True,
                                    text=True, timeout=timeout)
        except subprocess.TimeoutExpired:
            raise CheckFailed(f"cardwallet {' '.join(arguments)} did not finish in {timeout}s") from None
        if expect is not None:
            check(result.returncode == expect,
                  f"cardwallet {' '.join(arguments)} exited {result.returncode}, not {expect}:\n"
                  f"{result.stdout.strip()}\n{result.stderr.strip()}")
        return result

    def login(self, root, user, *extra, expect=0):
        return self.run("login", "--server", root, "--email", user, "--password-stdin", *extra,
                        input=USERS[user] + "\n", expect=expect)

    def accounts(self):
        return json.loads(self.run("accounts", "--json").stdout)

    def files_holding(self, secret):
        """Every file under the wallet's state, config and cache folders that holds `secret`."""
        found = []
        for name in ("state", "config", "cache", "home"):
            for path in (self.folder / name).rglob("*"):
                if path.is_file() and secret.encode() in path.read_bytes():
                    found.append(str(path))
        return found


def book_files(scratch, user):
    """The vCards Radicale keeps in `user`'s books, by file name."""
    root = scratch / "radicale" / "collections" / "collection-root" / user
    return {path.name: path.read_text(encoding="utf-8") for path in root.rglob("*.vcf")
            if not any(part.startswith(".Radicale") for part in path.parts)}


def run_checks(binary, scratch, root, processes):
    step("keyring: login keeps the password in the keyring")
    keyring = Keyring(scratch, processes)
    wallet = Wallet(binary, scratch / "wallet", keyring.env)
    login = wallet.login(root, "alice")
    check("kept in the system keyring" in login.stdout, f"login said: {login.stdout}{login.stderr}")
    check("plain text" not in login.stderr, f"login warned: {login.stderr}")
    server = root.rstrip("/")
    check(keyring.lookup(server, "alice") == USERS["alice"], "secret-tool does not find alice's password")
    check(wallet.files_holding(USERS["alice"]) == [], f"the password is in {wallet.files_holding(USERS['alice'])}")

    step("keyring: a new process uses the account with no --server")
    wallet.run("add", "--name", "Ada Lovelace", "--email", "ada@example.com")
    listed = json.loads(wallet.run("list", "--json").stdout)
    check([card["name"] for card in listed] == ["Ada Lovelace"], f"list: {listed}")
    status = json.loads(wallet.run("status", "--json").stdout)
    check(status.get("kind") == "cardDAV" and status.get("secret") == "keyring", f"status --json: {status}")

    step("two accounts side by side: bob's login keeps alice logged in")
    wallet.login(root, "bob")
    accounts = wallet.accounts()
    names = {entry["name"]: entry for entry in accounts}
    check(set(names) == {"alice@127.0.0.1", "bob@127.0.0.1"}, f"accounts: {accounts}")
    check(names["bob@127.0.0.1"]["default"] and not names["alice@127.0.0.1"]["default"], f"accounts: {accounts}")
    check(all(entry["loggedIn"] and entry["secret"] == "keyring" for entry in accounts), f"accounts: {accounts}")
    table = wallet.run("accounts").stdout
    check("* bob@127.0.0.1" in table.replace("*  ", "* "), f"accounts:\n{table}")
    wallet.run("add", "--name", "Grace Hopper")
    wallet.run("--account", "alice@127.0.0.1", "add", "--name", "Katherine Johnson")
    alice_cards = " ".join(book_files(scratch, "alice").values())
    bob_cards = " ".join(book_files(scratch, "bob").values())
    check("Katherine Johnson" in alice_cards and "Ada Lovelace" in alice_cards, "alice's book lacks her cards")
    check("Grace Hopper" in bob_cards, "bob's book lacks his card")
    check("Grace Hopper" not in alice_cards and "Katherine" not in bob_cards, "a card went to the other account")
    bob_list = [card["name"] for card in json.loads(wallet.run("list", "--json").stdout)]
    alice_list = [card["name"] for card in json.loads(wallet.run("--account", "alice@127.0.0.1", "list",
                                                                  "--json").stdout)]
    check(bob_list == ["Grace Hopper"], f"bob's list: {bob_list}")
    check(sorted(alice_list) == ["Ada Lovelace", "Katherine Johnson"], f"alice's list: {alice_list}")
    caches = sorted(path.name for path in (wallet.folder / "cache").rglob("*.sqlite"))
    check(len(caches) == 2, f"the caches: {caches}")

    step("logout of one account leaves the other logged in")
    out = wallet.run("logout", "--account", "alice@127.0.0.1").stdout
    check("Logged out" in out, out)
    check(keyring.lookup(server, "alice") is None, "alice's password is still in the keyring")
    check(keyring.lookup(server, "bob") == USERS["bob"], "bob's password left the keyring")
    check([entry["name"] for entry in wallet.accounts()] == ["bob@127.0.0.1"], f"accounts: {wallet.accounts()}")
    check([card["name"] for card in json.loads(wallet.run("list", "--json").stdout)] == ["Grace Hopper"],
          "bob cannot list after alice's logout")
    wallet.run("--account", "alice@127.0.0.1", "list", expect=64)
    for user in USERS:
        check(wallet.files_holding(USERS[user]) == [], f"{user}'s password is in {wallet.files_holding(USERS[user])}")

    step("no keyring: the password goes to the token file, and login says so")
    plain = Wallet(binary, scratch / "plain", {})
    login = plain.login(root, "alice")
    check("plain text" in login.stderr and "--password-command" in login.stderr, f"login said: {login.stderr}")
    check(USERS["alice"] in plain.tokens.read_text(), "the password is not in the token file")
    check(oct(plain.tokens.stat().st_mode & 0o777) == "0o600", "the token file is not 0600")
    plain.run("list")

    step("password commands: one that works keeps nothing")
    commands = Wallet(binary, scratch / "commands", keyring.env)
    secret_file = scratch / "alice.pass"
    secret_file.write_text(USERS["alice"] + "\n")
    login = commands.run("login", "--server", root, "--email", "alice", "--password-command", f"cat {secret_file}")
    check("comes from `cat " in login.stdout, f"login said: {login.stdout}")
    check(commands.files_holding(USERS["alice"]) == [], "a password command's password was stored")
    check(keyring.lookup(server, "alice") is None, "a password command's password went to the keyring")
    commands.run("list")
    status = json.loads(commands.run("status", "--json").stdout)
    check(status.get("secret") == "command", f"status: {status}")

    step("password commands: failing, silent and hanging ones are clear errors that change nothing")
    before = commands.tokens.read_bytes()
    for command, words in (("echo leaked-output-canary; exit 3", "failed (exit status 3)"),
                           ("true", "printed no password"),
                           ("sleep 60", "did not finish within 10 s")):
        result = commands.run("login", "--server", root, "--email", "bob", "--password-command", command, expect=3)
        check(words in result.stderr and command in result.stderr, f"{command}: {result.stderr}")
        check("leaked-output-canary" not in result.stderr.replace(command, "") + result.stdout,
              f"the command's output was shown: {result.stderr}")
        check(commands.tokens.read_bytes() == before, f"{command} changed the token file")
    # The stored command fails later: the command that uses it says so (exit 3), nothing changes.
    secret_file.write_text("")
    result = commands.run("list", expect=None)
    check(result.returncode in (3, 6) and "printed no password" in result.stderr, f"list: {result.stderr}")

    step("migration: a version 2 file's plain-text password moves into the keyring")
    migrating = Wallet(binary, scratch / "migrating", keyring.env)
    migrating.tokens.parent.mkdir(parents=True, mode=0o700)
    migrating.tokens.write_text(json.dumps({
        "version": 2,
        "items": [{"account": "alice", "kind": "password", "password": USERS["alice"],
                   "place": "/alice/contacts/", "server": server}],
    }, indent=2))
    os.chmod(migrating.tokens, 0o600)
    listed = json.loads(migrating.run("--server", root, "list", "--json").stdout)
    check([card["name"] for card in listed] == ["Ada Lovelace", "Katherine Johnson"] or len(listed) == 2,
          f"list after migration: {listed}")
    check(keyring.lookup(server, "alice") == USERS["alice"], "the password did not reach the keyring")
    stored = json.loads(migrating.tokens.read_text())
    check(stored["version"] == 3, f"the file is version {stored['version']}")
    check(USERS["alice"] not in migrating.tokens.read_text(), "the password is still in the token file")
    check(stored["accounts"][0]["secret"] == {"in": "keyring"}, f"the record: {stored['accounts']}")
    migrating.run("list")


if __name__ == "__main__":
    sys.exit(main())
