import Testing

@testable import CardImages

@Suite("QR codes")
struct QRCodeTests {
    /// The 7×7 finder pattern: a dark ring, a light ring, a dark 3×3 centre.
    private func hasFinder(_ code: QRCode, x: Int, y: Int) -> Bool {
        (0..<7).allSatisfy { dy in
            (0..<7).allSatisfy { dx in
                let ring = min(dx, dy, 6 - dx, 6 - dy)
                return code.isDark(x: x + dx, y: y + dy) == (ring != 1)
            }
        }
    }

    @Test("a short text is a version 1 symbol with its three finder patterns")
    func structure() throws {
        let code = try QRCode(text: "HELLO")
        #expect(code.version == 1 && code.size == 21)
        #expect(hasFinder(code, x: 0, y: 0) && hasFinder(code, x: 14, y: 0) && hasFinder(code, x: 0, y: 14))
        #expect(code.requiredCells == CellSize(columns: 29, rows: 15))
        #expect(!code.isDark(x: -1, y: 0) && !code.isDark(x: 21, y: 21))
    }

    @Test("Korean text is encoded as UTF-8 bytes: 3 bytes a syllable decide the version")
    func korean() throws {
        let code = try QRCode(text: String(repeating: "김민준", count: 10), level: .medium)
        // 90 bytes in byte mode at level M needs version 5 (capacity 84 → 6: 106).
        #expect(code.version == 6)
    }

    @Test("text longer than version 40 holds is a clear error; empty text too")
    func tooLong() {
        #expect(throws: QRCode.EncodeError.tooLong(bytes: 3000, level: .high)) {
            _ = try QRCode(text: String(repeating: "x", count: 3000), level: .high)
        }
        #expect(throws: QRCode.EncodeError.empty) { _ = try QRCode(text: "") }
        #expect(
            QRCode.EncodeError.tooLong(bytes: 3000, level: .high).description
                == "The text is 3000 bytes, more than a QR code holds at error-correction level H.")
    }

    @Test("half-block text: light modules are ink (as qrencode -t UTF8), 4 quiet modules, two rows a line")
    func halfBlockText() throws {
        let code = try QRCode(text: "HELLO")
        let lines = code.halfBlockText().split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.count == 15)
        #expect(lines.allSatisfy { $0.count == 29 })
        // Rows 0–3 are quiet (light): two lines of full blocks.
        #expect(lines[0] == Substring(String(repeating: "█", count: 29)) && lines[1] == lines[0])
        // Line 2 holds module rows 4 and 5: the finder's dark top edge over its dark/light row.
        #expect(lines[2].hasPrefix("████ ▄▄▄▄▄ █"))
        // The last line pairs the last quiet row with the padding row: both light.
        #expect(lines[14] == lines[0])
        let inverted = code.halfBlockText(inverted: true).split(separator: "\n").map(String.init)
        #expect(inverted[0] == String(repeating: " ", count: 29))
        #expect(inverted[2].hasPrefix("    █▀▀▀▀▀█ "))
    }

    @Test("cells: explicit black on white, quiet zone included, in 24-bit or 256 colours")
    func cells() throws {
        let code = try QRCode(text: "HELLO")
        let rows = code.cells()
        #expect(rows.count == 15 && rows.allSatisfy { $0.count == 29 })
        #expect(rows[0][0] == ImageCell(character: "▀", foreground: .rgb(.white), background: .rgb(.white)))
        // Module row 4 (finder top, dark) over row 5 (finder: dark edge at x 4).
        #expect(rows[2][4] == ImageCell(character: "▀", foreground: .rgb(.black), background: .rgb(.black)))
        #expect(rows[2][5] == ImageCell(character: "▀", foreground: .rgb(.black), background: .rgb(.white)))
        #expect(
            code.cells(depth: .palette256)[2][5]
                == ImageCell(character: "▀", foreground: .indexed(16), background: .indexed(231)))
    }

    @Test("the PNG has scale pixels a module, the quiet zone white, the modules black")
    func png() throws {
        let code = try QRCode(text: "HELLO")
        let image = try ImageDecoder.decode(try code.png(scale: 4))
        #expect(image.size == PixelSize(width: 116, height: 116))
        #expect(image.color(x: 0, y: 0) == .white)
        #expect(image.color(x: 15, y: 15) == .white)
        #expect(image.color(x: 16, y: 16) == .black)
        #expect(image.color(x: 16 + 4 * 21, y: 16) == .white)
    }
}
