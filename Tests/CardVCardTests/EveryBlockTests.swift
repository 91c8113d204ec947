import CardModels
import CardVCard
import Foundation
import Testing

/// Issue 30's rule: every block of the input is either a card or a problem at its line, and
/// what stands outside the cards (more than white space and byte-order marks) is a warning.
/// Stray bytes, orphaned blocks and a damaged first card never cost the cards around them.
@Suite struct EveryBlockTests {
    static let ada = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada\r\nEMAIL:ada@example.com\r\nEND:VCARD\r\n"
    static let grace = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Grace\r\nEND:VCARD\r\n"

    static func read(_ bytes: [UInt8]) -> (cards: [VCard], problems: [VCardProblem], warnings: [VCardProblem]) {
        var reader = VCardReader(bytes: bytes)
        let result = reader.all()
        #expect(reader.refusal == nil)
        #expect(reader.statistics.blocks == result.cards.count + result.problems.count)
        return result
    }

    static func names(_ cards: [VCard]) -> [String] {
        cards.map { $0.properties.first { $0.key == "FN" }?.text ?? "" }
    }

    @Test func exportsJoinedWithTheirByteOrderMarks() {
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let joined = bom + Array(Self.ada.utf8) + bom + Array(Self.grace.utf8) + bom + Array(Self.ada.utf8)
        let result = Self.read(joined)
        #expect(Self.names(result.cards) == ["Ada", "Grace", "Ada"])
        // A byte-order mark is not worth a word.
        #expect(result.problems.isEmpty && result.warnings.isEmpty)
    }

