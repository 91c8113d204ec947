#!/usr/bin/env python3
"""Interop test of CardWallet's vCards against programs we did not write: vobject and khard.

Starts `cardwallet mock-server --port 0` (the already-built binary, .build/debug/cardwallet by
default) with private HOME, XDG_STATE_HOME and XDG_CONFIG_HOME folders, logs in as the demo
user, imports the corpus in Tests/CardVCardTests/Fixtures (Android 2.1 quoted-printable Korean,
Outlook 2.1 Windows-1252, iOS 3.0 grouped with a photo, Google 3.0 multi-card, 4.0 with a data:
photo, and the exporters' files of issue 32: an iPhone export with CR CR LF line ends, a note of
a few kB and a photo of tens of kB, Outlook 2007 with X-MS-* and a quoted-printable note, Lotus
Notes with X-LOTUS-*, Android contacts without a name, Evolution with X-EVOLUTION-*) and then
checks that:

  · `cardwallet export` (vCard 3.0) and `--format vcard4` parse with vobject, one component per
    card of the wallet, with the right FN (empty for a card whose name the import derived: the
    vCard had none), the right main EMAIL, a NOTE that is the whole note the card was imported
    with (not the bio it was clipped to), and PHOTO bytes equal to the photo files of the corpus;
  · what vobject writes back (`serialize`) of the 3.0 export of the exporters' files imports into
    another account with the same fields, card for card;
  · `cardwallet export --vdir` is a vdir khard reads: `khard list --parsable` shows every card's
    name, `khard email --parsable` every card's email, with nothing unparsable (`--skip-unparsable`
    is not given, so khard would stop on a bad file).

    scripts/interop-vcard.py                 # after `swift build`
    scripts/interop-vcard.py --binary path/to/cardwallet --keep

Exit status: 0 when every check passed, 1 when one failed, 2 when a peer or the binary is
missing (pip install -r scripts/requirements-interop.txt).
"""

import argparse
import base64
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "Tests" / "CardVCardTests" / "Fixtures"
CORPUS = ["android-21-korean.vcf", "outlook-21-cp1252.vcf", "ios-30-grouped.vcf", "google-30-multi.vcf", "v40-data-photo-lf.vcf",
          "iphone-30-crcrlf.vcf", "outlook-2007-21-notes.vcf", "lotus-notes-30.vcf", "android-21-nameless.vcf",
          "evolution-30.vcf"]
# The corpus's photos, by the email of their card (the demo wallet has an Ada Lovelace of its own).
PHOTOS = {"ada@example.com": "photo-ada.jpg", "minji@example.kr": "photo-minji.png", "jisoo@example.kr": "photo-jisoo.jpg",
          "chidinma.okafor@marine.example.ng": "photo-okafor.jpg"}
# Issue 32's files, written in the shapes of real exporters: their cards also go through vobject and back.
EXPORTERS = ["iphone-30-crcrlf.vcf", "outlook-2007-21-notes.vcf", "lotus-notes-30.vcf", "android-21-nameless.vcf",
             "evolution-30.vcf"]
# The fields a card models, compared after a trip through vobject.
FIELDS = ["name", "title", "company", "department", "email", "phone", "website", "address", "bio", "birthday", "tmi",
          "tags", "defaultImage"]
DERIVED = "X-CARDWALLET-DERIVED-NAME:"


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--binary", default=str(ROOT / ".build" / "debug" / "cardwallet"))
    parser.add_argument("--keep", action="store_true", help="keep the scratch folder")
    args = parser.parse_args()
    try:
        import vobject  # noqa: F401
    except ImportError:
        print("interop-vcard: vobject is missing: pip install -r scripts/requirements-interop.txt", file=sys.stderr)
        return 2
    if importlib.util.find_spec("khard") is None:
        print("interop-vcard: khard is missing: pip install -r scripts/requirements-interop.txt", file=sys.stderr)
        return 2
    if not os.access(args.binary, os.X_OK):
        print(f"interop-vcard: {args.binary} is not built (swift build)", file=sys.stderr)
        return 2

    scratch = Path(tempfile.mkdtemp(prefix="cardwallet-interop-"))
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": str(scratch / "home"),
        "XDG_STATE_HOME": str(scratch / "state"),
        "XDG_CONFIG_HOME": str(scratch / "config"),
        "LANG": "C.UTF-8",
    }
    for folder in ("home", "state", "config"):
        (scratch / folder).mkdir()
    server = subprocess.Popen([args.binary, "mock-server", "--port", "0"], env=env, stdout=subprocess.PIPE,
                              stderr=subprocess.DEVNULL, text=True)
    try:
        first = server.stdout.readline().strip()
        check(first.startswith("listening on "), f"the mock server said {first!r}")
        env["CARDWALLET_SERVER"] = first.removeprefix("listening on ")
        run_checks(args.binary, env, scratch)
        print("interop-vcard: vobject and khard read our exports: OK")
        return 0
    except CheckFailed as failure:
        print(f"interop-vcard: FAILED: {failure}", file=sys.stderr)
        return 1
    finally:
        server.terminate()
        server.wait(timeout=30)
        if args.keep:
            print(f"interop-vcard: kept {scratch}", file=sys.stderr)
        else:
            shutil.rmtree(scratch, ignore_errors=True)


