#!/usr/bin/env python3
"""Renders photos of business cards from known fields, for `cardwallet scan`'s tests and bench.

    scripts/make-scan-cards.py --out DIR [--count N] [--seed S]

Writes DIR/card-001.jpg (or .png), … and DIR/truth.json: for every card, its file, the
fields printed on it under the card's field names (what a perfect scan returns), its layout,
fonts and the damage done to the photo. Card i depends only on (seed, i), so `--count 6` is a
prefix of `--count 60`. The images are made at test time and never committed; the seed below
is the one the tests and the benchmark use.

The cards vary the way real ones do: three layouts (left-aligned, centred, two columns with
labels), DejaVu Sans/Serif for Latin cards and Nanum Gothic/Myeongjo/Square for Korean ones,
phone numbers of eight countries with T/Tel/M/☎/전화 labels and extensions, domains ending in
anything the Public Suffix List holds (`.law`, `.photography`, `.co.jp`: scan_card_data.Endings),
tinted card stock and accent shapes. The photo is then turned slightly (±3°), blurred, saved as JPEG at quality
45–90 with noise, sometimes on a table with the card smaller in the frame, and sometimes
stored sideways with an EXIF orientation tag that says how to turn it upright.

Needs Pillow (scripts/requirements-scan.txt), the fonts of fonts-dejavu-core, fonts-nanum, and
Debian's publicsuffix (/usr/share/publicsuffix/public_suffix_list.dat).
"""

import argparse
import json
import os
import random
import sys

from PIL import Image, ImageDraw, ImageFilter, ImageFont

from scan_card_data import KOREAN, LATIN, CardEnding, Endings, make_fields

SEED = 20240518
DEJAVU = "/usr/share/fonts/truetype/dejavu/"
NANUM = "/usr/share/fonts/truetype/nanum/"
# (regular, bold) pairs; Latin cards use DejaVu, Korean cards Nanum (which also has Latin).
LATIN_FONTS = [
    ("DejaVuSans.ttf", "DejaVuSans-Bold.ttf"),
    ("DejaVuSerif.ttf", "DejaVuSerif-Bold.ttf"),
    ("DejaVuSansCondensed.ttf", "DejaVuSansCondensed-Bold.ttf"),
]
KOREAN_FONTS = [
    ("NanumGothic.ttf", "NanumGothicBold.ttf"),
    ("NanumMyeongjo.ttf", "NanumMyeongjoBold.ttf"),
    ("NanumSquareR.ttf", "NanumSquareB.ttf"),
    ("NanumBarunGothic.ttf", "NanumBarunGothicBold.ttf"),
]
CARD_W, CARD_H = 1050, 600  # 3.5 × 2 inches at 300 dpi
MARGIN = 20  # no text closer to the card's edge
LAYOUTS = ["left", "centred", "columns"]


def font_path(name):
    return (NANUM if name.startswith("Nanum") else DEJAVU) + name


class Card:
    """The text items of one card, placed by a layout, then drawn."""

    def __init__(self, rng, fonts):
        self.rng = rng
        self.regular, self.bold = fonts
        self.items = []  # (x, y, text, font, anchor)
        self.ink = rng.choice([(20, 20, 20), (25, 35, 70), (50, 50, 55), (60, 20, 20)])
        self.accent = rng.choice([(200, 60, 40), (30, 110, 170), (40, 140, 90), (120, 60, 150)])
        self.stock = rng.choice(
            [(255, 255, 255), (250, 247, 238), (236, 243, 250), (245, 238, 225), (238, 248, 238), (250, 240, 242)]
        )

    def font(self, size, bold=False):
        return ImageFont.truetype(font_path(self.bold if bold else self.regular), size)

    def text(self, x, y, text, size, bold=False, anchor="la"):
        font = self.font(size, bold)
        # A line too long for the card (a long domain in the right-hand column) is set smaller
        # until it fits within the card's margin, as a designer would.
        while size > 12 and not self.fits(x, text, font, anchor):
            size -= 1
            font = self.font(size, bold)
        self.items.append((x, y, text, font, anchor))
        box = font.getbbox(text, anchor=anchor)
        return y + (box[3] - box[1])

    @staticmethod
    def fits(x, text, font, anchor):
        left, _, right, _ = font.getbbox(text, anchor=anchor)
        return x + left >= MARGIN and x + right <= CARD_W - MARGIN

    def draw(self):
        image = Image.new("RGB", (CARD_W, CARD_H), self.stock)
        pen = ImageDraw.Draw(image)
        shape = self.rng.choice(["bar", "corner", "none", "rule"])
        if shape == "bar":
            pen.rectangle([0, 0, 22, CARD_H], fill=self.accent)
        elif shape == "corner":
            pen.polygon([(CARD_W - 150, 0), (CARD_W, 0), (CARD_W, 150)], fill=self.accent)
        elif shape == "rule":
            pen.rectangle([60, CARD_H - 40, CARD_W - 60, CARD_H - 36], fill=self.accent)
        for x, y, text, font, anchor in self.items:
            pen.text((x, y), text, font=font, fill=self.ink, anchor=anchor)
        return image


