import CardModels
import CardVCard
import Foundation
import Testing

/// The reader on the shapes of real files: line ends, folding, encodings, parameters, groups.
@Suite struct ReaderTests {
    static func read(_ text: String) -> (cards: [VCard], problems: [VCardProblem], refusal: VCardRefusal?) {
        var reader = VCardReader(bytes: Array(text.utf8))
        let (cards, problems, _) = reader.all()
        return (cards, problems, reader.refusal)
    }

    static let sample =
        "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Ada Lovelace\r\nNOTE:one long\r\n  note\r\nEMAIL:ada@example.com\r\nEND:VCARD\r\n"

    @Test(arguments: ["\r\n", "\n", "\r", "\r\r\n", "\r\r\r\n"])
    func everyLineEndReadsTheSame(lineEnd: String) throws {
        let result = Self.read(Self.sample.replacingOccurrences(of: "\r\n", with: lineEnd))
        let card = try #require(result.cards.first)
        #expect(card.properties.map(\.key) == ["FN", "NOTE", "EMAIL"])
        #expect(card.properties[1].text == "one long note")
        #expect(card.properties.map(\.line) == [3, 4, 6])
        #expect(card.beginLine == 1 && card.endLine == 7)
        #expect(result.problems.isEmpty && result.refusal == nil)
    }

    @Test(arguments: [1, 2, 3, 7, 64])
    func chunkBoundariesChangeNothing(size: Int) throws {
        for name in ["android-21-korean.vcf", "outlook-21-cp1252.vcf", "ios-30-grouped.vcf", "v40-data-photo-lf.vcf"] {
            let bytes = try Fixture.bytes(name)
            var whole = VCardReader(bytes: bytes)
            var chunked = VCardReader(source: ChunkedSource(bytes, size: size))
            let expected = whole.all()
            let got = chunked.all()
            #expect(got.cards == expected.cards, "\(name) in chunks of \(size)")
            #expect(got.problems == expected.problems)
        }
    }

    @Test func foldingWithATabAndInsideAUTF8Sequence() throws {
        // 김 is EA B9 80: the fold splits it after its first byte, as a careless writer might.
        var bytes = Array("BEGIN:VCARD\r\nVERSION:3.0\r\nFN:".utf8) + [0xEA] + Array("\r\n\t".utf8) + [0xB9, 0x80]
        bytes += Array("민지\r\nEND:VCARD\r\n".utf8)
        var reader = VCardReader(bytes: bytes)
        #expect(try #require(reader.all().cards.first).properties[0].text == "김민지")
    }

    @Test func quotedPrintableWithSoftBreaksAndCharsets() throws {
        let text = """
            BEGIN:VCARD
            VERSION:2.1
            FN;CHARSET=UTF-8;ENCODING=QUOTED-PRINTABLE:=EA=B9=80=EB=AF=BC=
            =EC=A7=80
            NOTE;QUOTED-PRINTABLE;CHARSET=ISO-8859-2:=A3=F3d=BC
            TITLE;ENCODING=QUOTED-PRINTABLE;CHARSET=EUC-KR:=B5=F0=C0=DA=C0=CC=B3=CA
            ORG;ENCODING=QUOTED-PRINTABLE;CHARSET=windows-1252:Caf=E9 =80 =96 Bar
            X-LINES;ENCODING=QUOTED-PRINTABLE:one=0D=0Atwo
            END:VCARD
            """
        let card = try #require(Self.read(text).cards.first)
        #expect(card.version == .v21)
        #expect(card.properties.map(\.text) == ["김민지", "Łódź", "디자이너", "Café € – Bar", "one\ntwo"])
        #expect(card.properties.allSatisfy { $0.parameters.isEmpty })
        #expect(card.properties[4].value == "one\\ntwo")
    }

