#!/usr/bin/env python3
"""End-to-end test of the terminal interface through tmux.

Starts `cardwallet demo --admin` (the already-built binary, .build/debug/cardwallet by default)
in a detached tmux session of a fixed size, with a private XDG_STATE_HOME, XDG_CONFIG_HOME and
TMPDIR, and drives it with keys, asserting on `tmux capture-pane -p` text at each step:

  log in (Enter) · the demo cards (a Korean name) · add a card through the form · find it with
  / · open it · edit it · delete it (Enter on the question keeps it: the default is No; then y)
  · expire the access token through the admin endpoint and reload: a refresh · the log pane
  (l, L) with the requests · a log line's detail with `Authorization: <private>` · resize to a
  too-small window and back · a hostile card added with `cardwallet add` (ESC [2J, OSC 2, OSC 52,
  a bidi override) shown escaped in the list and the card, the window title and tmux's clipboard
  untouched · a conflicting edit from `cardwallet edit` while the form is open: E07, the server's
  version beside the user's, the untouched field taking the server's value, saved with nothing
  lost · the session revoked through the admin endpoint while a new card's form is filled in:
  the login dialog over the form with the email filled in, the password typed, the save replayed
  once · a bracketed paste of two lines into a one-line field (text, never Enter) · a delete
  undone with u · a name copied with y n reaching tmux's clipboard (OSC 52) · a card's picture
  in half blocks and the protocol in the log · Q: the card's QR code (a Korean name too),
  rasterised from the capture and read back by zxing-cpp · `cardwallet qr` as text and PNG read
  back the same way · X exports every card, i reads the file
  back (a preview of 13 unchanged cards, Esc sends nothing) · Ctrl-O in the add form scans a
  generated photo of a paper card (make-scan-cards.py, Tesseract) into the form, the photo in
  half blocks beside the fields before Ctrl-S, saved with its picture · quit with q.

Then checks that the program exited 0 with the terminal restored (same `stty -g`, alternate
screen off, cursor visible), that the demo's private token folder is gone, and that the log file
is 0600 and holds the requests but never a token (the tokens are read from the demo's token
file while it runs) nor the password. No fixed sleeps: every step waits for its condition with
a deadline. On failure it prints the last capture and the tail of the log file.

    scripts/e2e-tui.py                      # after `swift build`
    scripts/e2e-tui.py --binary path/to/cardwallet --timeout 40 --keep

Exit status: 0 when every step passed, 1 when one failed, 2 when tmux or the binary is missing.
"""

import argparse
import glob
import json
import os
import re
import shlex
import shutil
import stat
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
WIDTH, HEIGHT = 100, 30
POLL_SECONDS = 0.15
EMAIL = "demo@cardwallet.dev"
PASSWORD = "demo1234"
CARD_NAME = "E2E Tester 테스트"
HOSTILE_NAME = "\x1b[2J\x1b[31mPWNED"


class StepFailed(Exception):
    pass