def contact_lines(rng, fields, korean, labelled):
    """Email, phones, website as the card prints them, each with a label when `labelled`."""
    lines = []
    # The phone lines as printed: label and number (with its extension), a mobile or fax now and then.
    phones = [f"{label}{number}" for label, number in fields.pop("_extras")]
    email_label = rng.choice(["E ", "E: ", "Email: "] + (["이메일 "] if korean else [])) if labelled else ""
    web_label = rng.choice(["W ", "Web: ", "W: "]) if labelled else ""
    lines += phones
    if "email" in fields:
        lines.append(email_label + fields["email"])
    if "_website_printed" in fields:
        lines.append(web_label + fields.pop("_website_printed"))
    rng.shuffle(lines)
    return lines


def head_lines(rng, fields):
    """Name, title, department, company: (text, size, bold)."""
    name_size = rng.randint(46, 60)
    rows = [(fields["name"], name_size, True)]
    if "title" in fields:
        rows.append((fields["title"], rng.randint(24, 30), False))
    if "department" in fields:
        rows.append((fields["department"], rng.randint(22, 26), False))
    return rows


def layout_left(card, rng, fields, korean):
    y = rng.randint(50, 80)
    x = rng.randint(60, 90)
    company_top = rng.random() < 0.5
    if company_top and "company" in fields:
        y = card.text(x, y, fields["company"], rng.randint(28, 34), bold=True) + 40
    for text, size, bold in head_lines(rng, fields):
        y = card.text(x, y, text, size, bold) + 14
    if not company_top and "company" in fields:
        y = card.text(x, y + 6, fields["company"], rng.randint(26, 30), bold=True) + 14
    y = max(y + 30, 330)
    lines = contact_lines(rng, fields, korean, labelled=rng.random() < 0.5) + address_lines(fields)
    size = 22 if len(lines) > 5 else 24
    for line in lines:
        y = card.text(x, y, line, size) + 12


def layout_centred(card, rng, fields, korean):
    mid = CARD_W // 2
    y = rng.randint(40, 60)
    if "company" in fields:
        y = card.text(mid, y, fields["company"], rng.randint(26, 32), bold=True, anchor="ma") + 50
    for text, size, bold in head_lines(rng, fields):
        y = card.text(mid, y, text, size, bold, anchor="ma") + 14
    y += 30
    lines = contact_lines(rng, fields, korean, labelled=rng.random() < 0.4) + address_lines(fields)
    size = 21 if len(lines) > 5 else 23
    for line in lines:
        y = card.text(mid, y, line, size, anchor="ma") + 11


def layout_columns(card, rng, fields, korean):
    x, y = rng.randint(50, 70), rng.randint(90, 140)
    for text, size, bold in head_lines(rng, fields):
        y = card.text(x, y, text, min(size, 46) if bold else size - 2, bold) + 14
    if "company" in fields:
        card.text(x, CARD_H - 90, fields["company"], 26, bold=True)
    right = 560
    y = rng.randint(100, 150)
    lines = contact_lines(rng, fields, korean, labelled=True) + address_lines(fields)
    for line in lines:
        y = card.text(right, y, line, 21) + 14


def address_lines(fields):
    """The address as printed: its lines, as given (the truth joins them with ", ")."""
    return list(fields.get("_address_lines", []))


