import CardModels
import CardVCard
import Foundation
import Testing

/// What is not vCard is refused in one line, within bounds; what is too big is a problem.
@Suite struct HostileInputTests {
    static func refusal(_ bytes: [UInt8], limits: VCardLimits = .standard) -> String? {
        VCardDocument.read(source: InMemoryByteSource(bytes), limits: limits).refusal?.reason
    }

    @Test func emptyAndBlankInputs() {
        #expect(Self.refusal([]) == "empty: no vCard in it")
        #expect(Self.refusal(Array(" \r\n\n\t\n".utf8)) == "empty: no vCard in it")
    }

    @Test func binaryFilesAreRefusedWhenNoCardIsInThem() throws {
        let png = try Fixture.bytes("photo-minji.png")
        #expect(Self.refusal(png) == "not a vCard file (it holds binary data)")
        // A binary file of 32 MiB is read to its end (a card could follow), in bounded memory:
        // one line of 32 MiB is held only up to the line limit.
        let source = RepeatingSource(chunk: [UInt8](repeating: 0, count: 64 << 10), chunks: 512)
        let document = VCardDocument.read(source: source)
        #expect(document.refusal?.reason == "not a vCard file (it holds binary data)")
        #expect(document.statistics.bytes == 32 << 20)
        // The same binary with one card after it: the card is read, the binary reported.
        let card = Array("\r\nBEGIN:VCARD\r\nFN:After\r\nEND:VCARD\r\n".utf8)
        let after = VCardDocument.read(bytes: [UInt8](repeating: 0, count: 100_000) + card)
        #expect(after.refusal == nil && after.cards.map(\.fields.name) == ["After"])
        #expect(after.warnings.map(\.line) == [1] && after.warnings.first?.message.hasPrefix("binary data") == true)
    }