    @Test func aNULBeforeBEGINIsReportedAndTheCardRead() {
        let result = Self.read(Array(Self.ada.utf8) + [0] + Array(Self.grace.utf8))
        #expect(Self.names(result.cards) == ["Ada", "Grace"])
        #expect(result.problems.isEmpty)
        #expect(
            result.warnings.map(\.description) == ["line 6: stray byte before BEGIN:VCARD on its line, ignored: “·”"])
    }

    @Test func anOrphanedBlockIsASkippedCardAtItsLine() {
        let orphan = "FN:Orphan\r\nEMAIL:orphan@example.com\r\nEND:VCARD\r\n"
        var reader = VCardReader(bytes: Array((Self.ada + orphan + Self.grace).utf8))
        let result = reader.all()
        #expect(Self.names(result.cards) == ["Ada", "Grace"])
        #expect(
            result.problems.map(\.description) == [
                "line 6: a card without its BEGIN:VCARD (lines 6–8), skipped: “FN:Orphan”"
            ])
        #expect(reader.statistics.orphans == 1 && reader.statistics.blocks == 3)
        // A second END after a card is no card lost: a warning.
        let twice = Self.read(Array((Self.ada + "END:VCARD\r\n" + Self.grace).utf8))
        #expect(Self.names(twice.cards) == ["Ada", "Grace"] && twice.problems.isEmpty)
        #expect(twice.warnings.map(\.description) == ["line 6: END:VCARD without a card before it, ignored"])
    }

    @Test func aDamagedFirstCardCostsOnlyItself() {
        // Its BEGIN line broken by a flipped byte and a NUL, as in the issue.
        let damaged = "BEGIN:VC\u{0}AXD\r\nVERSION:3.0\r\nFN:Damaged\r\nEND:VCARD\r\n"
        let result = Self.read(Array((damaged + Self.ada + Self.grace).utf8))
        #expect(Self.names(result.cards) == ["Ada", "Grace"])
        #expect(result.problems.map(\.line) == [1])
        #expect(result.problems.first?.message.hasPrefix("a card without its BEGIN:VCARD (lines 1–4)") == true)
    }

    @Test func aFileWhoseOnlyCardIsBrokenGetsTheRealReason() {
        // A line that is not a property costs that line: the card comes in, said at the line.
        let document = VCardDocument.read("BEGIN:VCARD\nFN:Alone\nthis is not a property\nEND:VCARD\n")
        #expect(document.refusal == nil && document.cards.map(\.fields.name) == ["Alone"] && document.skipped == 0)
        #expect(
            document.cards.first?.warnings.map(\.description) == [
                "line 3: not a vCard property line (NAME:value): “this is not a property”: the card comes in without it"
            ])
        // A card that is nothing but such lines is skipped with the first reason.
        let garbage = VCardDocument.read("BEGIN:VCARD\nthis is not a property\nnor this\nEND:VCARD\n")
        #expect(garbage.refusal == nil && garbage.cards.isEmpty && garbage.skipped == 1)
        #expect(
            garbage.problems.map(\.description) == [
                "line 2: not a vCard property line (NAME:value): “this is not a property”"
            ])
        let many = (1...1_001).map { "X-P\($0):v" }.joined(separator: "\n")
        let crowded = VCardDocument.read("BEGIN:VCARD\nFN:Crowded\n\(many)\nEND:VCARD\n")
        #expect(crowded.refusal == nil)
        #expect(crowded.problems.map(\.description) == ["line 1002: the card has more than 1000 properties"])
    }

    @Test(arguments: [String.Encoding.utf16LittleEndian, .utf16BigEndian])
    func utf16WithoutAByteOrderMark(encoding: String.Encoding) throws {
        let bytes = [UInt8](try #require((Self.ada + "BEGIN:VCARD\r\nFN:김민지\r\nEND:VCARD\r\n").data(using: encoding)))
        for source in [VCardReader(bytes: bytes), VCardReader(source: ChunkedSource(bytes, size: 3))] {
            var reader = source
            let result = reader.all()
            #expect(Self.names(result.cards) == ["Ada", "김민지"])
            #expect(result.problems.isEmpty && result.warnings.isEmpty)
        }
    }

    @Test func aUTF16FileWithAStrayLastByteIsReadAndTheByteReported() throws {
        let text = Self.ada + Self.grace
        let bytes = [0xFF, 0xFE] + [UInt8](try #require(text.data(using: .utf16LittleEndian))) + [0x0A]
        for size in [1, 2, 7, 1 << 16] {
            var reader = VCardReader(source: ChunkedSource(bytes, size: size))
            let result = reader.all()
            #expect(Self.names(result.cards) == ["Ada", "Grace"], "chunks of \(size)")
            #expect(
                result.warnings.map(\.description) == [
                    "line 9: the UTF-16 file ends with a stray byte (half a character), ignored"
                ])
        }
        // Half a surrogate pair: the character is U+FFFD, and said.
        var units = Array("BEGIN:VCARD\r\nFN:A".utf16) + [0xD83D] + Array("B\r\nEND:VCARD\r\n".utf16)
        units.insert(0xFEFF, at: 0)
        let broken = units.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
        let result = Self.read(broken)
        #expect(Self.names(result.cards) == ["A\u{FFFD}B"])
        #expect(
            result.warnings.map(\.message) == [
                "the UTF-16 file holds 1 unpaired surrogate (half a character), read as U+FFFD"
            ])
    }

    @Test func aUTF16CardInsideAUTF8FileIsASkippedCard() throws {
        let utf16 = [UInt8](try #require(Self.grace.data(using: .utf16LittleEndian)))
        let result = Self.read(Array(Self.ada.utf8) + utf16 + Array(Self.ada.utf8))
        #expect(Self.names(result.cards) == ["Ada", "Ada"])
        #expect(result.problems.count == 1)
        #expect(result.problems.first?.message == "binary data (a NUL byte) in a property")
    }

    @Test func crCrLfLineEndsWithFoldsAndSoftBreaks() throws {
        // An Android 2.1 export that went through one more text-mode conversion: CR CR LF, a
        // quoted-printable name with soft breaks, a folded note, base64 ended by a blank line.
        let lines = [
            "BEGIN:VCARD", "VERSION:2.1", "N;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=EA=B9=80;=EB=AF=BC=",
            "=EC=A7=80;;;", "FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=EA=B9=80=EB=AF=BC=", "=EC=A7=80",
            "NOTE:one", " two", "PHOTO;ENCODING=BASE64;JPEG:/9j/", "4AAQ", "", "END:VCARD",
        ]
        let bytes = Array(lines.joined(separator: "\r\r\n").utf8) + Array("\r\r\n".utf8)
        let result = Self.read(bytes)
        let card = try #require(result.cards.first)
        #expect(card.properties.map(\.key) == ["N", "FN", "NOTE", "PHOTO"])
        #expect(card.properties[1].text == "김민지")
        #expect(card.properties[0].components == ["김", "민지", "", "", ""])
        #expect(card.properties[2].text == "onetwo")
        #expect(card.properties[3].binary == [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10])
        #expect(card.endLine == 12 && result.problems.isEmpty && result.warnings.isEmpty)
    }

    @Test func aSoftBreakBeforeENDDoesNotSwallowTheCard() {
        let text =
            "BEGIN:VCARD\r\nVERSION:2.1\r\nFN:A\r\nNOTE;QUOTED-PRINTABLE:last line=\r\nEND:VCARD\r\n" + Self.grace
        let result = Self.read(Array(text.utf8))
        #expect(Self.names(result.cards) == ["A", "Grace"])
        #expect(result.cards.first?.properties.last?.text == "last line=")
    }

    @Test func longRunsOfCarriageReturnsAreLinesOfTheirOwn() {
        let bytes = [UInt8](repeating: 13, count: 100_000) + Array(Self.ada.utf8)
        let result = Self.read(bytes)
        #expect(result.cards.first?.beginLine == 100_001)
    }

    @Test func nulBytesAroundTheMarkersAreReported() {
        let text = "BEGIN:VCARD\r\nFN:A\r\nEND:VCARD\u{0}\u{0}\r\n"
        let result = Self.read(Array(text.utf8))
        #expect(Self.names(result.cards) == ["A"])
        #expect(result.cards.first?.warnings.map(\.description) == ["line 3: NUL bytes around END:VCARD, ignored"])
    }
}
