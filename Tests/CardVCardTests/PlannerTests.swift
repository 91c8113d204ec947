import CardModels
import CardVCard
import Foundation
import Testing

/// The import plan: created, updated, unchanged, skipped, decided before anything is sent.
@Suite struct PlannerTests {
    static func incoming(_ text: String, file: String = "in.vcf") -> [SourcedCard] {
        VCardDocument.read(text).cards.map { SourcedCard(file: file, card: $0) }
    }

    static func existing(_ text: String) -> [Card] {
        VCardDocument.read(text).cards.enumerated().map { index, card in
            Card(
                id: "card_\(index)", fields: card.fields, createdAt: .distantPast, updatedAt: .distantPast,
                revision: CardRevision(4))
        }
    }

    @Test func theSameFileTwiceChangesNothing() throws {
        let document = try Fixture.document("google-30-multi.vcf")
        let incoming = document.cards.map { SourcedCard(file: "g.vcf", card: $0) }
        let first = ImportPlanner.plan(incoming, existing: [])
        #expect(first.counts == ImportPlan.Counts(created: 3))
        let wallet = document.cards.enumerated().map {
            Card(id: "c\($0)", fields: $1.fields, createdAt: .now, updatedAt: .now)
        }
        let second = ImportPlanner.plan(incoming, existing: wallet)
        #expect(second.counts == ImportPlan.Counts(unchanged: 3))
        #expect(
            second.entries.map(\.action) == [
                .unchanged(cardID: "c0"), .unchanged(cardID: "c1"), .unchanged(cardID: "c2"),
            ])
    }

    @Test func matchingOnUIDFirstThenNameAndEmail() {
        let wallet = Self.existing(
            """
            BEGIN:VCARD\nFN:Ada\nEMAIL:ada@example.com\nUID:u-1\nEND:VCARD
            BEGIN:VCARD\nFN:Grace\nEMAIL:grace@example.com\nEND:VCARD
            BEGIN:VCARD\nFN:Alan\nEND:VCARD
            """)
        let plan = ImportPlanner.plan(
            Self.incoming(
                """
                BEGIN:VCARD\nFN:Ada L.\nEMAIL:ada@example.com\nUID:u-1\nEND:VCARD
                BEGIN:VCARD\nFN:GRACE \nEMAIL:Grace@Example.com\nTITLE:Admiral\nEND:VCARD
                BEGIN:VCARD\nFN:Alan\nUID:cardwallet-card_2\nEND:VCARD
                BEGIN:VCARD\nFN:Ada\nEMAIL:ada@example.com\nUID:u-2\nEND:VCARD
                """), existing: wallet)
        guard case .update(let id, let version, let fields?, nil) = plan.entries[0].action else {
            Issue.record("not an update: \(plan.entries[0].action)")
            return
        }
        #expect(id == "card_0" && version == CardRevision(4) && fields.name == "Ada L.")
        guard case .update("card_1", CardRevision(4), let grace?, nil) = plan.entries[1].action else {
            Issue.record("not an update: \(plan.entries[1].action)")
            return
        }
        #expect(grace.title == "Admiral")
        // The UID CardWallet derived from card_2.
        #expect(plan.entries[2].action == .unchanged(cardID: "card_2"))
        // Same name and email as Ada, but another UID than hers: another person.
        guard case .create = plan.entries[3].action else {
            Issue.record("not a creation: \(plan.entries[3].action)")
            return
        }
    }

    @Test func duplicatesInOneInputMakeOneCard() throws {
        // The same card twice without a UID; the same name and email in another case and width,
        // with a phone more; the same UID under another name.
        let text = """
            BEGIN:VCARD\nFN:John\nEND:VCARD
            BEGIN:VCARD\nFN:John\nEND:VCARD
            BEGIN:VCARD\nFN:Ada\nEMAIL:ada@example.com\nEND:VCARD
            BEGIN:VCARD\nFN:ADA\nEMAIL:ＡＤＡ@example.com\nTEL:+44 20 7946 0000\nEND:VCARD
            BEGIN:VCARD\nFN:A\nUID:x\nEND:VCARD
            BEGIN:VCARD\nFN:B\nUID:x\nEND:VCARD
            """
        let plan = ImportPlanner.plan(Self.incoming(text), existing: [])
        #expect(plan.counts == ImportPlan.Counts(created: 3, unchanged: 1, merged: 2))
        #expect(plan.counts.summary == "created 3, updated 0, unchanged 1, merged 2, skipped 0")
        #expect(plan.entries.map(\.line) == [1, 7, 16])
        #expect(
            plan.duplicates.map { [$0.line, $0.firstLine] } == [[4, 1], [11, 7], [20, 16]]
                && plan.duplicates.map(\.merged) == [false, true, true])
        guard case .create(let ada) = plan.entries[1].action, case .create(let a) = plan.entries[2].action else {
            Issue.record("not creations: \(plan.entries)")
            return
        }
        // The first card's values stay; what only the second says is added.
        #expect(ada.fields.name == "Ada" && ada.fields.email == "ada@example.com")
        #expect(ada.fields.phone == "+44 20 7946 0000")
        #expect(a.fields.name == "A" && a.fields.vcardProperties == ["UID:x", "FN:B"])
        // Imported again into the wallet it made: nothing to do.
        let wallet = [ImportedCard](
            plan.entries.compactMap {
                if case .create(let card) = $0.action { return card }
                return nil
            }
        ).enumerated().map { Card(id: "c\($0)", fields: $1.fields, createdAt: .now, updatedAt: .now) }
        let again = ImportPlanner.plan(Self.incoming(text), existing: wallet)
        #expect(again.counts == ImportPlan.Counts(unchanged: 4, merged: 2))
    }

    @Test func duplicatesAcrossTheFilesOfAFolder() {
        let one = Self.incoming("BEGIN:VCARD\nFN:Ada\nEMAIL:ada@example.com\nEND:VCARD\n", file: "a.vcf")
        let two = Self.incoming("BEGIN:VCARD\nFN:ada\nEMAIL:ADA@example.com\nEND:VCARD\n", file: "b.vcf")
        let plan = ImportPlanner.plan(one + two, existing: [])
        #expect(plan.counts == ImportPlan.Counts(created: 1, unchanged: 1))
        #expect(plan.duplicates.first?.file == "b.vcf" && plan.duplicates.first?.firstFile == "a.vcf")
    }

    @Test func namesakesWithoutEmailWhoDisagreeAreTwoPeople() {
        let twins = "BEGIN:VCARD\nFN:John\nTEL:111\nEND:VCARD\nBEGIN:VCARD\nFN:John\nTEL:222\nEND:VCARD\n"
        #expect(ImportPlanner.plan(Self.incoming(twins), existing: []).counts == ImportPlan.Counts(created: 2))
        // Against a wallet that holds both, each matches one of them: twins stay twins.
        let again = ImportPlanner.plan(Self.incoming(twins), existing: Self.existing(twins))
        #expect(again.counts == ImportPlan.Counts(unchanged: 2))
        #expect(again.entries.map(\.action) == [.unchanged(cardID: "card_0"), .unchanged(cardID: "card_1")])
    }

    @Test func matchingFoldsCaseAndWidthAgainstTheWalletToo() {
        let wallet = Self.existing("BEGIN:VCARD\nFN:Straße\nEMAIL:s@example.com\nEND:VCARD\n")
        let plan = ImportPlanner.plan(
            Self.incoming("BEGIN:VCARD\nFN:STRASSE\nEMAIL:Ｓ@example.com\nEND:VCARD\n"), existing: wallet)
        guard case .update("card_0", CardRevision(4), let fields?, nil) = plan.entries.first?.action else {
            Issue.record("not an update: \(plan.entries)")
            return
        }
        #expect(fields.name == "STRASSE")
    }

    @Test func walletOnlyFieldsSurviveAForeignUpdate() {
        var wallet = Self.existing("BEGIN:VCARD\nFN:Ada\nEND:VCARD\n")
        wallet[0].fields.funFacts = ["Poet's daughter"]
        wallet[0].fields.defaultImage = 4
        let foreign = ImportPlanner.plan(
            Self.incoming("BEGIN:VCARD\nFN:Ada\nTITLE:Countess\nEND:VCARD\n"), existing: wallet)
        guard case .update(_, _, let fields?, _) = foreign.entries[0].action else {
            Issue.record("not an update")
            return
        }
        #expect(fields.funFacts == ["Poet's daughter"] && fields.defaultImage == 4 && fields.title == "Countess")
        let ours = ImportPlanner.plan(
            Self.incoming("BEGIN:VCARD\nFN:Ada\nX-CARDWALLET-AVATAR:2\nEND:VCARD\n"), existing: wallet)
        guard case .update(_, _, let replaced?, _) = ours.entries[0].action else {
            Issue.record("not an update")
            return
        }
        #expect(replaced.funFacts == [] && replaced.defaultImage == 2)
    }

    @Test func aChangedPhotoReplacesTheImage() throws {
        let jpeg = try Fixture.bytes("photo-ada.jpg")
        let text = "BEGIN:VCARD\nFN:Ada\nPHOTO;ENCODING=b;TYPE=JPEG:\(TransferEncoding.base64Encode(jpeg))\nEND:VCARD\n"
        let incoming = Self.incoming(text)
        var wallet = Self.existing("BEGIN:VCARD\nFN:Ada\nEND:VCARD\n")
        #expect(ImportPlanner.imagesToCompare(incoming, existing: wallet) == [])
        #expect(
            ImportPlanner.plan(incoming, existing: wallet).entries[0].action
                == .update(
                    cardID: "card_0", revision: CardRevision(4), fields: nil,
                    photo: VCardPhoto(bytes: jpeg, format: .jpeg)))
        // Same type and size: only the bytes tell.
        wallet[0].hasImage = true
        wallet[0].image = CardImageInfo(contentType: "image/jpeg", size: jpeg.count)
        #expect(ImportPlanner.imagesToCompare(incoming, existing: wallet) == ["card_0"])
        #expect(
            ImportPlanner.plan(incoming, existing: wallet, images: ["card_0": jpeg]).entries[0].action
                == .unchanged(cardID: "card_0"))
        var other = jpeg
        other[other.count / 2] ^= 0xFF
        guard
            case .update(_, _, nil, _?) = ImportPlanner.plan(incoming, existing: wallet, images: ["card_0": other])
                .entries[0].action
        else {
            Issue.record("not a photo update")
            return
        }
        // A vCard without a photo leaves the wallet's image alone.
        #expect(
            ImportPlanner.plan(Self.incoming("BEGIN:VCARD\nFN:Ada\nEND:VCARD\n"), existing: wallet).entries[0].action
                == .unchanged(cardID: "card_0"))
    }

    @Test func skippedCardsTakeTheirPlaceInFileOrder() throws {
        let document = try Fixture.document("one-broken.vcf")
        let plan = ImportPlanner.plan(
            document.cards.map { SourcedCard(file: "b.vcf", card: $0) },
            problems: document.problems.map { SourcedProblem(file: "b.vcf", problem: $0) }, existing: [])
        #expect(plan.entries.map(\.line) == [1, 6, 11])
        #expect(plan.counts.summary == "created 2, updated 0, unchanged 0, skipped 1")
    }
}
