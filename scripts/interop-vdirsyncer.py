#!/usr/bin/env python3
"""Interop test of CardWallet's CardDAV sync against vdirsyncer, through a real Radicale server.

Starts Radicale (scripts/carddav-server.py radicale, user alice) and logs the already-built binary
(.build/debug/cardwallet by default) in to it with private HOME and XDG_* folders, then pairs
alice's address book with a local vdir (a folder of .vcf files) in vdirsyncer, a program we did
not write, and checks that cards go both ways:

  1. cards added with `cardwallet add` reach the vdir, with their FN, EMAIL, ORG and TITLE;
  2. a vCard written by hand into the vdir (FN, EMAIL, TEL, ORG, NOTE, and properties CardWallet
     does not model: X-SOCIALPROFILE, NICKNAME, a second EMAIL, a grouped item1.URL with its
     X-ABLABEL) goes up and shows in `cardwallet list --json` and `show --json` after
     `cardwallet sync`, with its fields;
  3. `cardwallet edit --title` of that card reaches the vdir with the new TITLE and every other
     line of the hand-written card still there (lossless edits);
  4. a TITLE changed in a .vcf of the vdir goes up, and `cardwallet show --json` shows it;
  5. a card deleted with `cardwallet rm --yes` leaves the vdir, and a .vcf deleted from the vdir
     leaves `cardwallet list` after `cardwallet sync`;
  6. no phantom changes: after cardwallet's reads (sync, list, show of every card) another
     vdirsyncer sync copies and deletes nothing, the server's ETags and the vdir's files unchanged.

    scripts/interop-vdirsyncer.py                 # after `swift build`
    scripts/interop-vdirsyncer.py --binary path/to/cardwallet --keep

Exit status: 0 when every check passed, 1 when one failed, 2 when a peer or the binary is
missing (pip install -r scripts/requirements-carddav.txt).
"""

import argparse
import importlib.util
import json
import os
import re
import selectors
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
USER, PASSWORD, BOOK = "alice", "secret", "contacts"
# Cards made with cardwallet: name, email, company, title.
ADDED = [("Grace Hopper", "grace@example.com", "US Navy", "Rear Admiral"),
         ("Alan Turing", "alan@example.com", "NPL", "Researcher"),
         ("Katherine Johnson", "katherine@example.com", "NASA", "Mathematician")]
# The vCard written by hand into the vdir; every line but TITLE must outlive an edit in cardwallet.
HAND_FILE = "hand-ada-lovelace.vcf"
HAND = ["BEGIN:VCARD", "VERSION:3.0", "UID:hand-ada-lovelace", "FN:Ada Lovelace", "N:Lovelace;Ada;;;",
        "NICKNAME:Enchantress of Numbers", "EMAIL;TYPE=INTERNET:ada@example.org",
        "EMAIL;TYPE=HOME:ada.home@example.net", "TEL;TYPE=CELL:+44 20 7946 0958", "ORG:Analytical Engines",
        "TITLE:Analyst", "NOTE:Wrote the first program\\, for the Engine.", "X-SOCIALPROFILE;TYPE=twitter:ada",
        "item1.URL:https://example.org/ada", "item1.X-ABLABEL:blog", "END:VCARD"]
SERVER_DEADLINE = 60  # seconds for Radicale to say its URL
STEP = "setup"


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


