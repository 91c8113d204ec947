#!/usr/bin/env python3
"""`scripts/demo --carddav`: the wallet on a real CardDAV server, on this machine.

Starts Radicale (scripts/carddav-server.py, the pinned version of scripts/requirements-carddav.txt)
on a free port of 127.0.0.1 with the account demo / demo1234, fills its address book with the
demo cards (exported as vCards by `cardwallet export` from the mock server, imported with
`cardwallet import`), logs in and opens the wallet on it. Everything lives in a private temporary
folder (its own HOME, token file and cache), removed when the wallet is closed; the server stops
with it.

    scripts/demo --carddav               # builds first, then runs this
    scripts/demo-carddav.py [--binary .build/debug/cardwallet] [--keep]

While it runs, the server's address is printed first: point vdirsyncer, khard or a phone at it
(user demo, password demo1234) and watch the wallet follow (`r` refreshes, `l` shows the log).
"""
import argparse
import base64
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
USER, PASSWORD = "demo", "demo1234"
DEMO_EMAIL, DEMO_PASSWORD = "demo@cardwallet.dev", "demo1234"


def fail(message):
    print(f"demo --carddav: {message}", file=sys.stderr)
    sys.exit(1)


def run(binary, arguments, env, input=None):
    result = subprocess.run([str(binary), *arguments], env=env, input=input, capture_output=True, text=True,
                            timeout=120)
    if result.returncode != 0:
        fail(f"`cardwallet {' '.join(arguments)}` failed ({result.returncode}): {result.stderr.strip()}")
    return result.stdout


def demo_vcards(binary, env):
    """The demo cards as vCard 3.0, from the mock server through our own exporter."""
    server = subprocess.Popen([str(binary), "mock-server", "--port", "0"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        line = server.stdout.readline()
        match = re.search(r"(http://\S+/v1)", line)
        if not match:
            fail(f"the mock server did not start: {line!r}")
        mock = dict(env, CARDWALLET_SERVER=match.group(1), CARDWALLET_TOKEN_FILE=str(Path(env["HOME"]) / "mock.json"))
        run(binary, ["login", "--email", DEMO_EMAIL, "--password-stdin"], mock, input=DEMO_PASSWORD + "\n")
        return run(binary, ["export", "--format", "vcard3"], mock)
    finally:
        server.terminate()
        server.wait(timeout=10)


WORK_BOOK = """<?xml version="1.0" encoding="utf-8"?>
<D:mkcol xmlns:D="DAV:" xmlns:C="urn:ietf:params:xml:ns:carddav"><D:set><D:prop>
<D:resourcetype><D:collection/><C:addressbook/></D:resourcetype><D:displayname>Work</D:displayname>
</D:prop></D:set></D:mkcol>"""

# The work book's cards as another client (a phone, Apple Contacts) would have written them,
# with a group vCard naming both: the wallet shows it as the cards' group, not as a card.
WORK_CARDS = {
    "grace-hopper": "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:grace-hopper\r\nFN:Grace Hopper\r\nN:Hopper;Grace;;;\r\n"
    "ORG:Navy Computing Lab\r\nTITLE:Rear Admiral\r\nEMAIL;TYPE=work:grace@navy.example\r\nEND:VCARD\r\n",
    "katherine-johnson": "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:katherine-johnson\r\nFN:Katherine Johnson\r\n"
    "N:Johnson;Katherine;;;\r\nORG:Flight Research\r\nTITLE:Mathematician\r\nEMAIL;TYPE=work:kj@flight.example\r\n"
    "END:VCARD\r\n",
    "pioneers": "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:pioneers\r\nFN:Pioneers\r\nN:Pioneers;;;;\r\n"
    "X-ADDRESSBOOKSERVER-KIND:group\r\nX-ADDRESSBOOKSERVER-MEMBER:urn:uuid:grace-hopper\r\n"
    "X-ADDRESSBOOKSERVER-MEMBER:urn:uuid:katherine-johnson\r\nEND:VCARD\r\n",
}


def request(url, method, body=None, content_type=None):
    """One request to the demo's Radicale as the demo user."""
    sent = urllib.request.Request(url, data=body.encode() if body else None, method=method)
    if content_type:
        sent.add_header("Content-Type", content_type)
    sent.add_header("Authorization", "Basic " + base64.b64encode(f"{USER}:{PASSWORD}".encode()).decode())
    with urllib.request.urlopen(sent, timeout=30) as response:
        return response.status


def make_work_book(url):
    """A second address book, so that B in the wallet has somewhere to go, with a group."""
    if request(f"{url}{USER}/work/", "MKCOL", WORK_BOOK, "application/xml; charset=utf-8") not in (200, 201):
        fail("could not make the second address book")
    for name, vcard in WORK_CARDS.items():
        if request(f"{url}{USER}/work/{name}.vcf", "PUT", vcard, "text/vcard; charset=utf-8") not in (200, 201, 204):
            fail(f"could not write {name}.vcf into the second address book")


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--binary", default=str(ROOT / ".build/debug/cardwallet"))
    parser.add_argument("--keep", action="store_true", help="keep the temporary folder")
    options = parser.parse_args()
    binary = Path(options.binary)
    if not binary.exists():
        fail(f"{binary} is missing: run scripts/demo --carddav (it builds first)")

    scratch = Path(tempfile.mkdtemp(prefix="cardwallet-carddav-demo-"))
    home = scratch / "home"
    home.mkdir()
    env = {key: value for key, value in os.environ.items() if not key.startswith("CARDWALLET_")}
    env.update(HOME=str(home), XDG_STATE_HOME=str(home / "state"), XDG_CACHE_HOME=str(home / "cache"),
               XDG_CONFIG_HOME=str(home / "config"))
    server = subprocess.Popen(
        [sys.executable, str(ROOT / "scripts/carddav-server.py"), "radicale", "--data", str(scratch / "data"),
         "--user", f"{USER}:{PASSWORD}"],
        stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = server.stdout.readline().strip()
        if not url.startswith("http://"):
            fail("Radicale did not start (is it installed? scripts/bootstrap installs it)")
        env["CARDWALLET_SERVER"] = url
        vcards = scratch / "demo.vcf"
        vcards.write_text(demo_vcards(binary, env), encoding="utf-8")
        run(binary, ["login", "--email", USER, "--password-stdin"], env, input=PASSWORD + "\n")
        run(binary, ["import", str(vcards)], env)
        make_work_book(url)
        print(f"demo --carddav: Radicale at {url} (user {USER}, password {PASSWORD}), address book "
              f"/{USER}/contacts/ (and /{USER}/work/, whose two cards are in the group Pioneers: B switches); the wallet opens on it. q quits; the server stops "
              "with it.", file=sys.stderr)
        subprocess.run([str(binary)], env=env)
    finally:
        try:
            server.stdin.close()
            server.wait(timeout=10)
        except Exception:  # noqa: BLE001 - stop it whatever happened
            server.kill()
        if options.keep:
            print(f"demo --carddav: kept {scratch}", file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)


if __name__ == "__main__":
    main()
