#!/usr/bin/env python3
"""Interop test of CardWallet's lossless vCard editing (Sources/CardVCard/Editing) against vobject.

The Swift suite ResourceGoldenTests writes edited and new vCards into
Tests/CardVCardTests/Fixtures/Editing/edited (and fails when the editor no longer writes exactly
them), with what each should read as in manifest.json. This script checks, with vobject (the
parser Radicale stores cards with), that each of them:

  · parses as one vCard of the version it had, with the FN, the UID and the members we read;
  · holds our email and phone among its EMAIL and TEL values, and our title, company and
    department, bio, website and tags as vobject unescapes them (the escapes* files hold commas,
    semicolons, backslashes and line breaks in every one);
  · holds the PHOTO bytes of the fixture it was given (3.0 base64, 4.0 data: URI), or the URI;
  · survives Radicale's treatment: vobject's serialize() of it parses again with the same FN,
    EMAILs and TELs;
  · keeps every line of the card it was edited from that the edit did not touch (checked on the
    Swift side line by line; here: every X- property of the original is still there for vobject).

    scripts/interop-vcard-edit.py

Exit status: 0 when every check passed, 1 when one failed, 2 when vobject is missing
(pip install -r scripts/requirements-interop.txt).
"""

import base64
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "Tests" / "CardVCardTests" / "Fixtures"
EDITED = FIXTURES / "Editing" / "edited"
# Which card each edited file was made from, for the X- properties that must still be there.
SOURCES = {
    "ios-30": FIXTURES / "ios-30-grouped.vcf",
    "fastmail-40": FIXTURES / "Editing" / "fastmail-40.vcf",
    "radicale-30": FIXTURES / "Editing" / "radicale-30-reserialised.vcf",
    "group-40": FIXTURES / "Editing" / "group-40-kind.vcf",
    "group-30": FIXTURES / "Editing" / "group-30-addressbookserver.vcf",
}


class CheckFailed(Exception):
    pass


def check(condition, message):
    if not condition:
        raise CheckFailed(message)


def values(component, name):
    return [line.value for line in component.contents.get(name, [])]


def unfolded_lines(text):
    return text.replace("\r\n ", "").replace("\r\n\t", "").split("\r\n")


def photo_bytes(component, text):
    lines = component.contents.get("photo", [])
    check(lines, "no PHOTO")
    value = lines[0].value
    if isinstance(value, bytes):
        return value
    # vobject 0.9.9 is a 3.0 library whose text decoding cuts a 4.0 data: URI at its comma: the
    # value is read from the card's own PHOTO line.
    line = next(line for line in unfolded_lines(text) if line.split(":", 1)[0].split(".")[-1].upper() == "PHOTO")
    head, _, data = line.split(":", 1)[1].partition(",")
    check(head.startswith("data:image/") and head.endswith(";base64"), f"PHOTO is {head!r}")
    return base64.b64decode(data)


def x_properties(component):
    found = set()
    for name, lines in component.contents.items():
        if name.startswith("x-"):
            for line in lines:
                found.add((name, line.group, str(line.value)))
    return found


def check_file(entry):
    import vobject

    path = EDITED / entry["file"]
    text = path.read_bytes().decode("utf-8")
    check(text.endswith("\r\n") and "\n" not in text.replace("\r\n", ""), "line ends are not all CR LF")
    components = list(vobject.readComponents(text))
    check(len(components) == 1, f"vobject read {len(components)} cards")
    card = components[0]
    check(card.version.value == entry["version"], f"VERSION {card.version.value}, not {entry['version']}")
    check(values(card, "fn")[:1] == [entry["name"]], f"FN {values(card, 'fn')}, not {entry['name']!r}")
    if entry.get("uid"):
        check(values(card, "uid") == [entry["uid"]], f"UID {values(card, 'uid')}")
    if entry.get("email"):
        check(entry["email"] in values(card, "email"), f"{entry['email']!r} not among {values(card, 'email')}")
    if entry.get("phone"):
        # A 4.0 `tel:` URI's number is the phone, as we read it.
        phones = [value[4:].split(";")[0] if value.lower().startswith("tel:") else value for value in values(card, "tel")]
        check(entry["phone"] in phones, f"{entry['phone']!r} not among {values(card, 'tel')}")
    if entry.get("photo"):
        check(photo_bytes(card, text) == (FIXTURES / entry["photo"]).read_bytes(), f"PHOTO is not {entry['photo']}")
    if entry.get("photoURI"):
        check(entry["photoURI"] in values(card, "photo"), f"PHOTO {values(card, 'photo')}")
    if entry.get("members") is not None:
        members = values(card, "member") + values(card, "x-addressbookserver-member")
        bare = [m[len("urn:uuid:"):] if m.lower().startswith("urn:uuid:") else m for m in members]
        check(bare == entry["members"], f"members {bare}")

    # Text values as vobject unescapes them: commas, semicolons, backslashes, line breaks.
    if entry.get("title"):
        check(entry["title"] in values(card, "title"), f"TITLE {values(card, 'title')}, not {entry['title']!r}")
    if entry.get("company") or entry.get("department"):
        organizations = [list(value) + ["", ""] for value in values(card, "org")]
        wanted = [entry.get("company") or "", entry.get("department") or ""]
        check(any(org[:2] == wanted for org in organizations), f"ORG {values(card, 'org')}, not {wanted}")
    if entry.get("bio"):
        check(entry["bio"] in values(card, "note"), f"NOTE {values(card, 'note')}, not {entry['bio']!r}")
    if entry.get("website"):
        check(entry["website"] in values(card, "url"), f"URL {values(card, 'url')}, not {entry['website']!r}")
    if entry.get("tags"):
        check(entry["tags"] in [list(value) for value in values(card, "categories")],
              f"CATEGORIES {values(card, 'categories')}, not {entry['tags']}")

    # Radicale stores what vobject serialises; it must read back the same.
    again = vobject.readOne(card.serialize())
    for name in ("fn", "email", "tel", "uid"):
        check(values(again, name) == values(card, name), f"{name} changed through vobject's serialize()")

    source = next((path for prefix, path in SOURCES.items() if entry["file"].startswith(prefix)), None)
    if source:
        original = vobject.readOne(source.read_bytes().decode("utf-8"))
        missing = x_properties(original) - x_properties(card)
        groups_left = {line.group for lines in card.contents.values() for line in lines if line.group}
        for name, group, value in sorted(missing, key=str):
            # Only the label of a group whose property the edit removed may go with it.
            check(group and group not in groups_left, f"{name.upper()} {value!r} (group {group}) was lost")

def main():
    try:
        import vobject  # noqa: F401
    except ImportError:
        print("interop-vcard-edit: vobject is missing: pip install -r scripts/requirements-interop.txt", file=sys.stderr)
        return 2
    manifest = json.loads((EDITED / "manifest.json").read_text(encoding="utf-8"))
    failures = 0
    for entry in manifest:
        try:
            check_file(entry)
        except CheckFailed as failure:
            failures += 1
            print(f"interop-vcard-edit: FAILED: {entry['file']}: {failure}", file=sys.stderr)
    if failures:
        return 1
    print(f"interop-vcard-edit: vobject reads our {len(manifest)} edited and new vCards as we do: OK")
    return 0


if __name__ == "__main__":
    sys.exit(main())
