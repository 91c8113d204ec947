import Foundation
import Testing

@testable import CardImages

/// Snapshots of the exact bytes each protocol writes, outside and inside tmux.
@Suite("Escape framing of each protocol")
struct FramingTests {
    private func text(_ bytes: [UInt8]) -> String {
        String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\u{1B}", with: "␛").replacingOccurrences(
            of: "\u{07}", with: "␇")
    }

    @Test("kitty: a plain placement, one chunk")
    func kittyPlacement() {
        let bytes = KittyEncoder.placement(
            png: [1, 2, 3], imageID: 7, cells: CellSize(columns: 4, rows: 2), tmux: false)
        #expect(text(bytes) == "␛_Ga=T,f=100,t=d,i=7,c=4,r=2,q=2;AQID␛\\")
    }

    @Test("kitty: the virtual placement for placeholders, outside and inside tmux")
    func kittyVirtual() {
        let plain = KittyEncoder.virtualPlacement(
            png: [1, 2, 3], imageID: 0x0A0B0C, cells: CellSize(columns: 3, rows: 1), tmux: false)
        #expect(text(plain) == "␛_Ga=T,U=1,f=100,t=d,i=658188,c=3,r=1,q=2;AQID␛\\")
        let wrapped = KittyEncoder.virtualPlacement(
            png: [1, 2, 3], imageID: 0x0A0B0C, cells: CellSize(columns: 3, rows: 1), tmux: true)
        #expect(text(wrapped) == "␛Ptmux;␛␛_Ga=T,U=1,f=100,t=d,i=658188,c=3,r=1,q=2;AQID␛␛\\␛\\")
    }

    @Test("kitty: payloads over 4096 base64 bytes go in chunks, m=1 then m=0, q=2 on each, each chunk wrapped in tmux")
    func kittyChunks() {
        let payload = [UInt8](repeating: 0xFF, count: 3072 + 3)  // 4096 + 4 base64 bytes
        let plain = text(
            KittyEncoder.placement(png: payload, imageID: 1, cells: CellSize(columns: 1, rows: 1), tmux: false))
        let chunks = plain.components(separatedBy: "␛\\").filter { !$0.isEmpty }
        #expect(chunks.count == 2)
        #expect(chunks[0].hasPrefix("␛_Ga=T,f=100,t=d,i=1,c=1,r=1,q=2,m=1;"))
        #expect(chunks[0].count == "␛_Ga=T,f=100,t=d,i=1,c=1,r=1,q=2,m=1;".count + 4096)
        #expect(chunks[1] == "␛_Gm=0,q=2;////")
        let wrapped = text(
            KittyEncoder.placement(png: payload, imageID: 1, cells: CellSize(columns: 1, rows: 1), tmux: true))
        #expect(wrapped.components(separatedBy: "␛Ptmux;").count == 3)
        #expect(wrapped.hasSuffix("␛Ptmux;␛␛_Gm=0,q=2;////␛␛\\␛\\"))
    }

    @Test("kitty: placeholder cells are U+10EEEE, the row's and column's diacritics, the id as foreground")
    func kittyPlaceholders() {
        let rows = KittyEncoder.placeholderCells(imageID: 0x123456, cells: CellSize(columns: 3, rows: 2))
        #expect(rows.count == 2 && rows.allSatisfy { $0.count == 3 })
        #expect(rows[0][0].character == "\u{10EEEE}\u{0305}\u{0305}")
        #expect(rows[0][2].character == "\u{10EEEE}\u{0305}\u{030E}")
        #expect(rows[1][1].character == "\u{10EEEE}\u{030D}\u{030D}")
        #expect(rows[1][1].foreground == .rgb(RGBColor(red: 0x12, green: 0x34, blue: 0x56)))
        #expect(rows[1][1].background == nil)
        #expect(
            ImageCell.text(of: [rows[0]])
                == "\u{1B}[38;2;18;52;86;49m\u{10EEEE}\u{0305}\u{0305}\u{10EEEE}\u{0305}\u{030D}\u{10EEEE}\u{0305}\u{030E}\u{1B}[0m\n"
        )
        #expect(KittyDiacritics.codePoints.count == 297)
        #expect(KittyDiacritics.codePoints.last == 0x1D244)
    }

    @Test("kitty: deleting an image")
    func kittyDelete() {
        #expect(text(KittyEncoder.delete(imageID: 9, tmux: false)) == "␛_Ga=d,d=I,i=9,q=2␛\\")
        #expect(text(KittyEncoder.delete(imageID: 9, tmux: true)) == "␛Ptmux;␛␛_Ga=d,d=I,i=9,q=2␛␛\\␛\\")
    }

    @Test("iTerm2: OSC 1337 with the file's size and the cells, outside and inside tmux")
    func iterm() {
        let plain = ITermEncoder.inline(file: [1, 2, 3], cells: CellSize(columns: 10, rows: 4), tmux: false)
        #expect(text(plain) == "␛]1337;File=inline=1;size=3;width=10;height=4;preserveAspectRatio=1:AQID␇")
        let wrapped = ITermEncoder.inline(file: [1, 2, 3], cells: CellSize(columns: 10, rows: 4), tmux: true)
        #expect(text(wrapped) == "␛Ptmux;␛␛]1337;File=inline=1;size=3;width=10;height=4;preserveAspectRatio=1:AQID␇␛\\")
    }

    @Test("sixel: header, raster attributes, palette, bands, runs; the same inside tmux (tmux draws it)")
    func sixel() throws {
        // 5 wide, 7 tall: a red row on top, the rest blue, so two bands.
        var image = RGBAImage(width: 5, height: 7, filledWith: TestImages.blue)
        for x in 0..<5 { image.setColor(TestImages.red, x: x, y: 0) }
        let expected = "␛P0;1;0q\"1;1;5;7#0;2;100;0;0#1;2;0;0;100#0!5@$#1!5}-#1!5@␛\\"
        #expect(text(SixelEncoder.encode(image)) == expected)
        let graphics = GraphicsChoice(imageProtocol: .sixel, tmux: true)
        #expect(
            text(
                try ImageRenderer.render(scaled: image, cells: CellSize(columns: 1, rows: 1), graphics: graphics)
                    .escapes) == expected)
    }

    @Test("sixel: a photo's many colours are cut to at most 256, and short runs are written out")
    func sixelManyColours() {
        let image = TestImages.gradient(width: 64, height: 64)
        let quantized = ColorQuantizer.quantize(image)
        #expect(quantized.palette.count == 256)
        #expect(quantized.indices.count == 64 * 64)
        let output = text(SixelEncoder.encode(image))
        #expect(output.hasPrefix("␛P0;1;0q\"1;1;64;64#0;2;"))
        #expect(output.components(separatedBy: "-").count == 11)  // 64 rows = 11 bands
        var runs = RGBAImage(width: 3, height: 1, filledWith: .white)
        runs.setColor(.black, x: 1, y: 0)
        #expect(text(SixelEncoder.encode(runs)) == "␛P0;1;0q\"1;1;3;1#0;2;100;100;100#1;2;0;0;0#0@?@$#1?@␛\\")
    }

    @Test("half blocks: ▀ with the upper pixel as foreground, the lower as background, in 24-bit and 256 colours")
    func halfBlocks() {
        let image = TestImages.quadrants(width: 2, height: 4)
        let cells = HalfBlockEncoder.cells(for: image, depth: .trueColor)
        #expect(cells.count == 2)
        #expect(
            cells[0][0] == ImageCell(character: "▀", foreground: .rgb(TestImages.red), background: .rgb(TestImages.red))
        )
        #expect(
            cells[1][1]
                == ImageCell(character: "▀", foreground: .rgb(TestImages.yellow), background: .rgb(TestImages.yellow)))
        #expect(
            ImageCell.text(of: cells)
                == "\u{1B}[38;2;255;0;0;48;2;255;0;0m▀\u{1B}[38;2;0;200;0;48;2;0;200;0m▀\u{1B}[0m\n"
                + "\u{1B}[38;2;0;0;255;48;2;0;0;255m▀\u{1B}[38;2;255;220;0;48;2;255;220;0m▀\u{1B}[0m\n")
        let palette = HalfBlockEncoder.cells(for: image, depth: .palette256)
        #expect(
            ImageCell.text(of: palette)
                == "\u{1B}[38;5;196;48;5;196m▀\u{1B}[38;5;40;48;5;40m▀\u{1B}[0m\n\u{1B}[38;5;21;48;5;21m▀\u{1B}[38;5;220;48;5;220m▀\u{1B}[0m\n"
        )
        let odd = HalfBlockEncoder.cells(for: RGBAImage(width: 1, height: 3, filledWith: .white), depth: .trueColor)
        #expect(odd[1][0].background == nil)
    }

    @Test("the 256-colour palette maps to the nearest cube or grey entry")
    func palette() {
        #expect(Palette256.nearest(.black) == 16)
        #expect(Palette256.nearest(.white) == 231)
        #expect(Palette256.nearest(RGBColor(red: 128, green: 128, blue: 128)) == 244)
        #expect(Palette256.nearest(RGBColor(red: 95, green: 135, blue: 175)) == 67)
        for index in 16...255 {
            #expect(
                Palette256.nearest(Palette256.color(UInt8(index))) == UInt8(index) || index == 16 || index == 231,
                "entry \(index)")
        }
    }

    @Test("tmux passthrough doubles every ESC")
    func passthrough() {
        #expect(
            TmuxPassthrough.wrap(Array("\u{1B}[1m\u{1B}x".utf8))
                == Array("\u{1B}Ptmux;\u{1B}\u{1B}[1m\u{1B}\u{1B}x\u{1B}\\".utf8))
    }
}