class Session:
    """One detached tmux session on a private socket, with helpers to wait on its screen."""

    def __init__(self, folder: Path, timeout: float):
        self.folder = folder
        self.timeout = timeout
        # A server of its own (a socket in tmux's folder: a path under a long TMPDIR could pass
        # the 108-byte limit of socket paths), killed at the end.
        self.socket_name = f"cardwallet-e2e-{os.getpid()}"
        self.name = "cardwallet-e2e"
        self.last_capture = ""
        self.captures: list[str] = []

    def tmux(self, *arguments: str, check: bool = True) -> str:
        command = ["tmux", "-L", self.socket_name, "-f", "/dev/null", *arguments]
        result = subprocess.run(command, capture_output=True, text=True, encoding="utf-8", errors="replace")
        if check and result.returncode != 0:
            raise StepFailed(f"tmux {' '.join(arguments)} failed: {result.stderr.strip()}")
        return result.stdout

    def start(self, command: str, environment: dict[str, str]) -> None:
        self.tmux("-u", "new-session", "-d", "-s", self.name, "-x", str(WIDTH), "-y", str(HEIGHT),
                  "env", *[f"{key}={value}" for key, value in environment.items()], "sh", "-c", command)
        # So that a clipboard write (OSC 52) reaching the terminal would show as a paste buffer.
        self.tmux("set-option", "-g", "set-clipboard", "on")

    def capture(self) -> str:
        text = self.tmux("capture-pane", "-p", "-t", self.name, check=False)
        self.last_capture = text
        self.captures.append(text)
        del self.captures[:-400]
        return text

    def keys(self, *keys: str) -> None:
        """Sends tmux key names (Enter, Tab, Escape, C-u…), one by one."""
        for key in keys:
            self.tmux("send-keys", "-t", self.name, key)

    def type(self, text: str) -> None:
        self.tmux("send-keys", "-t", self.name, "-l", text)

    def display(self, format_string: str) -> str:
        return self.tmux("display-message", "-p", "-t", self.name, format_string).strip()

    def wait_for(self, description: str, predicate, timeout: float | None = None) -> str:
        """Polls the screen until predicate(text) holds; fails after the deadline."""
        deadline = time.monotonic() + (timeout or self.timeout)
        while True:
            text = self.capture()
            if predicate(text):
                return text
            if time.monotonic() > deadline:
                raise StepFailed(f"timed out waiting for {description}")
            time.sleep(POLL_SECONDS)

    def wait_text(self, *needles: str, absent: tuple[str, ...] = (), timeout: float | None = None) -> str:
        description = " and ".join(repr(n) for n in needles) + "".join(f", without {a!r}" for a in absent)
        return self.wait_for(description, lambda t: all(n in t for n in needles) and not any(a in t for a in absent),
                             timeout)

    def kill(self) -> None:
        self.tmux("kill-server", check=False)


def wait_until(description: str, condition, timeout: float) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise StepFailed(f"timed out waiting for {description}")
        time.sleep(POLL_SECONDS)


def demo_tokens(tmpdir: Path) -> set[str]:
    """The access and refresh tokens in the demo's private token file(s), right now."""
    tokens = set()
    for path in glob.glob(str(tmpdir / "cardwallet-demo-*" / "tokens.json")):
        try:
            text = Path(path).read_text()
        except OSError:
            continue
        tokens.update(re.findall(r'"(?:accessToken|refreshToken)"\s*:\s*"([^"]+)"', text))
    return tokens


def token_file_tokens(path: Path) -> set[str]:
    """The access and refresh tokens in one token file, if it exists."""
    try:
        text = path.read_text()
    except OSError:
        return set()
    return set(re.findall(r'"(?:accessToken|refreshToken)"\s*:\s*"([^"]+)"', text))


def admin(base_url: str, action: str) -> None:
    """POST /_admin/<action>?email=… on the demo server (straight to 127.0.0.1, whatever http_proxy says)."""
    request = urllib.request.Request(f"{base_url}/_admin/{action}?email={EMAIL}", method="POST", data=b"")
    opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
    with opener.open(request, timeout=10) as response:
        if response.status != 200:
            raise StepFailed(f"the admin endpoint {action} answered {response.status}")


def cli(binary: Path, environment: dict[str, str], *arguments: str, stdin: str | None = None) -> str:
    """Runs a scripting command of the same binary (its own token file, in the test's state folder)."""
    result = subprocess.run([str(binary), *arguments], input=stdin, capture_output=True, text=True,
                            env=environment, timeout=30)
    if result.returncode != 0:
        raise StepFailed(f"cardwallet {arguments[0]} exited {result.returncode}: {result.stderr.strip()[:300]}")
    return result.stdout


def decode_qr(screen: str) -> str:
    """The text of the QR code on `screen`, read by zxing-cpp: the half blocks rasterised, a
    pixel per module (█ two light modules, ▀ light above, ▄ light below, a space two dark)."""
    try:
        import zxingcpp
        from PIL import Image
    except ImportError as error:
        raise StepFailed(f"{error.name} is missing: pip install -r scripts/requirements-images.txt")
    rows = [line for line in screen.split("\n") if "█" in line or "▄" in line or "▀" in line]
    if not rows:
        raise StepFailed("no QR code on the screen")
    width = max(len(line) for line in rows)
    image = Image.new("L", (width + 8, 2 * len(rows) + 8), 0)
    for y, line in enumerate(rows):
        for x, character in enumerate(line):
            image.putpixel((x + 4, 2 * y + 4), 255 if character in "█▀" else 0)
            image.putpixel((x + 4, 2 * y + 5), 255 if character in "█▄" else 0)
    image = image.resize((image.width * 8, image.height * 8), Image.NEAREST)
    codes = zxingcpp.read_barcodes(image)
    if not codes:
        raise StepFailed("zxing-cpp found no QR code in the capture")
    return codes[0].text


