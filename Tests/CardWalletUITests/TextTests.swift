import CardModels
import Testing

@testable import CardWalletUI

@Suite struct DisplayWidthTests {
    @Test(arguments: [
        ("a", 1), ("é", 1), ("e\u{301}", 1), ("한", 2), ("山", 2), ("中", 2), ("ア", 2), ("ｱ", 1),
        ("Ａ", 2), ("🦊", 2), ("👍🏽", 2), ("👨‍👩‍👧", 2), ("🇰🇷", 2), ("❤️", 2), ("❤", 1), ("1️⃣", 2),
        ("\u{1100}\u{1161}\u{11A8}", 2), ("…", 1), ("─", 1), ("\u{301}", 0), ("\u{200B}", 0),
    ])
    func characterWidths(text: String, width: Int) throws {
        let character = try #require(text.first)
        #expect(text.count == 1)
        #expect(DisplayWidth.of(character) == width)
    }

    @Test func stringWidthSumsGraphemes() {
        #expect(DisplayWidth.of("Kim 김민지") == 10)
        #expect(DisplayWidth.of("山田 太郎") == 9)
        #expect(DisplayWidth.of("Zoë 🦊 Fox") == 10)
        #expect(DisplayWidth.of("") == 0)
    }

    @Test func clustersOfSeveralLettersTakeACellPerLetter() throws {
        // प्रि is one grapheme (a conjunct: PA, VIRAMA, RA, VOWEL SIGN I) but three terminal
        // cells, as wcwidth counts it; curses cannot hold it in one, so it is split, not cut.
        let text = "\u{92A}\u{94D}\u{930}\u{93F}"
        #expect(text.count == 1)
        let conjunct = try #require(text.first)
        #expect(DisplayWidth.of(conjunct) == 3)
        var cells: [(String, Int)] = []
        DisplayWidth.forEachCell(of: conjunct) { cells.append((String($0), $1)) }
        #expect(cells.map(\.0) == ["\u{92A}\u{94D}", "\u{930}", "\u{93F}"])
        #expect(cells.map(\.1) == [1, 1, 1])
        #expect(DisplayWidth.of("प्रिया") == 5)
        // Thai SARA AM is a spacing character inside its syllable.
        #expect(DisplayWidth.of("\u{E01}\u{E33}") == 2)
        // Emoji sequences and Hangul jamo stay one cell.
        for text in ["👨‍👩‍👧", "👍🏽", "🇰🇷", "\u{1100}\u{1161}\u{11A8}", "e\u{301}"] {
            var count = 0
            let character = try #require(text.first)
            #expect(text.count == 1)
            DisplayWidth.forEachCell(of: character) { _, _ in count += 1 }
            #expect(count == 1, "\(text)")
        }
    }

    @Test func newerEmojiAreWideThroughTheStandardLibrary() {
        // U+1FAE8 SHAKING FACE (Unicode 15) is newer than the generated table.
        #expect(DisplayWidth.of(Character("\u{1FAE8}")) == 2)
    }
}

@Suite struct TerminalTextTests {
    @Test func plainTextIsUnchanged() {
        #expect(TerminalText.escaped("Kim Min-ji <kim@example.com>") == "Kim Min-ji <kim@example.com>")
        #expect(TerminalText.escaped("김민지 山田 🦊 👨‍👩‍👧 🇰🇷 e\u{301}") == "김민지 山田 🦊 👨‍👩‍👧 🇰🇷 e\u{301}")
    }

    @Test func controlsUseCaretNotation() {
        #expect(TerminalText.escaped("\u{1B}[2J") == "^[[2J")
        #expect(TerminalText.escaped("a\u{0}b\u{7}c\u{7F}") == "a^@b^Gc^?")
        #expect(TerminalText.escaped("line\r\nnext\ttab") == "line^M^Jnext^Itab")
    }

    @Test func oscClipboardWriteIsInert() {
        let escaped = TerminalText.escaped("\u{1B}]52;c;cm0gLXJmIC8=\u{07}")
        #expect(escaped == "^[]52;c;cm0gLXJmIC8=^G")
        #expect(escaped.unicodeScalars.allSatisfy { $0.value >= 0x20 && $0.value != 0x7F })
    }

    @Test func c1AndBidiAndInvisibleFormatCharactersAreEscaped() {
        #expect(TerminalText.escaped("\u{9B}31m") == "\\u{9B}31m")
        #expect(TerminalText.escaped("abc\u{202E}fdp.exe") == "abc\\u{202E}fdp.exe")
        #expect(TerminalText.escaped("\u{2066}x\u{2069}") == "\\u{2066}x\\u{2069}")
        #expect(TerminalText.escaped("a\u{200B}b\u{FEFF}\u{AD}") == "a\\u{200B}b\\u{FEFF}\\u{AD}")
        #expect(TerminalText.escaped("\u{200E}\u{200F}\u{61C}") == "\\u{200E}\\u{200F}\\u{61C}")
        #expect(TerminalText.escaped("a\u{2028}b") == "a\\u{2028}b")
    }