def step(name):
    global STEP
    STEP = name


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "cardwallet"))
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = parser.parse_args()
    for module in ("vdirsyncer", "radicale"):
        if importlib.util.find_spec(module) is None:
            print(f"interop-vdirsyncer: {module} is missing: pip install -r scripts/requirements-carddav.txt",
                  file=sys.stderr)
            return 2
    if not os.access(args.binary, os.X_OK):
        print(f"interop-vdirsyncer: {args.binary} is not built (swift build)", file=sys.stderr)
        return 2

    started = time.monotonic()
    scratch = Path(tempfile.mkdtemp(prefix="cardwallet-vdirsyncer-"))
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8"}
    for folder, variable in (("home", "HOME"), ("state", "XDG_STATE_HOME"), ("cache", "XDG_CACHE_HOME"),
                             ("config", "XDG_CONFIG_HOME")):
        (scratch / folder).mkdir()
        env[variable] = str(scratch / folder)
    server_log = open(scratch / "radicale.log", "w", encoding="utf-8")
    server = subprocess.Popen([sys.executable, str(ROOT / "scripts" / "carddav-server.py"), "radicale", "--data",
                               str(scratch / "radicale"), "--user", f"{USER}:{PASSWORD}", "--book", BOOK],
                              env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=server_log, text=True)
    try:
        root = first_line(server, SERVER_DEADLINE)
        check(root.startswith("http://"), f"Radicale said {root!r} (see {scratch / 'radicale.log'})")
        env["CARDWALLET_SERVER"] = root
        run_checks(Cli(args.binary, env, scratch, root))
        print(f"interop-vdirsyncer: vdirsyncer and cardwallet sync both ways through Radicale: OK "
              f"({time.monotonic() - started:.1f}s)")
        return 0
    except CheckFailed as failure:
        print(f"interop-vdirsyncer: FAILED at {STEP}: {failure}", file=sys.stderr)
        return 1
    finally:
        server.stdin.close()  # carddav-server.py stops when its standard input closes
        try:
            server.wait(timeout=30)
        except subprocess.TimeoutExpired:
            server.kill()
            server.wait(timeout=30)
        server_log.close()
        if args.keep:
            print(f"interop-vdirsyncer: kept {scratch}", file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)


def first_line(process, seconds):
    """The process's first line of standard output, waited for until a deadline."""
    deadline = time.monotonic() + seconds
    with selectors.DefaultSelector() as selector:
        selector.register(process.stdout, selectors.EVENT_READ)
        while time.monotonic() < deadline:
            if selector.select(timeout=0.2):
                return process.stdout.readline().strip()
            check(process.poll() is None, f"the CardDAV server exited {process.returncode} before saying its URL")
    raise CheckFailed(f"the CardDAV server said nothing in {seconds}s")


class Cli:
    """cardwallet and vdirsyncer, each run with the scratch environment and a timeout."""

    def __init__(self, binary, env, scratch, root):
        self.binary, self.env, self.vdir = binary, env, scratch / "vdir"
        self.config = scratch / "vdirsyncer.conf"
        (scratch / "vdirsyncer-status").mkdir()
        self.vdir.mkdir()
        self.config.write_text(
            f'[general]\nstatus_path = "{scratch / "vdirsyncer-status"}/"\n\n'
            '[pair wallet]\na = "local"\nb = "remote"\ncollections = null\nconflict_resolution = null\n\n'
            f'[storage local]\ntype = "filesystem"\npath = "{self.vdir}/"\nfileext = ".vcf"\n\n'
            f'[storage remote]\ntype = "carddav"\nurl = "{root}{USER}/{BOOK}/"\n'
            f'username = "{USER}"\npassword = "{PASSWORD}"\n', encoding="utf-8")

    def run(self, command, label, input=None):
        try:
            result = subprocess.run(command, env=self.env, input=input, capture_output=True, text=True, timeout=120)
        except subprocess.TimeoutExpired:
            raise CheckFailed(f"{label} did not finish in 120s") from None
        check(result.returncode == 0,
              f"{label} exited {result.returncode}:\n{result.stdout.strip()}\n{result.stderr.strip()}")
        return result

    def cardwallet(self, *arguments, input=None):
        return self.run([self.binary, *arguments], f"cardwallet {' '.join(arguments)}", input).stdout

    def vdirsyncer(self, *arguments):
        """vdirsyncer's log lines (it logs on standard error), one per item it copied or deleted at INFO."""
        result = self.run([sys.executable, "-m", "vdirsyncer", "-v", "INFO", "-c", str(self.config), *arguments],
                          f"vdirsyncer {' '.join(arguments)}")
        return (result.stdout + result.stderr).splitlines()

    def cards(self):
        return json.loads(self.cardwallet("list", "--json"))

    def card_by_email(self, email):
        found = [card for card in self.cards() if card.get("email") == email]
        check(len(found) == 1, f"`cardwallet list --json` has {len(found)} cards with the email {email}")
        return found[0]

    def vdir_files(self):
        return {path.name: path.read_text(encoding="utf-8") for path in sorted(self.vdir.glob("*.vcf"))}

    def vdir_file_with(self, email):
        names = [name for name, text in self.vdir_files().items() if email in values(text, "EMAIL")]
        check(len(names) == 1, f"{len(names)} .vcf files of the vdir hold EMAIL {email}: {sorted(self.vdir_files())}")
        return self.vdir / names[0]


