#!/usr/bin/env python3
"""Checks CardImages' output with decoders we did not write (issue 16).

- sixel: libsixel's sixel2png (Debian libsixel-bin) decodes our sixel; size and colours must
  match the source image.
- kitty and iTerm2: the base64 payloads are taken out of the escape sequences (and out of
  tmux's passthrough) and decoded by Pillow; size and colours must match.
- half blocks: the SGR text is turned back into pixels; colours must match.
- QR codes: zxing-cpp reads the PNG, the half-block text (rasterised as a terminal would draw
  it, plain and --invert) and the colour cells back to the exact text, Korean included.
- decoding: JPEGs written by Pillow (a peer encoder) with every EXIF orientation decode upright;
  corrupt, truncated and huge files give a one-line error, never a crash.

Drives the `cardimages-tool` test helper (`swift build` builds it). Pinned peers:
scripts/requirements-images.txt. Prints `N passed, M failed` and exits non-zero on a failure.
"""

import base64
import io
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile
import zlib

from PIL import Image, ImageDraw
import zxingcpp

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
TOOL = os.environ.get("CARDIMAGES_TOOL", os.path.join(ROOT, ".build", "debug", "cardimages-tool"))
RED, GREEN, BLUE, YELLOW = (255, 0, 0), (0, 200, 0), (0, 0, 255), (255, 220, 0)

results = {"passed": 0, "failed": 0}


def check(name, condition, detail=""):
    if condition:
        results["passed"] += 1
        print(f"ok   {name}")
    else:
        results["failed"] += 1
        print(f"FAIL {name} {detail}")


def tool(*arguments, stdin=None):
    return subprocess.run([TOOL, *arguments], capture_output=True, input=stdin, timeout=120)