def cardwallet(binary, env, *arguments, input=None):
    result = subprocess.run([binary, *arguments], env=env, input=input, capture_output=True, text=True, timeout=120)
    check(result.returncode == 0, f"cardwallet {' '.join(arguments)} exited {result.returncode}: {result.stderr.strip()}")
    return result.stdout


def run_checks(binary, env, scratch):
    cardwallet(binary, env, "login", "--email", "demo@cardwallet.dev", "--password-stdin", input="demo1234\n")
    exporters = []
    for name in CORPUS:
        report = json.loads(cardwallet(binary, env, "import", str(FIXTURES / name), "--json"))
        if name in EXPORTERS:
            exporters += [card["id"] for card in report["cards"] if card["action"] == "created"]
    wallet = json.loads(cardwallet(binary, env, "export", "--format", "json"))
    check(len(wallet) >= 10, f"the wallet holds {len(wallet)} cards")
    check(all(email in (card.get("email") for card in wallet) for email in PHOTOS), "a card of the corpus is missing")

    check(sum(1 for card in wallet if derived(card)) >= 3, "the contacts without a name are missing")
    check(any(original(card, "NOTE", "bio") for card in wallet), "no card kept a note longer than its bio")

    for version, extra in (("3.0", []), ("4.0", ["--format", "vcard4"])):
        path = scratch / f"export-{version}.vcf"
        cardwallet(binary, env, "export", "--output", str(path), *extra)
        check_vobject(path.read_bytes().decode("utf-8"), wallet, version)
    path = scratch / "exporters-3.0.vcf"
    cardwallet(binary, env, "export", *exporters, "--output", str(path))
    check_vobject_round_trip(binary, env, scratch, path.read_text(encoding="utf-8"),
                             [card for card in wallet if card["id"] in exporters])

    vdir = scratch / "contacts"
    cardwallet(binary, env, "export", "--vdir", str(vdir))
    check_khard(vdir, wallet, env, scratch)


def check_vobject(text, wallet, version):
    import vobject

    components = list(vobject.readComponents(text))
    blocks = text.split("BEGIN:VCARD\r\n")[1:]
    check(len(components) == len(wallet), f"vobject read {len(components)} cards of {len(wallet)} ({version})")
    for component, block, card in zip(components, blocks, wallet):
        check(component.version.value == version, f"VERSION {component.version.value}, not {version}")
        # The whole FN a name was clipped from, an empty one for a name the import derived.
        name = "" if derived(card) else original(card, "FN", "name") or card["name"]
        check(component.fn.value == name, f"vobject FN {component.fn.value!r}, not {name!r} ({version})")
        note = original(card, "NOTE", "bio")
        if note is not None:
            check(component.note.value == note,
                  f"vobject's NOTE of {card['name']} is {len(component.note.value)} characters, not the {len(note)} imported")
        if card.get("email"):
            check(component.email.value == card["email"],
                  f"vobject's first EMAIL of {card['name']} is {component.email.value!r}, not {card['email']!r}")
        expected = PHOTOS.get(card.get("email"))
        if expected:
            photo = photo_bytes(component, block)
            check(photo == (FIXTURES / expected).read_bytes(), f"the photo of {card['name']} ({version}) differs from {expected}")


def derived(card):
    """Whether the import named the card (its vCard had no name)."""
    return any(line.startswith(DERIVED) for line in card.get("vcardProperties", []))


