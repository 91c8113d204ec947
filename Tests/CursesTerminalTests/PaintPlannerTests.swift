import CNCurses
import CardWalletUI
import Testing

@testable import CursesTerminal

@Suite("Paint planning")
struct PaintPlannerTests {
    init() throws {
        try #require(TerminalLocale.ensureUTF8(), "wcwidth needs a UTF-8 locale")
    }

    private func plan(_ grid: Grid, from previous: Grid? = nil, columns: Int? = nil, rows: Int? = nil)
        -> [PaintOperation]
    {
        PaintPlanner.operations(
            for: grid.changes(from: previous), columns: columns ?? grid.width, rows: rows ?? grid.height,
            palette: .monochrome
        )
    }

    private func text(_ operations: [PaintOperation]) -> String {
        String(String.UnicodeScalarView(operations.flatMap { $0.text.compactMap(Unicode.Scalar.init) }))
    }

    @Test("A first frame writes every cell once, left to right, top to bottom")
    func firstFrame() {
        var grid = Grid(width: 4, height: 2)
        grid.write("ab", x: 0, y: 0)
        grid.write("cd", x: 2, y: 1)
        let operations = plan(grid)
        #expect(operations.count == 8)
        #expect(operations.map(\.x) == [0, 1, 2, 3, 0, 1, 2, 3])
        #expect(operations.map(\.y) == [0, 0, 0, 0, 1, 1, 1, 1])
        #expect(text(operations) == "ab    cd")
    }