    /// Control characters cost themselves, not the card: a CardDAV server cannot hold them, and
    /// the same file came in on the card API and was refused on CardDAV.
    @Test func controlCharactersInAValueAreLeftOutWithAWarning() throws {
        let text =
            "BEGIN:VCARD\nVERSION:3.0\nFN:Ctl \u{1B}[31mRed\u{7F}\nORG:Acme\u{07};Sales\nNOTE:line one\\nline two\u{01}\n"
            + "EMAIL:ok@example.com\nEND:VCARD\n"
        let document = VCardDocument.read(bytes: Array(text.utf8))
        let card = try #require(document.cards.first)
        #expect(card.fields.name == "Ctl [31mRed")
        #expect(card.fields.company == "Acme")
        #expect(card.fields.department == "Sales")
        #expect(card.fields.bio == "line one\nline two", "a line break stays where the field holds lines")
        #expect(card.fields.email == "ok@example.com")
        #expect(card.warnings.map(\.line) == [3, 4, 5])
        #expect(card.warnings.allSatisfy { $0.message.contains("control characters left out") })
        #expect(
            !card.fields.vcardProperties.contains { $0.unicodeScalars.contains { $0.value < 32 || $0.value == 127 } },
            "the damaged line is not kept")
        let written = String(
            decoding: VCardWriter(version: .v30).write(
                Card(id: "x", fields: card.fields, createdAt: .now, updatedAt: .now)), as: UTF8.self)
        #expect(written.contains("FN:Ctl [31mRed\r\n"))
    }

    @Test func textThatIsNotVCard() {
        let text = String(repeating: "Lorem ipsum dolor sit amet, consectetur adipiscing elit.\n", count: 2000)
        #expect(Self.refusal(Array(text.utf8)) == "not a vCard file (no BEGIN:VCARD line in it)")
    }

    @Test func fiftyThousandBeginLinesAreFiftyThousandProblems() {
        let bytes = Array(String(repeating: "BEGIN:VCARD\r\n", count: 50_000).utf8)
        let document = VCardDocument.read(source: InMemoryByteSource(bytes))
        #expect(document.refusal == nil && document.cards.isEmpty)
        #expect(document.skipped == 50_000 && document.problems.count == 100)
        #expect(
            document.problems.first?.description
                == "line 1: the card has no END:VCARD before the next BEGIN:VCARD (line 2)")
        #expect(document.problems.last?.message.contains("no END:VCARD") == true)
        #expect(document.statistics.begun == 50_000 && document.statistics.blocks == 50_000)
    }

    @Test func problemsAreCountedButOnlyTheFirstAreKept() {
        var text = String(repeating: "BEGIN:VCARD\nNOTE:nobody\nEND:VCARD\n", count: 5_000)
        text += "BEGIN:VCARD\nFN:Somebody\nEND:VCARD\n"
        let document = VCardDocument.read(bytes: Array(text.utf8))
        #expect(document.refusal == nil)
        #expect(document.cards.map(\.fields.name) == ["Somebody"])
        #expect(document.skipped == 5_000)
        #expect(document.problems.count == 100)
        #expect(
            document.problems.first?.message
                == "the card has no name (no FN, no N), nor an organisation, email or phone number to name it by")
    }

    @Test func aLineOverTheLimitCostsOnlyItself() {
        let limits = VCardLimits(maximumLineBytes: 1_000)
        let text =
            "BEGIN:VCARD\nFN:Big\nNOTE:" + String(repeating: "x", count: 50_000)
            + "\nEND:VCARD\nBEGIN:VCARD\nFN:Small\nEND:VCARD\n"
        let document = VCardDocument.read(source: InMemoryByteSource(Array(text.utf8)), limits: limits)
        #expect(document.cards.map(\.fields.name) == ["Big", "Small"])
        #expect(document.problems.isEmpty)
        #expect(
            document.cards[0].warnings.map(\.description) == [
                "line 3: a property is longer than 1000 bytes: the card comes in without it"
            ])
        #expect(document.cards[0].fields.bio == nil)
        // Folded continuation lines count too.
        let folded =
            "BEGIN:VCARD\nFN:Big\nNOTE:x\n"
            + String(repeating: " " + String(repeating: "y", count: 70) + "\n", count: 100)
            + "END:VCARD\nBEGIN:VCARD\nFN:Small\nEND:VCARD\n"
        let second = VCardDocument.read(source: InMemoryByteSource(Array(folded.utf8)), limits: limits)
        #expect(second.cards.first?.warnings.map(\.line) == [3])
        // A card that is nothing but an overlong line is skipped with that reason, at its line.
        let alone = "BEGIN:VCARD\nNOTE:" + String(repeating: "z", count: 5_000) + "\nEND:VCARD\n"
        let single = VCardDocument.read(source: InMemoryByteSource(Array(alone.utf8)), limits: limits)
        #expect(single.refusal == nil && single.skipped == 1)
        #expect(single.problems.map(\.description) == ["line 2: a property is longer than 1000 bytes"])
    }

    @Test func cardsWithTooManyPropertiesAndFilesWithTooManyCards() {
        let limits = VCardLimits(maximumProperties: 10, maximumCards: 3)
        let many =
            "BEGIN:VCARD\nFN:Many\n" + String(repeating: "X-A:1\n", count: 20)
            + "END:VCARD\nBEGIN:VCARD\nFN:Few\nEND:VCARD\n"
        let document = VCardDocument.read(source: InMemoryByteSource(Array(many.utf8)), limits: limits)
        #expect(document.cards.map(\.fields.name) == ["Few"])
        #expect(document.problems.first?.message == "the card has more than 10 properties")
        let cards = String(repeating: "BEGIN:VCARD\nFN:A\nEND:VCARD\n", count: 5)
        #expect(Self.refusal(Array(cards.utf8), limits: limits) == "more than 3 cards in one file; split it")
    }

    @Test func nestedAgentsCannotGoDeep() {
        let text =
            "BEGIN:VCARD\nFN:A\nAGENT:\n" + String(repeating: "BEGIN:VCARD\n", count: 10)
            + String(repeating: "END:VCARD\n", count: 11)
            + "BEGIN:VCARD\nFN:B\nEND:VCARD\n"
        let document = VCardDocument.read(bytes: Array(text.utf8))
        #expect(document.cards.map(\.fields.name) == ["B"])
        #expect(document.problems.first?.message == "AGENT cards are nested too deeply")
    }
}

/// The same chunk, again and again.
struct RepeatingSource: VCardByteSource {
    var chunk: [UInt8]
    var chunks: Int

    mutating func nextChunk() throws -> [UInt8]? {
        guard chunks > 0 else { return nil }
        chunks -= 1
        return chunk
    }
}