def photograph(card_image, rng):
    """Turns a flat card into a photo: scale, table, rotation, blur, noise; returns (image, damage)."""
    damage = {}
    scale = rng.uniform(0.85, 1.4)
    image = card_image.resize((int(CARD_W * scale), int(CARD_H * scale)), Image.LANCZOS)
    if rng.random() < 0.3:
        table = rng.choice([(110, 90, 70), (70, 70, 75), (150, 150, 145), (40, 60, 50)])
        margin_x, margin_y = rng.randint(40, 160), rng.randint(40, 160)
        canvas = Image.new("RGB", (image.width + 2 * margin_x, image.height + 2 * margin_y), table)
        canvas.paste(image, (margin_x, margin_y))
        image = canvas
        damage["table"] = True
    if rng.random() < 0.4:
        # Uneven light: the photo darkens towards one side, as under a desk lamp.
        strength = rng.uniform(0.25, 0.45)
        ramp = Image.linear_gradient("L").resize(image.size)
        ramp = ramp.rotate(rng.choice([0, 90, 180, 270]))
        shade = ramp.point(lambda v: int(255 - strength * v))
        image = Image.composite(image, Image.new("RGB", image.size, (0, 0, 0)), shade)
        damage["shadow"] = round(strength, 2)
    angle = round(rng.uniform(-3, 3), 1)
    fill = image.getpixel((image.width // 2, image.height - 1))
    image = image.rotate(angle, resample=Image.BICUBIC, expand=True, fillcolor=fill)
    damage["rotation"] = angle
    blur = round(rng.uniform(0, 1.1), 2)
    if blur > 0.2:
        image = image.filter(ImageFilter.GaussianBlur(blur))
    damage["blur"] = blur
    if rng.random() < 0.5:
        noise = Image.effect_noise(image.size, rng.uniform(10, 30)).convert("RGB")
        image = Image.blend(image, noise, 0.06)
        damage["noise"] = True
    return image, damage


def save(image, path_base, rng, damage):
    """Saves as JPEG (quality 45–90, sometimes stored sideways with EXIF orientation) or PNG."""
    if rng.random() < 0.2:
        path = path_base + ".png"
        image.save(path)
        return path
    quality = rng.randint(45, 90)
    damage["jpegQuality"] = quality
    exif = Image.Exif()
    if rng.random() < 0.25:
        # Stored turned; the tag says how to turn it upright (6: 90° clockwise, 8: 90°
        # anticlockwise, 3: 180°), as a phone camera does.
        orientation = rng.choice([3, 6, 8])
        stored = {3: Image.Transpose.ROTATE_180, 6: Image.Transpose.ROTATE_90, 8: Image.Transpose.ROTATE_270}
        image = image.transpose(stored[orientation])
        exif[0x0112] = orientation
        damage["exifOrientation"] = orientation
    path = path_base + ".jpg"
    image.save(path, quality=quality, exif=exif)
    return path


def make_card(seed, index, endings):
    rng = random.Random(f"{seed}:{index}")
    korean = rng.random() < 0.3
    ending = CardEnding(endings, random.Random(f"{seed}:{index}:ending"))
    fields = make_fields(rng, KOREAN if korean else LATIN, ending)
    fonts = rng.choice(KOREAN_FONTS if korean else LATIN_FONTS)
    if "Serif" in fonts[0]:
        # DejaVu Serif has no ☎ or ✉: such a card spells the label out.
        fields["_extras"] = [("Tel " if label == "☎ " else label, number) for label, number in fields["_extras"]]
    layout = rng.choice(LAYOUTS)
    card = Card(rng, fonts)
    {"left": layout_left, "centred": layout_centred, "columns": layout_columns}[layout](card, rng, fields, korean)
    truth = {k: v for k, v in fields.items() if not k.startswith("_")}
    image, damage = photograph(card.draw(), rng)
    style = {"layout": layout, "font": fonts[0], "lang": "kor" if korean else "eng", "ending": ending.drawn}
    return truth, image, damage, style, rng


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", required=True, help="folder for the photos and truth.json (created)")
    parser.add_argument("--count", type=int, default=6, help="how many cards (default 6)")
    parser.add_argument("--seed", type=int, default=SEED, help=f"the seed (default {SEED}, the tests' one)")
    args = parser.parse_args()
    if args.count < 1 or args.count > 10_000:
        parser.error("--count must be 1–10000")
    os.makedirs(args.out, exist_ok=True)
    endings = Endings()
    cards = []
    for index in range(1, args.count + 1):
        truth, image, damage, style, rng = make_card(args.seed, index, endings)
        path = save(image, os.path.join(args.out, f"card-{index:03d}"), rng, damage)
        cards.append({"file": os.path.basename(path), "fields": truth, "damage": damage, **style})
    with open(os.path.join(args.out, "truth.json"), "w", encoding="utf-8") as out:
        json.dump({"seed": args.seed, "cards": cards}, out, ensure_ascii=False, indent=1)
    print(f"{len(cards)} cards in {args.out}", file=sys.stderr)


if __name__ == "__main__":
    main()