def run(arguments) -> int:
    binary = Path(arguments.binary).resolve()
    if shutil.which("tmux") is None:
        print("e2e-tui: tmux is not installed (scripts/bootstrap installs it)", file=sys.stderr)
        return 2
    if not os.access(binary, os.X_OK):
        print(f"e2e-tui: {binary} is missing: run `swift build` first", file=sys.stderr)
        return 2

    folder = Path(tempfile.mkdtemp(prefix="cardwallet-e2e-"))
    state, config, tmpdir = folder / "state", folder / "config", folder / "tmp"
    for path in (state, config, tmpdir):
        path.mkdir(mode=0o700)
    log_file = state / "cardwallet" / "cardwallet.log"
    session = Session(folder, arguments.timeout)
    environment = {
        "XDG_STATE_HOME": str(state), "XDG_CONFIG_HOME": str(config), "TMPDIR": str(tmpdir),
        "LANG": "C.UTF-8", "LC_ALL": "C.UTF-8", "TERM": "tmux-256color",
        "SWIFT_BACKTRACE": "enable=no", "HOME": os.environ.get("HOME", str(folder)),
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
    }
    # The shell records the terminal settings before and after, and the exit status, then
    # keeps the pane open so the final screen can be read.
    marks = folder / "marks"
    marks.mkdir(mode=0o700)
    command = (
        f'cd {shlex.quote(str(marks))} && stty -g > stty-before && '
        f'{{ {shlex.quote(str(binary))} demo --admin; echo $? > exit-status; }}; '
        'stty -g > stty-after; printf "\\nE2E-EXIT %s\\n" "$(cat exit-status)"; exec sleep 3600'
    )
    started = time.monotonic()
    tokens: set[str] = set()
    hostile_id = ""

    def begin(name: str) -> str:
        if arguments.verbose:
            print(f"e2e-tui: {time.monotonic() - started:6.2f} s  {name}", file=sys.stderr)
        return name

    step = begin("start")

    try:
        session.start(command, environment)
        step = begin("login screen")
        screen = session.wait_text("Log in to a card server", EMAIL, "********")
        match = re.search(r"Server\s+(http://127\.0\.0\.1:\d+/v1)", screen)
        if not match:
            raise StepFailed("the login screen does not show the demo server's URL")
        base_url = match.group(1)

        step = begin("log in with Enter")
        session.keys("Enter")
        session.wait_text("12 cards", "김민준", "Ada Lovelace", f"{EMAIL} @")
        wait_until("the demo's tokens in its private token file", lambda: demo_tokens(tmpdir), arguments.timeout)
        tokens |= demo_tokens(tmpdir)

        step = begin("add a card")
        session.keys("a")
        session.wait_text("New card", "Name", "Image file")
        session.type(CARD_NAME)
        session.keys("Tab")
        session.type("QA Engineer")
        session.keys("Enter")
        session.wait_text(f"Added “{CARD_NAME}”", "QA Engineer", "version 1")
        session.keys("q")
        session.wait_text("13 cards", CARD_NAME)
        step = begin("the log pane shows the requests so far")
        # Its tail: the add, after the background read of whole cards in one batch (docs/Cache.md) ...
        session.keys("l")
        session.wait_text("Network log", "GET /v1/cards/whole?ids=demo-01", "POST /v1/card ")
        # ... and, browsed down from its first line, the login and the list.
        session.keys("Tab", "g")
        session.wait_text("Network log ·", "Esc back")
        for needle in ("POST /v1/auth/login", "GET /v1/cards?"):
            for _ in range(40):
                if needle in session.capture():
                    break
                session.keys("j")
            session.wait_text(needle)
        session.keys("Escape")
        session.wait_text("Network log", "POST /v1/card ")
        session.keys("l")
        session.wait_text("13 cards", absent=("Network log",))

        step = begin("the card's picture in half blocks, the chosen protocol in the log")
        session.keys("g", "Enter")
        screen = session.wait_text("CardWallet · card", "Ada Lovelace", "image/png", absent=("Loading the card", "Loading the picture"))
        if "▀" not in screen:
            raise StepFailed("the card's picture (half blocks) is not beside the fields")
        session.keys("l")
        session.wait_text("Network log", "GET /v1/card/demo-01/image")
        session.keys("l")
        session.wait_text("CardWallet · card", absent=("Network log",))
        if "* images: half blocks" not in log_file.read_text(encoding="utf-8"):
            raise StepFailed("the log does not say which picture protocol was chosen")

        step = begin("Q: the card as a QR code, read back by zxing-cpp")
        session.keys("Q")
        screen = session.wait_text("QR code of “Ada Lovelace” (vCard 3.0)", absent=("making it",))
        decoded = decode_qr(screen)
        if "FN:Ada Lovelace" not in decoded or "EMAIL:ada@analytical.example" not in decoded:
            raise StepFailed(f"zxing-cpp read {decoded!r} from the QR code, not Ada's vCard")
        session.keys("x")
        session.wait_text("CardWallet · card", "Ada Lovelace", absent=("QR code of",))
        session.keys("q")
        session.wait_text("13 cards", "김민준")
        session.keys("j", "Enter", "Q")
        screen = session.wait_text("QR code of “김민준”", absent=("making it",))
        decoded = decode_qr(screen)
        if "FN:김민준" not in decoded:
            raise StepFailed(f"zxing-cpp read {decoded!r} from the QR code, not 김민준's vCard")
        session.keys("Escape", "q", "g")
        session.wait_text("13 cards", "1/13")

        step = begin("X exports every card; i reads the file back: a preview with nothing to change")
        exported = folder / "export.vcf"
        session.keys("X")
        session.wait_text("Export all 13 cards as vCard 3.0")
        session.keys("C-u")
        session.type(str(exported))
        session.keys("Enter")
        session.wait_text(f"Exported 13 cards to {exported}")
        if exported.read_text(encoding="utf-8").count("BEGIN:VCARD") != 13:
            raise StepFailed(f"{exported} does not hold 13 vCards")
        session.keys("i")
        session.wait_text("Import a vCard file")
        session.type(str(exported))
        session.keys("Enter")
        session.wait_text("0 to create, 0 to update, 13 unchanged, 0 skipped", "= 김민준")
        session.keys("Escape")
        session.wait_text("13 cards", "Nothing imported", absent=("Import ",))
        session.keys("G")
        session.wait_text("13/13")

        step = begin("find it with /")
        session.keys("/")
        session.type("E2E")
        session.wait_text(CARD_NAME, "Enter keep", absent=("Ada Lovelace", "김민준"))
        session.keys("Enter")
        session.wait_text(CARD_NAME, "Enter open", absent=("Ada Lovelace",))

        step = begin("open it")
        session.keys("Enter")
        # The whole card has arrived (e before that says "Still loading the card…").
        session.wait_text("CardWallet · card", CARD_NAME, "QA Engineer", "version 1", "Image", absent=("Loading the card",))

        step = begin("edit it")
        session.keys("e")
        session.wait_text("edit card (version 1)", "Enter save")
        session.keys("Tab", "C-u")
        session.type("Chief Tester")
        session.keys("Enter")
        session.wait_text(f"Saved “{CARD_NAME}”", "Chief Tester", "version 2", absent=("QA Engineer",))

        step = begin("delete it: Enter keeps it (the default answer is No)")
        session.keys("d")
        session.wait_text("Confirm", f"Delete the card “{CARD_NAME}”?", "[ No ]")
        session.keys("Enter")
        session.wait_text("CardWallet · card", "Chief Tester", absent=("Confirm",))
        step = begin("delete it: y deletes it")
        session.keys("d")
        session.wait_text("Confirm")
        session.keys("y")
        session.wait_text(f"Deleted “{CARD_NAME}”", "No card matches", absent=("Confirm",))
        session.keys("Escape")
        # The status bar still says “Deleted …” for a while: look at the list rows only.
        session.wait_for("the list without the card", lambda t: "12 cards" in t and "Ada Lovelace" in t
                         and not any(line.startswith(" " + CARD_NAME) for line in t.splitlines()))

        step = begin("expire the access token (admin) and reload: a refresh")
        request = urllib.request.Request(f"{base_url}/_admin/expire?email={EMAIL}", method="POST", data=b"")
        # Straight to 127.0.0.1, whatever http_proxy says.
        opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))
        with opener.open(request, timeout=10) as response:
            if response.status != 200:
                raise StepFailed(f"the admin endpoint answered {response.status}")
        session.keys("r")
        wait_until("the refresh in the log file",
                   lambda: log_file.exists() and "POST /v1/auth/refresh 200" in log_file.read_text(),
                   arguments.timeout)
        tokens |= demo_tokens(tmpdir)

        step = begin("the log pane shows the refresh and the latest requests")
        session.keys("l")
        session.wait_text("Network log", "GET /v1/cards", "POST /v1/auth/refresh")
        session.keys("L", "L")
        session.wait_text("DELETE /v1/card/", "401 E04", "access token refreshed", "refreshing the access token")
        step = begin("a log line's detail hides the token")
        session.keys("Tab")
        session.wait_text("Esc back")
        session.keys("k", "Enter")
        session.wait_text("Log line", "Authorization: <private>")
        session.keys("Escape", "Escape")
        session.wait_text("Network log", absent=("Log line", "Esc back"))
        session.keys("l")
        session.wait_text("12 cards", absent=("Network log",))

        step = begin("resize: too small, then larger, then back")
        session.tmux("resize-window", "-t", session.name, "-x", "50", "-y", "12")
        session.wait_text("Terminal too small", "50×12")
        session.tmux("resize-window", "-t", session.name, "-x", "120", "-y", "40")
        session.wait_for("the list at 120 columns",
                         lambda t: "12 cards" in t and "Terminal too small" not in t
                         and any(len(line) > 100 for line in t.splitlines()))
        session.tmux("resize-window", "-t", session.name, "-x", str(WIDTH), "-y", str(HEIGHT))
        session.wait_text("12 cards", "Ada Lovelace", absent=("Terminal too small",))

        step = begin("a hostile card added from the command line shows escaped and changes nothing")
        # The command-line client, with a session of its own, adds a card whose fields try to
        # clear the screen, set the clipboard (OSC 52), retitle the window and reverse the text.
        cli_environment = {**environment, "TERM": "dumb"}
        cli(binary, cli_environment, "login", "--server", base_url, "--email", EMAIL, "--password-stdin",
            stdin=PASSWORD + "\n")
        hostile_id = cli(binary, cli_environment, "add", "--server", base_url, "--name", HOSTILE_NAME,
                         "--company", "\u202eEvil Corp", "--title", "Boss",
                         "--bio", "title \x1b]2;pwned\x07 bell \x07 clipboard \x1b]52;c;aGk=\x07").strip()
        tokens |= token_file_tokens(state / "cardwallet" / "tokens.json")
        # `cardwallet qr` prints the symbol the TUI shows, and writes it as a PNG: zxing-cpp reads both.
        printed = decode_qr(cli(binary, cli_environment, "qr", "--server", base_url, "demo-02"))
        png = folder / "qr.png"
        cli(binary, cli_environment, "qr", "--server", base_url, "demo-02", "--png", str(png))
        import zxingcpp
        from PIL import Image
        from_png = [code.text for code in zxingcpp.read_barcodes(Image.open(png))]
        if "FN:김민준" not in printed or from_png != [printed]:
            raise StepFailed(f"cardwallet qr: zxing-cpp read {printed!r} from the text and {from_png!r} from the PNG")
        session.keys("r")
        session.wait_text("13 cards", "^[[2J^[[31mPWNED", "\\u{202E}Evil Corp", absent=("Loading",))
        session.keys("G", "Enter")
        screen = session.wait_text("CardWallet · card", "^[[2J^[[31mPWNED", "^[]2;pwned^G", "^[]52;c;aGk=^G",
                                   f"id {hostile_id}", absent=("Loading the card",))
        if session.display("#{pane_title}") == "pwned":
            raise StepFailed("the card's OSC 2 retitled the window")
        if session.tmux("list-buffers", check=False).strip():
            raise StepFailed("the card's OSC 52 reached the clipboard")
        if not screen.startswith(" CardWallet · card"):
            raise StepFailed("the screen was cleared or scrolled by the card's name")

        step = begin("a conflicting edit (E07): the server's version beside yours, nothing lost")
        session.keys("e")
        session.wait_text("edit card (version 1)", "Enter save")
        session.keys("Tab", "C-u")
        session.type("Mine")
        cli(binary, cli_environment, "edit", "--server", base_url, hostile_id, "--company", "Their Co",
            "--title", "Theirs")
        session.keys("Enter")
        session.wait_text("changed on the server while you edited it (E07)", "Server, version 2",
                          "≠ Theirs", "= taken: you had not changed it", "Their Co")
        session.keys("Enter")
        session.wait_text("Saved “", "CardWallet · card", "Mine · Their Co", "version 3")
        session.keys("q")
        session.wait_text("13 cards", absent=("CardWallet · card",))

        step = begin("the session ends (admin revoke): the dialog opens over the form, the save is replayed")
        session.keys("a")
        session.wait_text("New card", "Image file")
        session.type("Replay Me")
        admin(base_url, "expire")
        admin(base_url, "revoke")
        session.keys("Enter")
        session.wait_text("Session expired (E06)", "1 request will be sent again", EMAIL, "Replay Me")
        session.type(PASSWORD)
        session.keys("Enter")
        session.wait_text("Added “Replay Me”", "CardWallet · card", absent=("Session expired",))
        tokens |= demo_tokens(tmpdir)
        session.keys("l")
        session.wait_text("Network log", "401 E06", "session expired for", "POST /v1/card 201")
        session.keys("l", "q")
        session.wait_text("14 cards", "Replay Me", absent=("Network log",))

        step = begin("a paste into a field is text, never Enter")
        session.keys("a")
        session.wait_text("New card", "Enter save")
        session.type("Pasted Person")
        session.keys("Tab")
        session.tmux("set-buffer", "Chief\nPaster")
        session.tmux("paste-buffer", "-p", "-t", session.name)
        session.wait_text("Chief Paster", "New card", absent=("Added",))
        session.keys("C-s")
        session.wait_text("Added “Pasted Person”", "CardWallet · card", "Chief Paster")

        step = begin("u brings back the card just deleted")
        session.keys("d")
        session.wait_text("Confirm")
        session.keys("y")
        session.wait_text("Deleted “Pasted Person” · u brings it back", "14 cards")
        session.keys("u")
        session.wait_text("Brought back “Pasted Person”", "15 cards")

        step = begin("y n copies the name to the clipboard (OSC 52, through tmux)")
        session.keys("/")
        session.type("Replay")
        session.keys("Enter", "Enter")
        session.wait_text("CardWallet · card", "Replay Me", absent=("Loading the card",))
        session.keys("y", "n")
        session.wait_text("Copied the name to the clipboard")
        wait_until("the name to reach tmux's clipboard",
                   lambda: session.tmux("show-buffer", check=False) == "Replay Me", session.timeout)
        session.keys("q", "Escape")
        session.wait_text("15 cards", absent=("Filter /",))

        step = begin("Ctrl-O in a new card's form scans a photo of a paper card (Tesseract), shows the photo beside the fields, Ctrl-S saves it with its picture")
        photos = folder / "photos"
        made = subprocess.run([sys.executable, str(Path(__file__).with_name("make-scan-cards.py")), "--out", str(photos),
                               "--count", "1"], capture_output=True, text=True, timeout=120)
        if made.returncode != 0:
            raise StepFailed(f"make-scan-cards.py failed: {made.stderr.strip()[:300]}")
        truth = json.loads((photos / "truth.json").read_text(encoding="utf-8"))["cards"][0]
        session.keys("a", "C-o")
        session.wait_text("Enter scan")
        session.type(str(photos / truth["file"]))
        session.keys("Enter")
        # Long values end in "…" at the field's width (the generator draws every ending of the
        # Public Suffix List, some long): their beginnings are what the form can show.
        session.wait_text("fields from", truth["fields"]["name"], truth["fields"]["email"][:28],
                          str(photos / truth["file"])[:28])
        # The photo shows in the form, beside the fields, before anything is saved or sent.
        screen = session.wait_for("the scanned photo in half blocks beside the form's fields",
                                  lambda text: "New card" in text and "Loading the picture" not in text
                                  and any("▀" in line and "Name" in line for line in text.splitlines()))
        if "No picture" in screen:
            raise StepFailed("the form says the scanned photo cannot be shown")
        session.keys("C-s")
        screen = session.wait_text("CardWallet · card", truth["fields"]["name"], "image/jpeg", absent=("Loading the picture",))
        if "▀" not in screen:
            raise StepFailed("the scanned photo is not shown as the card's picture")
        session.keys("q")
        session.wait_text("16 cards")

        step = begin("quit with q")
        tokens |= demo_tokens(tmpdir)
        session.keys("q")
        screen = session.wait_text("E2E-EXIT")
        status = (marks / "exit-status").read_text().strip()
        if status != "0":
            raise StepFailed(f"the program exited with {status}, not 0")
        if "has stopped; the demo's tokens are deleted" not in screen.replace("\n", ""):
            raise StepFailed("the demo did not say that its server stopped")

        step = begin("the terminal is restored")
        before, after = (marks / "stty-before").read_text().strip(), (marks / "stty-after").read_text().strip()
        if not before or before != after:
            raise StepFailed(f"the terminal settings differ: before {before!r}, after {after!r}")
        if session.display("#{alternate_on}") != "0":
            raise StepFailed("the alternate screen is still on")
        if session.display("#{cursor_flag}") != "1":
            raise StepFailed("the cursor is still hidden")

        step = begin("the demo's token folder is gone")
        if glob.glob(str(tmpdir / "cardwallet-demo-*")):
            raise StepFailed("the demo's private token folder was not removed")

        step = begin("the log file")
        if len(tokens) < 4:
            raise StepFailed(f"expected at least two token pairs from the demo, found {len(tokens)} tokens")
        mode = stat.S_IMODE(log_file.stat().st_mode)
        if mode != 0o600:
            raise StepFailed(f"the log file's mode is {oct(mode)}, not 0o600")
        written = log_file.read_text()
        for needle in ("POST /v1/auth/login 200", "GET /v1/cards?", "POST /v1/card ", "PUT /v1/card/",
                       "DELETE /v1/card/", "POST /v1/auth/refresh 200", "demo server: " + base_url,
                       "PUT /v1/card/" + hostile_id + " 412 E07", "POST /v1/auth/refresh 401 E06",
                       "session expired for"):
            if needle not in written:
                raise StepFailed(f"the log file lacks {needle!r}")
        deletes = written.count("→ DELETE /v1/card/")
        if deletes != 2:
            raise StepFailed(f"expected two DELETEs (Enter at the question must not delete), found {deletes}")
        if "\x1b" in written or "\x07" in written:
            raise StepFailed("the log file holds a raw control character")
        created = written.count("← POST /v1/card 201")
        if created != 5:
            raise StepFailed("expected five cards created (two through the form, the scan, the replay once, the paste, "
                             f"and the undo), found {created}")
        for secret in tokens | {PASSWORD}:
            if secret in written:
                raise StepFailed("a token or the password is in the log file")
            if any(secret in capture for capture in session.captures):
                raise StepFailed("a token or the password was on the screen")
        print(f"e2e-tui: passed in {time.monotonic() - started:.1f} s "
              f"({len(session.captures)} captures, {len(tokens)} tokens checked)")
        return 0
    except (StepFailed, OSError) as failure:
        print(f"e2e-tui: FAILED at step “{step}”: {failure}", file=sys.stderr)
        print("----- last capture -----", file=sys.stderr)
        print(session.last_capture, file=sys.stderr)
        print("----- log file (last 30 lines) -----", file=sys.stderr)
        if log_file.exists():
            lines = log_file.read_text(errors="replace").splitlines()[-30:]
            # Never print a secret, even in a failure report.
            for line in lines:
                for secret in tokens | {PASSWORD}:
                    line = line.replace(secret, "<token>")
                print(line, file=sys.stderr)
        else:
            print("(no log file)", file=sys.stderr)
        stray = state / "cardwallet" / "cardwallet.stderr.log"
        if stray.exists() and stray.stat().st_size:
            print("----- cardwallet.stderr.log (last 20 lines) -----", file=sys.stderr)
            print("\n".join(stray.read_text(errors="replace").splitlines()[-20:]), file=sys.stderr)
        return 1
    finally:
        session.kill()
        if arguments.keep:
            print(f"e2e-tui: kept {folder}", file=sys.stderr)
        else:
            shutil.rmtree(folder, ignore_errors=True)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--binary", default=str(ROOT / ".build/debug/cardwallet"), help="the cardwallet to test")
    parser.add_argument("--timeout", type=float, default=30.0, help="seconds each step may take (default 30)")
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder (state, log file)")
    parser.add_argument("--verbose", action="store_true", help="print each step with the time it started")
    return run(parser.parse_args())


if __name__ == "__main__":
    sys.exit(main())