    @Test func unknownCharsetsAndBytesThatAreNotUTF8FallBack() throws {
        // No CHARSET and not UTF-8: Windows-1252, what Outlook writes. An unknown CHARSET: UTF-8
        // where valid, else Latin-1, with a warning (once per card and charset).
        let bytes =
            Array("BEGIN:VCARD\r\nFN:J".utf8) + [0xFC]
            + Array("rgen\r\nNOTE;CHARSET=X-NONSENSE:caf\u{E9}\r\nTITLE;CHARSET=X-NONSENSE:".utf8) + [0xE9, 0x81]
            + Array("\r\nORG;CHARSET=X-NONSENSE:plain\r\nEND:VCARD\r\n".utf8)
        var reader = VCardReader(bytes: bytes)
        let card = try #require(reader.all().cards.first)
        #expect(card.properties.map(\.text) == ["Jürgen", "café", "é\u{81}", "plain"])
        #expect(
            card.warnings == [
                VCardProblem(
                    line: 3,
                    "CHARSET=X-NONSENSE is not a charset this system knows: the card's values in it are read as UTF-8 where valid, else as Latin-1"
                )
            ])
    }

    @Test func valuesNotValidInTheirCharsetAreReadWithAWarning() throws {
        // EUC-KR cut in the middle of a character; UTF-7 read as UTF-7, never as its ASCII bytes.
        let bytes =
            Array("BEGIN:VCARD\r\nVERSION:2.1\r\nFN;CHARSET=EUC-KR:".utf8) + [0xB1, 0xE8, 0xB9]
            + Array("\r\nNOTE;CHARSET=UTF-7:Hi +AKM-1\r\nEND:VCARD\r\n".utf8)
        var reader = VCardReader(bytes: bytes)
        let card = try #require(reader.all().cards.first)
        #expect(card.properties.map(\.text) == ["\u{B1}\u{E8}\u{B9}", "Hi £1"])
        #expect(
            card.warnings.map(\.description) == ["line 3: FN: the value is not valid EUC-KR; it is read as Latin-1"])
    }

    @Test func escapesInTextAndStructuredValues() throws {
        let card = try #require(
            Self.read(
                "BEGIN:VCARD\nVERSION:3.0\nNOTE:a\\, b\\; c\\nd \\\\ e\\N\nORG:A\\;B;C\\,D\nCATEGORIES:x\\,y,z,,w\nEND:VCARD\n"
            ).cards.first)
        #expect(card.properties[0].text == "a, b; c\nd \\ e\n")
        #expect(card.properties[1].components == ["A;B", "C,D"])
        #expect(card.properties[2].listValues == ["x,y", "z", "w"])
    }

    @Test func typeListsInEverySpelling() throws {
        let text = """
            BEGIN:VCARD
            VERSION:3.0
            TEL;TYPE=WORK,VOICE:1
            TEL;TYPE=work;TYPE=voice:2
            TEL;type="work,voice":3
            TEL;WORK;VOICE:4
            TEL;Type=Work,Voice;PREF=1:5
            END:VCARD
            """
        let card = try #require(Self.read(text).cards.first)
        for property in card.properties { #expect(property.types.prefix(2) == ["WORK", "VOICE"], "\(property.value)") }
        #expect(card.properties.map(\.preference) == [.max, .max, .max, .max, 1])
    }

    @Test func groupsAndNamesKeepTheirSpelling() throws {
        let card = try #require(
            Self.read("BEGIN:VCARD\nitem1.EMAIL;type=INTERNET:a@b.c\nitem1.X-ABLabel:Other\nEND:VCARD\n").cards.first)
        #expect(card.properties.map(\.group) == ["item1", "item1"])
        #expect(card.properties.map(\.name) == ["EMAIL", "X-ABLabel"])
        #expect(card.properties.map(\.key) == ["EMAIL", "X-ABLABEL"])
    }

    @Test func base64InEverySpelling() throws {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1, 2, 3]
        let encoded = TransferEncoding.base64Encode(png)
        let text = """
            BEGIN:VCARD
            VERSION:2.1
            PHOTO;ENCODING=BASE64;TYPE=PNG:\(encoded.prefix(8))
            \(encoded.dropFirst(8))

            LOGO;ENCODING=b:\(encoded)
            SOUND;BASE64:\(encoded.prefix(4))
              \(encoded.dropFirst(4))
            END:VCARD
            """
        let card = try #require(Self.read(text).cards.first)
        #expect(card.properties.map(\.binary) == [png, png, png])
        #expect(card.properties[0].types == ["PNG"])
    }

    @Test func agentCardsInsideACardAreSkippedWithoutBreakingIt() throws {
        let text =
            "BEGIN:VCARD\nVERSION:2.1\nFN:Boss\nAGENT:\nBEGIN:VCARD\nVERSION:2.1\nFN:Assistant\nEND:VCARD\nEMAIL:boss@example.com\nEND:VCARD\n"
        let result = Self.read(text)
        #expect(result.cards.count == 1)
        #expect(result.cards.first?.properties.map(\.key) == ["FN", "AGENT", "EMAIL"])
    }

    @Test func aBrokenCardIsAProblemAtItsLineAndTheRestIsRead() {
        let text = """
            BEGIN:VCARD
            FN:One
            END:VCARD
            BEGIN:VCARD
            FN:Two
            this line is not a property
            END:VCARD
            BEGIN:VCARD
            FN:Three
            BEGIN:VCARD
            FN:Four
            END:VCARD
            BEGIN:VCARD
            FN:Five
            """
        let result = Self.read(text)
        // A line that is not a property costs that line only: Two comes in, with a warning.
        #expect(result.cards.map { $0.properties[0].text } == ["One", "Two", "Four"])
        #expect(result.cards[1].warnings.map(\.line) == [6])
        #expect(result.cards[1].warnings[0].message.hasPrefix("not a vCard property line"))
        #expect(result.problems.map(\.line) == [8, 13])
        #expect(result.problems[0].message.contains("no END:VCARD before the next BEGIN:VCARD (line 10)"))
        #expect(result.problems[1].message.contains("the file ends first"))
        #expect(result.refusal == nil)
    }

    @Test func textAroundTheCardsIsReportedAndIgnored() {
        var reader = VCardReader(
            bytes: Array("From: someone\nSubject: my card\n\nBEGIN:VCARD\nFN:Ada\nEND:VCARD\n-- \nsignature\n".utf8))
        let result = reader.all()
        #expect(result.cards.count == 1 && result.problems.isEmpty && reader.refusal == nil)
        #expect(
            result.warnings.map(\.description) == [
                "line 1: text outside any card (2 lines, to line 2), ignored: “From: someone”",
                "line 7: text outside any card (2 lines, to line 8), ignored: “-- ”",
            ])
    }

    @Test func utf16FilesWithAByteOrderMark() throws {
        let text = "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:김민지\r\nEND:VCARD\r\n"
        for (mark, encoding) in [
            ([UInt8]([0xFF, 0xFE]), String.Encoding.utf16LittleEndian), ([0xFE, 0xFF], .utf16BigEndian),
        ] {
            let bytes = mark + [UInt8](try #require(text.data(using: encoding)))
            let document = VCardDocument.read(bytes: bytes)
            #expect(document.cards.map(\.fields.name) == ["김민지"])
        }
        let withUTF8Mark = VCardDocument.read(bytes: [0xEF, 0xBB, 0xBF] + Array(text.utf8))
        #expect(withUTF8Mark.cards.map(\.fields.name) == ["김민지"])
    }

    @Test func parameterValuesWithQuotesAndCarets() throws {
        let card = try #require(
            Self.read(
                "BEGIN:VCARD\nVERSION:4.0\nADR;LABEL=\"1 Main St.; Town: Here\";GEO=\"geo:1,2\":;;1 Main St;;;;\nX-A;X-P=a^nb^'c^^:v\nEND:VCARD\n"
            ).cards.first)
        #expect(card.properties[0].values(of: "LABEL") == ["1 Main St.; Town: Here"])
        #expect(card.properties[0].values(of: "GEO") == ["geo:1,2"])
        #expect(card.properties[1].values(of: "X-P") == ["a\nb\"c^"])
    }
}