def original(card, name, field):
    """The whole value a field was imported from when the field holds a clipped part of it, unescaped."""
    prefix = f"{name};X-CARDWALLET-FIELD={field}:"
    for line in card.get("vcardProperties", []):
        if line.startswith(prefix):
            value, out, escaping = line[len(prefix):], [], False
            for char in value:
                if escaping:
                    out.append("\n" if char in "nN" else char)
                    escaping = False
                elif char == "\\":
                    escaping = True
                else:
                    out.append(char)
            return "".join(out)
    return None


def check_vobject_round_trip(binary, env, scratch, text, wallet):
    """Our 3.0 export of `wallet` (the cards of issue 32's files), read and written again by vobject, imported
    into another account: the same fields."""
    import vobject

    written = "".join(component.serialize() for component in vobject.readComponents(text))
    path = scratch / "vobject-serialized.vcf"
    path.write_text(written, encoding="utf-8")
    cardwallet(binary, env, "login", "--email", "minji@cardwallet.dev", "--password-stdin", input="minji1234\n")
    own = len(json.loads(cardwallet(binary, env, "export", "--format", "json")))
    report = json.loads(cardwallet(binary, env, "import", str(path), "--json"))
    check(report["created"] == len(wallet) and report["skipped"] == 0,
          f"vobject's serialization imported as {report['created']} created, {report['skipped']} skipped of {len(wallet)}")
    theirs = json.loads(cardwallet(binary, env, "export", "--format", "json"))[own:]
    for ours, back in zip(wallet, theirs):
        for field in FIELDS:
            check(ours.get(field) == back.get(field),
                  f"after vobject, {ours['name']}'s {field} is {back.get(field)!r}, not {ours.get(field)!r}")
    cardwallet(binary, env, "login", "--email", "demo@cardwallet.dev", "--password-stdin", input="demo1234\n")


def photo_bytes(component, block):
    value = component.photo.value
    if isinstance(value, bytes):
        return value
    # vCard 4.0: a data: URI. vobject is a vCard 3.0 library whose text decoding cuts the URI at
    # its comma (vobject 0.9.9), so the value is read from the card's own PHOTO line, unfolded.
    unfolded = block.replace("\r\n ", "")
    line = next((line for line in unfolded.split("\r\n") if line.startswith("PHOTO:")), "")
    head, _, data = line.removeprefix("PHOTO:").partition(",")
    check(head.startswith("data:image/") and head.endswith(";base64"), f"PHOTO is {head!r}")
    return base64.b64decode(data)


def check_khard(vdir, wallet, env, scratch):
    config = scratch / "khard.conf"
    config.write_text(
        "[addressbooks]\n[[cardwallet]]\npath = " + str(vdir) + "\n\n"
        "[general]\ndefault_action = list\neditor = /bin/true\nmerge_editor = /bin/true\n\n"
        "[contact table]\ndisplay = formatted_name\nsort = formatted_name\n", encoding="utf-8")
    # As a module of this Python, so a `pip install --user` works whatever the PATH.
    khard = [sys.executable, "-m", "khard", "-c", str(config)]
    khard_env = dict(env, LANG="C.UTF-8")

    def run(*arguments):
        result = subprocess.run([*khard, *arguments], env=khard_env, capture_output=True, text=True, timeout=120)
        check(result.returncode == 0, f"khard {' '.join(arguments)} exited {result.returncode}: {result.stderr.strip()}")
        return result.stdout

    names = sorted(line.split("\t")[1] for line in run("list", "--parsable").splitlines() if line.strip())
    # A card whose name the import derived has an empty FN, as its vCard had no name; one whose
    # name was clipped, the whole FN it came with.
    shown = {id(card): "" if derived(card) else original(card, "FN", "name") or card["name"] for card in wallet}
    check(names == sorted(shown.values()), f"khard lists {names}")
    emails = {}
    # The first line is a status line ("searching for 'ALL' ..."), as mutt's query format has.
    for line in run("email", "--parsable").splitlines()[1:]:
        address, name, *_ = line.split("\t")
        emails.setdefault(name, []).append(address)
    for card in wallet:
        if card.get("email"):
            name = shown[id(card)]
            check(card["email"] in emails.get(name, []),
                  f"khard shows {emails.get(name)} for {card['name']}, not {card['email']}")


if __name__ == "__main__":
    sys.exit(main())