def unfolded(text):
    """The content lines of a vCard, unfolded."""
    text = text.replace("\r\n", "\n").replace("\n ", "").replace("\n\t", "")
    return [line for line in text.split("\n") if line]


def values(text, name):
    """The values of every property called name (any group, any parameters), raw."""
    found = []
    for line in unfolded(text):
        head, _, value = line.partition(":")
        if head.split(";")[0].split(".")[-1].upper() == name:
            found.append(value)
    return found


def write_atomically(path, text):
    """Writes a .vcf as an editor would: a new file renamed over the old (vdirsyncer sees a new inode)."""
    temporary = path.with_suffix(".tmp")
    temporary.write_bytes(text.encode("utf-8"))
    os.replace(temporary, path)


def changes(log):
    return [line for line in log if "Copying" in line or "Deleting item" in line]


def run_checks(cli):
    login = cli.cardwallet("login", "--email", USER, "--password-stdin", input=f"{PASSWORD}\n")
    step("step 0 (the login names the kind of server and the address book; status and books agree)")
    check("(CardDAV, address book “Contacts”)" in login and "#book=" not in login, f"login said: {login!r}")
    status = json.loads(cli.cardwallet("status", "--json"))
    check(status.get("kind") == "cardDAV" and status.get("addressBookId") == "contacts" and status.get("email") == USER,
          f"`status --json` said {status}")
    books = json.loads(cli.cardwallet("books", "--json"))
    check([(book["id"], book["inUse"]) for book in books] == [("contacts", True)], f"`books --json` said {books}")
    cli.vdirsyncer("discover")

    step("step 1 (cards added with cardwallet reach the vdir)")
    for name, email, company, title in ADDED:
        cli.cardwallet("add", "--name", name, "--email", email, "--company", company, "--title", title)
    cli.vdirsyncer("sync")
    check(len(cli.vdir_files()) == len(ADDED), f"the vdir holds {sorted(cli.vdir_files())}, not {len(ADDED)} cards")
    for name, email, company, title in ADDED:
        text = cli.vdir_file_with(email).read_text(encoding="utf-8")
        for prop, expected in (("FN", name), ("ORG", company), ("TITLE", title)):
            check(values(text, prop) and values(text, prop)[0].split(";")[0] == expected,
                  f"the vdir's vCard of {name} has {prop} {values(text, prop)}, not {expected!r}:\n{text}")

    step("step 2 (a vCard written by hand into the vdir reaches cardwallet)")
    write_atomically(cli.vdir / HAND_FILE, "\r\n".join(HAND) + "\r\n")
    uploaded = changes(cli.vdirsyncer("sync"))
    check(any("to remote" in line for line in uploaded), f"vdirsyncer uploaded nothing: {uploaded}")
    cli.cardwallet("sync")
    ada = cli.card_by_email("ada@example.org")
    shown = json.loads(cli.cardwallet("show", ada["id"], "--json"))
    for field, expected in (("name", "Ada Lovelace"), ("company", "Analytical Engines"), ("title", "Analyst"),
                            ("phone", "+44 20 7946 0958"), ("bio", "Wrote the first program, for the Engine."),
                            ("website", "https://example.org/ada")):
        check(shown.get(field) == expected, f"`cardwallet show {ada['id']} --json` has {field} "
                                            f"{shown.get(field)!r}, not {expected!r}")
        if field in ("name", "company", "title"):
            check(ada.get(field) == expected, f"`cardwallet list --json` has {field} {ada.get(field)!r}")

    step("step 3 (an edit in cardwallet reaches the vdir, losslessly)")
    cli.cardwallet("edit", ada["id"], "--title", "Countess of Lovelace")
    downloaded = changes(cli.vdirsyncer("sync"))
    check(any("hand-ada-lovelace" in line and "to local" in line for line in downloaded),
          f"vdirsyncer did not bring the edited card down: {downloaded}")
    text = (cli.vdir / HAND_FILE).read_text(encoding="utf-8")
    check(values(text, "TITLE") == ["Countess of Lovelace"], f"the vdir's TITLE is {values(text, 'TITLE')}:\n{text}")
    kept = set(unfolded(text))
    lost = [line for line in HAND if not line.startswith("TITLE:") and line not in kept]
    check(not lost, f"the edit in cardwallet lost these lines of the hand-written card: {lost}\n"
                    f"the vdir now has:\n{text}")

    step("step 4 (an edit in the vdir reaches cardwallet)")
    alan = cli.vdir_file_with("alan@example.com")
    text = alan.read_text(encoding="utf-8")
    edited = re.sub(r"^TITLE:[^\r\n]*", "TITLE:Codebreaker", text, flags=re.MULTILINE)
    check(edited != text, f"no TITLE line to change in {alan.name}:\n{text}")
    write_atomically(alan, edited)
    uploaded = changes(cli.vdirsyncer("sync"))
    check(any("to remote" in line for line in uploaded), f"vdirsyncer uploaded nothing: {uploaded}")
    cli.cardwallet("sync")
    card = cli.card_by_email("alan@example.com")
    title = json.loads(cli.cardwallet("show", card["id"], "--json")).get("title")
    check(title == "Codebreaker", f"`cardwallet show {card['id']} --json` has title {title!r}, not 'Codebreaker'")

    step("step 5 (deletions go both ways)")
    grace = cli.card_by_email("grace@example.com")
    cli.cardwallet("rm", grace["id"], "--yes")
    katherine = cli.vdir_file_with("katherine@example.com")
    katherine.unlink()
    cli.vdirsyncer("sync")
    left = [name for name, text in cli.vdir_files().items() if "grace@example.com" in values(text, "EMAIL")]
    check(not left, f"the card deleted with `cardwallet rm` is still in the vdir: {left}")
    cli.cardwallet("sync")
    emails = sorted(card.get("email") for card in cli.cards())
    check("katherine@example.com" not in emails, f"the .vcf deleted from the vdir is still in cardwallet: {emails}")
    check(emails == ["ada@example.org", "alan@example.com"], f"cardwallet lists {emails} after the deletions")
    check(sorted(cli.vdir_files()) == sorted([HAND_FILE, alan.name]), f"the vdir holds {sorted(cli.vdir_files())}")

    step("step 6 (no phantom changes)")
    quiet = changes(cli.vdirsyncer("sync"))
    check(not quiet, f"a vdirsyncer sync right after the last one still changed: {quiet}")
    before = {card["id"]: card["version"] for card in cli.cards()}
    files = {path.name: (path.stat().st_mtime_ns, path.stat().st_ino) for path in cli.vdir.glob("*.vcf")}
    cli.cardwallet("sync")
    for card_id in before:
        cli.cardwallet("show", card_id, "--json")
    again = changes(cli.vdirsyncer("sync"))
    check(not again, f"after cardwallet's sync, list and show, vdirsyncer found changes: {again}")
    after = {card["id"]: card["version"] for card in cli.cards()}
    check(after == before, f"cardwallet's reads changed the server's ETags: {before} became {after}")
    now = {path.name: (path.stat().st_mtime_ns, path.stat().st_ino) for path in cli.vdir.glob("*.vcf")}
    check(now == files, "the vdir's files were rewritten by a sync that had nothing to do")


if __name__ == "__main__":
    sys.exit(main())
