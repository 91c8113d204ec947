import CardModels
import CardVCard
import Foundation
import Testing

/// Random and mutated vCards from a fixed seed never crash the reader, the mapping or the
/// writer, and whatever they yield keeps the reader's promises.
@Suite struct FuzzTests {
    static let corpus = [
        "android-21-korean.vcf", "outlook-21-cp1252.vcf", "ios-30-grouped.vcf", "google-30-multi.vcf",
        "v40-data-photo-lf.vcf", "one-broken.vcf",
    ]

    /// Fragments that matter to the parser, spliced into the mutants.
    static let fragments: [[UInt8]] = [
        "\r\n", "\n", "\r", " ", "\t", "=", "=\r\n", ";", ":", ",", "\"", "\\", "^", ".", "BEGIN:VCARD\r\n",
        "END:VCARD\r\n",
        "ENCODING=QUOTED-PRINTABLE", "ENCODING=b", ";CHARSET=EUC-KR", ";CHARSET=bogus", "=E", "=FF", "data:",
        "AGENT:\r\n",
        "VERSION:4.0\r\n", "\u{0}", "\u{FEFF}", "\u{FF}", "가", "PHOTO;ENCODING=b:", "X-CARDWALLET-FIELD=email;",
    ].map { Array($0.utf8) }

    static func mutate(_ input: [UInt8], _ random: inout SeededRandom) -> [UInt8] {
        var bytes = input
        for _ in 0..<Int.random(in: 1...8, using: &random) {
            let position = bytes.isEmpty ? 0 : Int.random(in: 0..<bytes.count, using: &random)
            switch Int.random(in: 0..<6, using: &random) {
            case 0 where !bytes.isEmpty: bytes[position] = UInt8.random(in: 0...255, using: &random)
            case 1 where !bytes.isEmpty: bytes.remove(at: position)
            case 2: bytes.insert(contentsOf: fragments.randomElement(using: &random)!, at: position)
            case 3 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...200, using: &random))
                bytes.removeSubrange(position..<end)
            case 4 where !bytes.isEmpty:
                let end = min(bytes.count, position + Int.random(in: 1...80, using: &random))
                bytes.insert(contentsOf: bytes[position..<end], at: Int.random(in: 0...bytes.count, using: &random))
            default: bytes.insert(UInt8.random(in: 0...255, using: &random), at: position)
            }
        }
        return bytes
    }

    /// What must hold for any input.
    static func check(_ bytes: [UInt8], sizes: [Int]) {
        let lineCount = bytes.reduce(1) { $1 == 10 || $1 == 13 ? $0 + 1 : $0 }
        let document = VCardDocument.read(bytes: bytes)
        if document.refusal != nil {
            #expect(document.cards.isEmpty && document.problems.isEmpty)
        }
        for problem in document.problems {
            #expect(problem.line >= 1 && problem.line <= lineCount, "\(problem)")
        }
        for card in document.cards {
            #expect(!card.fields.name.isEmpty)
            #expect(card.fields.validate() == [:], "an imported card the server would refuse: \(card.fields)")
            for version in [VCardVersion.v30, .v40] {
                let written = VCardWriter(version: version).write(.stored(card.fields), photo: card.photo)
                let back = VCardDocument.read(bytes: written)
                #expect(back.cards.count == 1, "\(String(decoding: written, as: UTF8.self))")
                #expect(back.cards.first?.photo == card.photo)
                var fields = back.cards.first?.fields
                // 4.0 spells some kept lines its own way (base64 as data: URIs, dates without
                // dashes): the modelled fields come back the same, the kept lines may not.
                if version == .v40 { fields?.vcardProperties = card.fields.vcardProperties }
                #expect(fields == card.fields)
            }
        }
        // The same input in chunks yields the same.
        for size in sizes {
            let chunked = VCardDocument.read(source: ChunkedSource(bytes, size: size))
            #expect(
                chunked.cards == document.cards && chunked.problems == document.problems
                    && chunked.refusal == document.refusal)
        }
    }

    @Test(arguments: corpus)
    func mutatedCorpusFiles(name: String) throws {
        var random = SeededRandom(seed: 0xC0FFEE ^ UInt64(name.utf8.count))
        let original = try Fixture.bytes(name)
        for round in 0..<300 {
            Self.check(Self.mutate(original, &random), sizes: round % 25 == 0 ? [1, 5] : [])
        }
    }

    @Test func randomBytesAndRandomLines() {
        var random = SeededRandom(seed: 42)
        let words = [
            "BEGIN:VCARD", "END:VCARD", "VERSION:2.1", "FN:x", "N:a;b", "EMAIL:a@b.co", "TEL;CELL:123",
            "NOTE;QUOTED-PRINTABLE:a=", " folded", "=20", "PHOTO;BASE64:", "AAAA", "", "item1.X:y", "ORG:;;",
            "CATEGORIES:,,,",
        ]
        for _ in 0..<300 {
            let bytes = (0..<Int.random(in: 0...400, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            Self.check(bytes, sizes: [])
            let lines = (0..<Int.random(in: 0...60, using: &random)).map { _ in words.randomElement(using: &random)! }
            Self.check(Array(lines.joined(separator: ["\r\n", "\n"].randomElement(using: &random)!).utf8), sizes: [3])
        }
    }
}
