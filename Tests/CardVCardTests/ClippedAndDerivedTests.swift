import CardModels
import CardVCard
import Foundation
import Testing

/// Issue 32: what the import clipped or derived goes out again as it came in — the whole
/// original on export and in the QR code, no name made up — for as long as the field says what
/// the import made of it, whatever else is edited.
@Suite struct ClippedAndDerivedTests {
    static func imported(_ body: String, version: String = "3.0") throws -> ImportedCard {
        let document = VCardDocument.read("BEGIN:VCARD\nVERSION:\(version)\n\(body)\nEND:VCARD\n")
        return try #require(document.cards.first)
    }

    /// The content lines of `fields` written in `version`, unfolded.
    static func written(_ fields: CardFields, _ version: VCardVersion = .v30) -> [String] {
        let text = String(decoding: VCardWriter(version: version).write(.stored(fields)), as: UTF8.self)
        return text.replacingOccurrences(of: "\r\n ", with: "").components(separatedBy: "\r\n")
    }

    static let note = (1...300).map { "Line \($0) of a long note, as people keep them." }.joined(separator: "\\n")

    @Test func aClippedNoteIsExportedWholeInBothVersions() throws {
        let card = try Self.imported("FN:Ada Lovelace\nNOTE;LANGUAGE=en:\(Self.note)\nTITLE:Countess")
        #expect((card.fields.bio?.count ?? 0) <= CardLimits.bioMaxLength)
        #expect(card.fields.bio?.hasSuffix("…") == true)
        for version in [VCardVersion.v30, .v40] {
            let lines = Self.written(card.fields, version)
            #expect(lines.contains("NOTE;LANGUAGE=en:\(Self.note)"))
            #expect(!lines.contains { $0.hasPrefix("NOTE:") } && !lines.contains { $0.contains("X-CARDWALLET") })
            // Read back: the same card.
            let back = try #require(
                VCardDocument.read(bytes: VCardWriter(version: version).write(.stored(card.fields))).cards.first)
            #expect(back.fields == card.fields)
        }
        // Another field edited: the whole note stays.
        var edited = card.fields
        edited.title = "Mathematician"
        #expect(Self.written(edited).contains("NOTE;LANGUAGE=en:\(Self.note)"))
        // The bio edited: the new bio goes out, the old note is dropped.
        edited.bio = "Short now."
        let lines = Self.written(edited)
        #expect(lines.contains("NOTE:Short now.") && !lines.contains { $0.contains("Line 300") })
    }

    @Test func clippedNamesTagsAndFactsGoOutWhole() throws {
        let name = String(repeating: "Very Long Name ", count: 6) + "Family"
        let tags = (1...14).map { "tag\($0)" }.joined(separator: ",")
        let fact = String(repeating: "a fact ", count: 20)
        let card = try Self.imported(
            "FN:\(name)\nCATEGORIES:\(tags)\nX-CARDWALLET-TMI:short\nX-CARDWALLET-TMI:\(fact)")
        #expect(card.fields.validate() == [:])
        let lines = Self.written(card.fields)
        #expect(lines.contains("FN:\(name)"))
        #expect(lines.contains("CATEGORIES:\(tags)"))
        #expect(lines.contains("X-CARDWALLET-TMI:short") && lines.contains("X-CARDWALLET-TMI:\(fact)"))
        let back = try #require(VCardDocument.read(bytes: VCardWriter().write(.stored(card.fields))).cards.first)
        #expect(back.fields == card.fields)
    }

    @Test func theQRCodeGivesTheWholeOriginalWhenItFits() throws {
        let card = try Self.imported("FN:A\nNOTE:\(String(repeating: "n", count: 600))\nEMAIL:a@example.com")
        let roomy = try #require(VCardWriter().compact(.stored(card.fields), budget: 4_000))
        #expect(
            String(decoding: roomy, as: UTF8.self).replacingOccurrences(of: "\r\n ", with: "").contains(
                "NOTE:" + String(repeating: "n", count: 600)))
        // Tight: the note is the first to go, name and email stay.
        let tight = try #require(VCardWriter().compact(.stored(card.fields), budget: 200))
        #expect(!String(decoding: tight, as: UTF8.self).contains("NOTE"))
    }

    @Test func aDerivedNameIsNotWrittenAsAName() throws {
        let card = try Self.imported("N:;;;;\nORG:Acme Corp\nTEL;CELL:+1 555 0100", version: "2.1")
        #expect(card.fields.name == "Acme Corp")
        for version in [VCardVersion.v30, .v40] {
            let lines = Self.written(card.fields, version)
            // vCard 3.0 and 4.0 require an FN: an empty one, not one made up.
            #expect(lines.contains("FN:") && lines.contains("N:;;;;"))
            #expect(!lines.contains { $0.hasPrefix("FN:A") || $0.contains("X-CARDWALLET") })
            let back = try #require(
                VCardDocument.read(bytes: VCardWriter(version: version).write(.stored(card.fields))).cards.first)
            #expect(back.fields == card.fields)
        }
        // Renamed in the wallet: the name is the card's own now, and written.
        var renamed = card.fields
        renamed.name = "Acme Corporation"
        let lines = Self.written(renamed)
        #expect(lines.contains("FN:Acme Corporation") && lines.contains("N:Corporation;Acme;;;"))
        #expect(!lines.contains("FN:"))
    }
}