def quadrants(width, height):
    image = Image.new("RGB", (width, height))
    draw = ImageDraw.Draw(image)
    draw.rectangle([0, 0, width // 2 - 1, height // 2 - 1], fill=RED)
    draw.rectangle([width // 2, 0, width - 1, height // 2 - 1], fill=GREEN)
    draw.rectangle([0, height // 2, width // 2 - 1, height - 1], fill=BLUE)
    draw.rectangle([width // 2, height // 2, width - 1, height - 1], fill=YELLOW)
    return image


def photo(width, height):
    """Smooth gradients and a disc: many colours, like a photo."""
    image = Image.new("RGB", (width, height))
    pixels = image.load()
    for y in range(height):
        for x in range(width):
            pixels[x, y] = (x * 255 // (width - 1), y * 255 // (height - 1), (x + y) * 255 // (width + height))
    ImageDraw.Draw(image).ellipse([width // 4, height // 4, width * 3 // 4, height * 3 // 4], fill=(240, 240, 240))
    return image


def close(a, b, tolerance):
    return all(abs(x - y) <= tolerance for x, y in zip(a[:3], b[:3]))


def mean_error(a, b):
    """Mean absolute channel difference of two same-size RGB images."""
    a, b = a.convert("RGB").tobytes(), b.convert("RGB").tobytes()
    return sum(abs(p - q) for p, q in zip(a, b)) / len(a)


def rendered_size(stderr):
    match = re.search(rb"cells (\d+)x(\d+) pixels (\d+)x(\d+)", stderr)
    return tuple(int(group) for group in match.groups()) if match else None


def unwrap_tmux(data):
    """The sequences inside tmux passthrough wrappers, ESCs undoubled; what is outside the
    wrappers is dropped. Inside, ESC ESC is one ESC and a lone ESC \\ ends the wrapper."""
    out = b""
    start = data.find(b"\x1bPtmux;")
    while start >= 0:
        i = start + len(b"\x1bPtmux;")
        while i < len(data):
            if data[i:i + 2] == b"\x1b\x1b":
                out += b"\x1b"
                i += 2
            elif data[i:i + 2] == b"\x1b\\":
                i += 2
                break
            else:
                out += data[i:i + 1]
                i += 1
        start = data.find(b"\x1bPtmux;", i)
    return out


def quadrant_colours(image):
    w, h = image.size
    rgb = image.convert("RGB")
    return [rgb.getpixel((w // 4, h // 4)), rgb.getpixel((w * 3 // 4, h // 4)),
            rgb.getpixel((w // 4, h * 3 // 4)), rgb.getpixel((w * 3 // 4, h * 3 // 4))]


def check_sixel(folder):
    for tmux in (False, True):
        path = os.path.join(folder, "quad.png")
        quadrants(320, 200).save(path)
        run = tool("render", path, "--protocol", "sixel", "--columns", "16", "--cell", "10x20", *(["--tmux"] if tmux else []))
        check(f"sixel{' in tmux' if tmux else ''}: rendered", run.returncode == 0, run.stderr)
        check(f"sixel{' in tmux' if tmux else ''}: not wrapped (tmux draws sixel itself)", run.stdout.startswith(b"\x1bP0;1;0q"))
        six = os.path.join(folder, "out.six")
        with open(six, "wb") as handle:
            handle.write(run.stdout)
        decoded_path = os.path.join(folder, "out-six.png")
        subprocess.run(["sixel2png", "-i", six, "-o", decoded_path], check=True, timeout=60)
        decoded = Image.open(decoded_path)
        expected = rendered_size(run.stderr)
        check("sixel: sixel2png's size is ours", decoded.size == (expected[2], expected[3]), f"{decoded.size} vs {expected}")
        colours = quadrant_colours(decoded)
        check("sixel: quadrant colours survive", all(close(c, e, 4) for c, e in zip(colours, [RED, GREEN, BLUE, YELLOW])), colours)
    path = os.path.join(folder, "photo.jpg")
    source = photo(480, 320)
    source.save(path, quality=95)
    run = tool("render", path, "--protocol", "sixel", "--columns", "30", "--cell", "10x20")
    six = os.path.join(folder, "photo.six")
    with open(six, "wb") as handle:
        handle.write(run.stdout)
    subprocess.run(["sixel2png", "-i", six, "-o", os.path.join(folder, "photo-six.png")], check=True, timeout=60)
    decoded = Image.open(os.path.join(folder, "photo-six.png"))
    reference = source.resize(decoded.size, Image.BOX)
    error = mean_error(decoded, reference)
    check("sixel: a photo's 256-colour rendering stays close to the source", error < 6, f"mean error {error:.2f}")


def kitty_payload(stream):
    chunks = re.findall(rb"\x1b_G([^;]*);([^\x1b]*)\x1b\\", stream)
    return chunks, base64.b64decode(b"".join(payload for _, payload in chunks))


def check_kitty(folder):
    path = os.path.join(folder, "kitty.png")
    source = photo(640, 400)
    ImageDraw.Draw(source).rectangle([0, 0, 63, 63], fill=RED)
    source.save(path)
    for tmux in (False, True):
        label = "kitty" + (" in tmux" if tmux else "")
        run = tool("render", path, "--protocol", "kitty", "--columns", "40", "--cell", "10x20", "--id", "4660", "--cursor",
                   *(["--tmux"] if tmux else []))
        check(f"{label}: rendered", run.returncode == 0, run.stderr)
        stream = unwrap_tmux(run.stdout) if tmux else run.stdout
        chunks, png = kitty_payload(stream)
        check(f"{label}: several chunks, m=1 then m=0", len(chunks) > 1 and chunks[0][0].endswith(b"m=1") and chunks[-1][0].startswith(b"m=0"),
              [c[0] for c in chunks[:2]])
        keys = dict(item.split(b"=") for item in chunks[0][0].split(b","))
        expected = rendered_size(run.stderr)
        check(f"{label}: keys", keys[b"f"] == b"100" and keys[b"i"] == b"4660" and keys[b"c"] == str(expected[0]).encode()
              and keys[b"r"] == str(expected[1]).encode() and (keys.get(b"U") == b"1") == tmux, keys)
        image = Image.open(io.BytesIO(png))
        check(f"{label}: Pillow decodes the payload at our size", image.size == (expected[2], expected[3]), image.size)
        error = mean_error(image, source.resize(image.size, Image.BOX))
        check(f"{label}: colours match the source", error < 2 and close(image.convert("RGB").getpixel((1, 1)), RED, 2), f"mean error {error:.2f}")
        if tmux:
            text = run.stdout.decode("utf-8")
            placeholders = text.count("\U0010EEEE")
            check("kitty in tmux: placeholder cells follow", placeholders == expected[0] * expected[1], placeholders)
            check("kitty in tmux: their colour is the image id", "\x1b[38;2;0;18;52;49m\U0010EEEE" in text)


def check_iterm(folder):
    path = os.path.join(folder, "photo.jpg")
    source = photo(300, 200)
    source.save(path, quality=95)
    for tmux in (False, True):
        label = "iTerm2" + (" in tmux" if tmux else "")
        run = tool("render", path, "--protocol", "iterm", "--columns", "20", "--cell", "10x20", *(["--tmux"] if tmux else []))
        stream = unwrap_tmux(run.stdout) if tmux else run.stdout
        match = re.fullmatch(rb"\x1b\]1337;File=([^:]*):([A-Za-z0-9+/=]*)\x07", stream)
        check(f"{label}: one OSC 1337", match is not None, stream[:60])
        if not match:
            continue
        arguments = dict(item.split(b"=") for item in match.group(1).split(b";"))
        data = base64.b64decode(match.group(2))
        expected = rendered_size(run.stderr)
        check(f"{label}: size= is the file's length", int(arguments[b"size"]) == len(data))
        check(f"{label}: width and height are the cells", (int(arguments[b"width"]), int(arguments[b"height"])) == expected[:2])
        image = Image.open(io.BytesIO(data))
        check(f"{label}: Pillow decodes it at our size", image.size == (expected[2], expected[3]), image.size)
        error = mean_error(image, source.resize(image.size, Image.BOX))
        check(f"{label}: colours match the source", error < 4, f"mean error {error:.2f}")


def cells_from_sgr(text):
    """Rows of (character, fg, bg) from our SGR text (24-bit or 256 colours)."""
    rows = []
    for line in text.split("\n")[:-1]:
        fg = bg = None
        row = []
        for match in re.finditer(r"\x1b\[([0-9;]*)m|([^\x1b])", line):
            if match.group(2) is not None:
                row.append((match.group(2), fg, bg))
                continue
            numbers = [int(n) for n in match.group(1).split(";") if n]
            i = 0
            while i < len(numbers):
                n = numbers[i]
                if n in (38, 48) and numbers[i + 1] == 2:
                    colour = tuple(numbers[i + 2:i + 5])
                    i += 5
                elif n in (38, 48) and numbers[i + 1] == 5:
                    colour = xterm256(numbers[i + 2])
                    i += 3
                else:
                    if n in (0, 39):
                        fg = None
                    if n in (0, 49):
                        bg = None
                    i += 1
                    continue
                if n == 38:
                    fg = colour
                else:
                    bg = colour
        rows.append(row)
    return rows


def xterm256(index):
    if index >= 232:
        gray = 8 + (index - 232) * 10
        return (gray, gray, gray)
    levels = [0, 95, 135, 175, 215, 255]
    cube = index - 16
    return (levels[cube // 36], levels[cube // 6 % 6], levels[cube % 6])


def check_blocks(folder):
    path = os.path.join(folder, "photo.png")
    source = photo(200, 100)
    source.save(path)
    for name, tolerance in (("blocks", 4), ("blocks256", 26)):
        run = tool("render", path, "--protocol", name, "--columns", "40")
        rows = cells_from_sgr(run.stdout.decode("utf-8"))
        expected = rendered_size(run.stderr)
        check(f"{name}: rows × columns of ▀", len(rows) == expected[1] and all(len(r) == expected[0] and all(c == "▀" for c, _, _ in r) for r in rows))
        image = Image.new("RGB", (expected[0], expected[1] * 2))
        for y, row in enumerate(rows):
            for x, (_, fg, bg) in enumerate(row):
                image.putpixel((x, 2 * y), fg)
                image.putpixel((x, 2 * y + 1), bg)
        error = mean_error(image, source.resize(image.size, Image.BOX))
        check(f"{name}: the cells' colours are the picture", error < tolerance, f"mean error {error:.2f}")


def raster_text(text, inverted=False, module=6):
    """Draws half-block text as a terminal with a dark background would: ink is light."""
    lines = text.split("\n")[:-1]
    width = max(len(line) for line in lines)
    ink, paper = (0, 0, 0) if inverted else (255, 255, 255), (255, 255, 255) if inverted else (0, 0, 0)
    image = Image.new("RGB", (width * module, len(lines) * 2 * module), paper)
    draw = ImageDraw.Draw(image)
    for y, line in enumerate(lines):
        for x, character in enumerate(line):
            upper = character in "█▀"
            lower = character in "█▄"
            if upper:
                draw.rectangle([x * module, 2 * y * module, (x + 1) * module - 1, (2 * y + 1) * module - 1], fill=ink)
            if lower:
                draw.rectangle([x * module, (2 * y + 1) * module, (x + 1) * module - 1, (2 * y + 2) * module - 1], fill=ink)
    return image


def raster_cells(rows, module=6):
    image = Image.new("RGB", (len(rows[0]) * module, len(rows) * 2 * module))
    draw = ImageDraw.Draw(image)
    for y, row in enumerate(rows):
        for x, (_, fg, bg) in enumerate(row):
            draw.rectangle([x * module, 2 * y * module, (x + 1) * module - 1, (2 * y + 1) * module - 1], fill=fg)
            draw.rectangle([x * module, (2 * y + 1) * module, (x + 1) * module - 1, (2 * y + 2) * module - 1], fill=bg)
    return image


def read_qr(image):
    found = zxingcpp.read_barcodes(image)
    return found[0].text if found else None


def check_qr(folder):
    texts = {
        "ascii": "HELLO, CardWallet",
        "korean vCard": "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:김민준\r\nN:김;민준;;;\r\nORG:서울데이터랩\r\nTITLE:백엔드 개발자\r\n"
                        "EMAIL:minjun.kim@seoul-data.example\r\nTEL:+82 2 555 0199\r\nEND:VCARD\r\n",
    }
    for name, text in texts.items():
        source = os.path.join(folder, "qr.txt")
        with open(source, "w", encoding="utf-8") as handle:
            handle.write(text)
        png = os.path.join(folder, "qr.png")
        run = tool("qr", "--text-file", source, "--png", png)
        check(f"QR {name}: encoded", run.returncode == 0, run.stderr)
        check(f"QR {name}: zxing reads the PNG back exactly", read_qr(Image.open(png)) == text)
        plain = tool("qr", "--text-file", source).stdout.decode("utf-8")
        check(f"QR {name}: zxing reads the half-block text back exactly", read_qr(raster_text(plain)) == text)
        inverted = tool("qr", "--text-file", source, "--invert").stdout.decode("utf-8")
        check(f"QR {name}: and the --invert text on a light background", read_qr(raster_text(inverted, inverted=True)) == text)
        cells = cells_from_sgr(tool("qr", "--text-file", source, "--cells").stdout.decode("utf-8"))
        check(f"QR {name}: and the colour cells", read_qr(raster_cells(cells)) == text)
    run = tool("qr", "--text", "x" * 3000, "--level", "H")
    check("QR: text too long is a clear error", run.returncode == 1 and b"more than a QR code holds" in run.stderr, run.stderr)


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def check_decoding(folder):
    # Pillow writes the JPEGs, with each EXIF orientation; the upright top-left must be red.
    stored = quadrants(64, 32)
    turns = {1: RED, 2: GREEN, 3: YELLOW, 4: BLUE, 5: RED, 6: BLUE, 7: YELLOW, 8: GREEN}
    for orientation, top_left in turns.items():
        path = os.path.join(folder, f"o{orientation}.jpg")
        exif = Image.Exif()
        exif[0x0112] = orientation
        stored.save(path, quality=95, exif=exif.tobytes())
        out = os.path.join(folder, f"o{orientation}.png")
        run = tool("decode", path, "--png", out)
        upright = Image.open(out).convert("RGB")
        size = (32, 64) if orientation >= 5 else (64, 32)
        check(f"EXIF orientation {orientation}: upright size and corner", upright.size == size and close(upright.getpixel((3, 3)), top_left, 24),
              (upright.size, upright.getpixel((3, 3))))
    good = io.BytesIO()
    photo(200, 150).save(good, "JPEG", quality=90)
    jpeg = good.getvalue()
    good = io.BytesIO()
    photo(200, 150).save(good, "PNG")
    png = good.getvalue()
    ihdr = struct.pack(">IIBBBBB", 200000, 200000, 8, 2, 0, 0, 0)
    huge = b"\x89PNG\r\n\x1a\n" + png_chunk(b"IHDR", ihdr) + png_chunk(b"IDAT", zlib.compress(b"\x00" * 64)) + png_chunk(b"IEND", b"")
    bad = {
        "truncated JPEG": jpeg[: len(jpeg) // 2],
        "truncated PNG": png[: len(png) // 2],
        "corrupt JPEG": jpeg[:600] + bytes(range(256)) * 8 + jpeg[2648:],
        "corrupt PNG (bad CRC)": png[:40] + bytes([png[40] ^ 0xFF]) + png[41:],
        "huge PNG header": huge,
        "not an image": b"GIF89a" + bytes(100),
        "empty": b"",
    }
    for name, data in bad.items():
        path = os.path.join(folder, "bad.bin")
        with open(path, "wb") as handle:
            handle.write(data)
        run = tool("decode", path)
        message = run.stderr.decode("utf-8", "replace")
        clear = message.startswith(("cardimages-tool: The image", "cardimages-tool: The JPEG", "cardimages-tool: The PNG"))
        check(f"{name}: one clear line, exit 1, no crash", run.returncode == 1 and message.count("\n") == 1 and clear,
              f"{run.returncode} {message!r}")


def main():
    if not os.access(TOOL, os.X_OK):
        print(f"image-peers: {TOOL} is missing; run swift build first", file=sys.stderr)
        return 2
    if shutil.which("sixel2png") is None:
        print("image-peers: sixel2png is missing (Debian libsixel-bin; scripts/bootstrap installs it)", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="image-peers-") as folder:
        check_sixel(folder)
        check_kitty(folder)
        check_iterm(folder)
        check_blocks(folder)
        check_qr(folder)
        check_decoding(folder)
    print(f"image-peers: {results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
