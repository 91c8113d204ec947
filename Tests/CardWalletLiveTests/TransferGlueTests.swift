import CardModels
import Foundation
import Synchronization
import TestSupport
import Testing

@testable import CardWalletLive
@testable import CardWalletUI

/// The TUI's export, import, picture and QR calls through the performer, against the mock server.
@Suite(.serialized)
struct TransferGlueTests {
    @Test func exportThenImportChangesNothingAndANewFileCreatesItsCardsInOrder() async throws {
        try await GlueHarness.with { harness in
            let performer = harness.performer()
            try await harness.logIn(performer)
            let file = harness.folder.path("wallet.vcf")
            let exported = await performer.perform(
                .exportCards(ExportRequest(cards: .all, path: file, format: .vcard3)))
            #expect(exported == .success(.exported(count: 12, path: file)))
            #expect(
                try String(contentsOfFile: file, encoding: .utf8).components(separatedBy: "BEGIN:VCARD").count == 13)
            // Once more: the file is there, and is replaced only when asked.
            let again = await performer.perform(
                .exportCards(ExportRequest(cards: .ids(["demo-02"]), path: file, format: .vcard4)))
            guard case .failure(let exists) = again, case .fileExists = exists.kind else {
                Issue.record("not refused: \(again)")
                return
            }
            // Reading our own export back: nothing to do.
            let same = try await performer.perform(.previewImport(path: file)).get()
            guard case .importPreview(let unchanged) = same else {
                Issue.record("not a preview: \(same)")
                return
            }
            #expect(unchanged.counts == ImportCounts(unchanged: 12))
            #expect(!unchanged.changesSomething)

            let new = try harness.folder.write(
                "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:First New\r\nEMAIL:first@example.com\r\nTEL;TYPE=FAX:+1 555 0100\r\nEND:VCARD\r\n"
                    + "BEGIN:VCARD\r\nVERSION:3.0\r\nNOTE:nobody\r\nEND:VCARD\r\n"
                    + "BEGIN:VCARD\r\nVERSION:2.1\r\nN:Second;New\r\nEND:VCARD\r\n", to: "new.vcf")
            let planned = try await performer.perform(.previewImport(path: new)).get()
            guard case .importPreview(let preview) = planned else {
                Issue.record("not a preview: \(planned)")
                return
            }
            #expect(preview.counts == ImportCounts(created: 2, skipped: 1))
            #expect(preview.entries.map(\.kind) == [.create, .skip, .create])
            #expect(preview.entries[1].detail.hasPrefix("new.vcf:"))
            let reports = Mutex<[CallProgress]>([])
            let ran = await performer.perform(
                .runImport(planID: preview.planID),
                progress: ProgressReporter { progress in
                    reports.withLock { $0.append(progress) }
                })
            guard case .success(.imported(let report)) = ran else {
                Issue.record("not a report: \(ran)")
                return
            }
            #expect(report.counts == ImportCounts(created: 2, skipped: 1))
            #expect(!report.cancelled && report.failure == nil)
            #expect(reports.withLock { $0 }.last == CallProgress(done: 3, total: 3))
            let page = try await performer.perform(.loadCards(offset: 0, limit: 50, query: nil)).get()
            let cards = try #require(page.page)
            #expect(
                cards.cards.suffix(2).map(\.name) == ["First New", "New Second"]
                    || cards.cards.suffix(2).map(\.name) == ["First New", "Second New"])
            // The fax is kept with the card, read-only in the detail view.
            let first = try #require(cards.cards.first { $0.name == "First New" })
            let card = try #require(try await performer.perform(.loadCard(id: first.id)).get().card)
            #expect(card.fields.vcardProperties.contains { $0.contains("FAX") })
            // A plan is carried out once.
            let twice = await performer.perform(.runImport(planID: preview.planID))
            guard case .failure(let gone) = twice else {
                Issue.record("ran twice: \(twice)")
                return
            }
            #expect(gone.message.contains("no longer at hand"))
        }
    }

    @Test func aCancelledImportStopsBetweenCardsWithNothingHalfMade() async throws {
        try await GlueHarness.with { harness in
            let performer = harness.performer()
            try await harness.logIn(performer)
            let file = try harness.folder.write(
                (1...5).map { "BEGIN:VCARD\r\nVERSION:3.0\r\nFN:Person \($0)\r\nEND:VCARD\r\n" }.joined(),
                to: "five.vcf")
            let preview = try #require(try await performer.perform(.previewImport(path: file)).get().importPreview)
            // Cancelled as the third card starts: that card is made whole, the fourth is not begun.
            let task = Task {
                await performer.perform(
                    .runImport(planID: preview.planID),
                    progress: ProgressReporter { progress in
                        if progress.done == 2 { withUnsafeCurrentTask { $0?.cancel() } }
                    })
            }
            guard case .success(.imported(let report)) = await task.value else {
                Issue.record("no report")
                return
            }
            #expect(report.cancelled)
            #expect(report.counts.created == 3)
            let page = try await performer.perform(.loadCards(offset: 0, limit: 50, query: "Person")).get()
            let cards = try #require(page.page)
            #expect(cards.cards.map(\.name) == ["Person 1", "Person 2", "Person 3"])
        }
    }

    @Test func picturesAndQRCodesOfARealCard() async throws {
        try await GlueHarness.with { harness in
            let performer = harness.performer()
            try await harness.logIn(performer)
            let box = PictureBox(columns: 20, rows: 10)
            let shown = try await performer.perform(.cardPicture(id: "demo-01", revision: CardRevision(1), box: box))
                .get()
            guard case .picture(let picture) = shown, case .cells(let rows) = picture.content else {
                Issue.record("not cells: \(shown)")
                return
            }
            #expect(picture.size.columns <= 20 && picture.size.rows <= 10 && rows.count == picture.size.rows)
            #expect(rows.allSatisfy { $0.count == picture.size.columns && $0.allSatisfy { $0.character == "▀" } })
            let none = await performer.perform(.cardPicture(id: "demo-02", revision: CardRevision(1), box: box))
            guard case .failure = none else {
                Issue.record("a card without an image got a picture: \(none)")
                return
            }
            let card = try #require(try await performer.perform(.loadCard(id: "demo-02")).get().card)
            let roomy = try await performer.perform(.qrCode(card, fits: PictureBox(columns: 200, rows: 100))).get()
            let tight = try await performer.perform(.qrCode(card, fits: PictureBox(columns: 60, rows: 30))).get()
            let whole = try #require(roomy.qrSymbol)
            let small = try #require(tight.qrSymbol)
            #expect(whole.note == nil)
            #expect(small.sideWithQuietZone <= 60 || small.note != nil)
            #expect(small.size < whole.size)
            #expect(QRMaker.text(for: card)?.contains("FN:김민준") == true)
        }
    }
}

extension CallResult {
    fileprivate var card: Card? {
        if case .card(let card) = self { card } else { nil }
    }

    fileprivate var importPreview: ImportPreview? {
        if case .importPreview(let preview) = self { preview } else { nil }
    }

    fileprivate var qrSymbol: QRSymbol? {
        if case .qrSymbol(let symbol) = self { symbol } else { nil }
    }
}