    @Test func loneMarksCannotAttachToTheCellBefore() {
        #expect(TerminalText.escaped("\u{301}mark") == "\\u{301}mark")
        #expect(TerminalText.escaped("\u{200D}") == "\\u{200D}")
        #expect(TerminalText.escaped("\u{1100}\u{0}\u{1161}") == "\u{1100}^@\\u{1161}")
    }

    @Test func escapingIsIdempotent() {
        for card in SampleCards.hostile {
            for text in [card.name, card.company ?? "", card.title ?? "", card.email ?? ""] {
                let once = TerminalText.escaped(text)
                #expect(TerminalText.escaped(once) == once)
            }
        }
    }
}

@Suite struct TextLayoutTests {
    @Test func clipsWithAnEllipsis() {
        #expect(TextLayout.clip("Globex Corporation", to: 10) == "Globex Co…")
        #expect(TextLayout.clip("short", to: 10) == "short")
        #expect(TextLayout.clip("exactly10!", to: 10) == "exactly10!")
        #expect(TextLayout.clip("abc", to: 1) == "…")
        #expect(TextLayout.clip("abc", to: 0) == "")
    }

    @Test func neverSplitsAWideCharacter() {
        // 김민지님 is 8 columns; at 6 the third character would end past column 5.
        #expect(TextLayout.clip("김민지님", to: 6) == "김민 …")
        #expect(TextLayout.clip("김민지님", to: 5) == "김민…")
        #expect(TextLayout.clip("김민지님", to: 8) == "김민지님")
        #expect(TextLayout.clip("a🦊b🦊", to: 5) == "a🦊b…")
        #expect(TextLayout.clip("ab🦊🦊", to: 5) == "ab🦊…")
        #expect(TextLayout.clip("ab🦊🦊", to: 4) == "ab …")
    }

    @Test func clipsTheStartForInputThatGrowsAtItsEnd() {
        #expect(TextLayout.clipLeading("a long filter query", to: 8) == "…r query")
        #expect(TextLayout.clipLeading("short", to: 8) == "short")
        #expect(TextLayout.clipLeading("김민지김민지", to: 6) == "…민지")
    }

    @Test func wrapsAtSpacesAndBreaksLongWords() {
        #expect(TextLayout.wrap("the quick brown fox", width: 10) == ["the quick", "brown fox"])
        #expect(TextLayout.wrap("abcdefghijkl", width: 5) == ["abcde", "fghij", "kl"])
        #expect(TextLayout.wrap("김민지김민지", width: 5) == ["김민", "지김", "민지"])
        #expect(TextLayout.wrap("", width: 5) == [""])
    }
}

@Suite struct GridDrawingTests {
    @Test func drawsWideCharactersAsTwoCells() {
        var grid = Grid(width: 6, height: 1)
        let used = grid.draw("김a", x: 0, y: 0)
        #expect(used == 3)
        #expect(grid[0, 0] == Cell("김", width: 2))
        #expect(grid[1, 0].width == 0)
        #expect(grid[2, 0] == Cell("a"))
        #expect(grid.text == "김a")
    }

    @Test func overwritingHalfAWideCharacterBlanksTheOtherHalf() {
        var grid = Grid(width: 6, height: 1)
        grid.draw("김민지", x: 0, y: 0)
        grid.draw("x", x: 1, y: 0)
        #expect(grid.text == " x민지")
        grid.draw("y", x: 2, y: 0)
        #expect(grid[3, 0] == Cell(" "))
        #expect(grid.text == " xy 지")
    }

    @Test func hostileTextReachesTheGridEscaped() {
        var grid = Grid(width: 40, height: 1)
        grid.draw("\u{1B}[2J\u{1B}]52;c;eA==\u{07}\u{202E}", x: 0, y: 0)
        #expect(grid.text == "^[[2J^[]52;c;eA==^G\\u{202E}")
        for x in 0..<grid.width {
            let scalars = grid[x, 0].character.unicodeScalars
            #expect(scalars.allSatisfy { $0.value >= 0x20 && !(0x7F...0x9F).contains($0.value) })
        }
    }

    @Test func aConjunctKeepsEveryLetterAndIsCutOnlyWhole() {
        var grid = Grid(width: 12, height: 1)
        #expect(grid.draw("(प्रिया)", x: 0, y: 0) == 7)
        #expect((0..<7).map { grid[$0, 0].width } == [1, 1, 1, 1, 1, 1, 1])
        #expect(grid.text == "(प्रिया)")
        // Four columns fit "a" and the cluster of three exactly; three do not: the cluster
        // goes whole, never a letter of it.
        var exact = Grid(width: 4, height: 1)
        exact.draw("aप्रि", x: 0, y: 0)
        #expect(exact.text == "aप्रि")
        var narrow = Grid(width: 3, height: 1)
        narrow.draw("aप्रि", x: 0, y: 0)
        #expect(narrow.text == "a …")
    }

    @Test func clipsAtTheRightEdge() {
        var grid = Grid(width: 5, height: 1)
        grid.draw("abcdefgh", x: 1, y: 0)
        #expect(grid.text == " abc…")
        grid.draw("김민지", x: 2, y: 0)
        #expect(grid.text == " a김…")
    }
}