    @Test("Only changed cells are written after the first frame")
    func onlyChanges() {
        var before = Grid(width: 10, height: 3)
        before.write("Hello", x: 0, y: 1)
        var after = before
        after.write("J", x: 0, y: 1)
        let operations = plan(after, from: before)
        #expect(
            operations == [
                PaintOperation(x: 0, y: 1, text: [0x4A], rendition: Palette.monochrome.rendition(for: .plain))
            ])
        #expect(plan(before, from: before).isEmpty)
    }

    @Test("A Devanagari conjunct drawn by the UI core is painted letter by letter, none lost")
    func conjunctCells() {
        // The UI core splits प्रिया (two graphemes) into the five cells wcwidth gives it.
        var grid = Grid(width: 7, height: 1)
        grid.draw("प्रिया", x: 0, y: 0)
        let operations = plan(grid)
        #expect(operations.map(\.x) == [0, 1, 2, 3, 4, 5, 6])
        #expect(text(operations) == "प्रिया  ")
        #expect(!operations.contains { $0.text == [0x3F] })
    }

    @Test("A wide character is one write; the cell it covers is skipped")
    func wideCharacters() {
        var grid = Grid(width: 6, height: 1)
        grid.write("한국a", x: 0, y: 0)
        let operations = plan(grid)
        #expect(operations.map(\.x) == [0, 2, 4, 5])
        #expect(text(operations) == "한국a ")
    }

    @Test("Changing the right half of a wide character rewrites the whole character")
    func rightHalfChange() {
        var before = Grid(width: 4, height: 1)
        before.write("한", x: 0, y: 0)
        var after = before
        after[1, 0] = Cell(" ", width: 0, style: Style(.bold))
        let operations = plan(after, from: before)
        #expect(operations.map(\.x) == [0])
        #expect(text(operations) == "한")
    }

    @Test(
        "Control characters never reach the terminal",
        arguments: [0x1B, 0x07, 0x00, 0x0A, 0x7F, 0x9B, 0x85] as [UInt32]
    )
    func controls(_ value: UInt32) throws {
        // Scalar values, not strings, so that the test log does not send them to a terminal.
        var grid = Grid(width: 1, height: 1)
        grid[0, 0] = Cell(Character(try #require(Unicode.Scalar(value))))
        #expect(plan(grid).map(\.text) == [[0x3F]])
        grid[0, 0] = Cell("\r\n")  // one Character of two controls
        #expect(plan(grid).map(\.text) == [[0x3F]])
    }

    @Test("A decomposed accent is sent as its base and combining mark")
    func decomposed() {
        #expect(
            PaintPlanner.glyph(for: "e\u{0301}", width: 1, displayWidth: PaintPlanner.systemDisplayWidth) == [
                0x65, 0x301,
            ])
    }

    @Test("A character whose width disagrees with its cell becomes ? or a full-width ？")
    func widthMismatch() {
        var grid = Grid(width: 4, height: 1)
        grid[0, 0] = Cell("한", width: 1)
        grid[1, 0] = Cell("a", width: 2)
        grid[2, 0] = Cell(" ", width: 0)
        grid[3, 0] = Cell("\u{200B}", width: 1)  // zero width space
        #expect(plan(grid).map(\.text) == [[0x3F], [0xFF1F], [0x3F]])
    }

    @Test("Combining marks stay with their base, at most four of them")
    func combiningMarks() {
        let overloaded = Character("a" + String(repeating: "\u{0301}", count: 6) as String)
        let glyph = PaintPlanner.glyph(
            for: overloaded, width: 1, displayWidth: PaintPlanner.systemDisplayWidth)
        #expect(glyph == [0x61, 0x301, 0x301, 0x301, 0x301])
    }

    @Test("Of an emoji sequence only the first emoji is sent: curses cannot hold the rest in one cell")
    func emojiSequence() {
        let family: Character = "👨‍👩‍👧"
        #expect(
            PaintPlanner.glyph(for: family, width: 2, displayWidth: PaintPlanner.systemDisplayWidth) == [
                0x1F468
            ])
        let thumbs: Character = "👍🏽"  // the skin tone modifier is a spacing character
        #expect(
            PaintPlanner.glyph(for: thumbs, width: 2, displayWidth: PaintPlanner.systemDisplayWidth) == [
                0x1F44D
            ])
        let heart: Character = "❤️"  // U+2764 U+FE0F: the variation selector is zero-width
        #expect(
            PaintPlanner.glyph(for: heart, width: 1, displayWidth: PaintPlanner.systemDisplayWidth) == [
                0x2764, 0xFE0F,
            ])
    }

    @Test("A wide character in the last column would wrap, so it becomes ?")
    func wideInLastColumn() {
        var grid = Grid(width: 3, height: 1)
        grid.write("ab", x: 0, y: 0)
        grid[2, 0] = Cell("한", width: 2)
        #expect(plan(grid).map(\.text) == [[0x61], [0x62], [0x3F]])
    }

    @Test("Cells outside the terminal are dropped")
    func clipping() {
        var grid = Grid(width: 5, height: 3)
        grid.write("abcde", x: 0, y: 0)
        grid.write("fghij", x: 0, y: 2)
        let operations = plan(grid, columns: 3, rows: 2)
        #expect(operations.allSatisfy { $0.x < 3 && $0.y < 2 })
        #expect(text(operations) == "abc   ")
    }

    @Test("Styles become renditions")
    func styles() {
        var grid = Grid(width: 2, height: 1)
        grid.write("x", x: 0, y: 0, style: Style(.reverse))
        grid.write("y", x: 1, y: 0, style: Style(.bold, color: .error))
        let palette = Palette(usesColor: true, colorCount: 256, usesDefaultBackground: true)
        let operations = PaintPlanner.operations(
            for: grid.changes(from: nil), columns: 2, rows: 1, palette: palette)
        #expect(
            operations.map(\.rendition) == [
                .init(attributes: cn_attr_reverse(), pair: 0), .init(attributes: cn_attr_bold(), pair: 2),
            ])
    }

    @Test("Terminfo padding is stripped from reset sequences")
    func padding() {
        #expect(TerminfoString.removingPadding(Array("\u{1B}[m$<2>".utf8)) == Array("\u{1B}[m".utf8))
        #expect(TerminfoString.removingPadding(Array("a$<5*/>b$<1>".utf8)) == Array("ab".utf8))
        #expect(TerminfoString.removingPadding(Array("$x$<".utf8)) == Array("$x$<".utf8))
    }
}
