import CardAPI
import CardCache
import CardMockServer
import CardModels
import CardWalletLive
import CardWalletUI
import Foundation
import LiveTestSupport
import Logging
import Networking
import TestSupport
import Testing

/// The interface's cache holds whole cards and the pictures it showed (issue 17): after the
/// list, the whole cards are read in the background; a picture shown online is kept by card
/// version; offline, the export writes every card and the detail view shows the kept picture.
@Suite(.serialized)
struct WholeCardFillGlueTests {
    private static let logger = Logger(label: "test.whole-cards")

    @Test func wholeCardsAndShownPicturesServeTheInterfaceOffline() async throws {
        try await GlueHarness.with { harness in
            let (_, performer) = try await harness.loggedInPerformerWithCache(logger: Self.logger)
            let page = await performer.perform(.loadCards(offset: 0, limit: 100, query: nil))
            guard case .success(.cards(let listed)) = page else {
                Issue.record("no list: \(page)")
                return
            }
            #expect(listed.cards.count == 12)
            // In the background, behind the list: every whole card, each read once.
            await performer.accounts.settleBackgroundReads()
            let cache = try #require(await performer.accounts.cachedWallet()?.cache)
            #expect(try cache.state().fullCards == 12)
            // In one batch (`GET /cards/whole`), none one by one.
            #expect(harness.server.statistics.count("GET /cards/whole") == 1)
            #expect(harness.server.statistics.count("GET /card/{cardId}") == 0)

            // The detail view shows demo-01's picture online: kept for its version.
            let pictured = try #require(listed.cards.first { $0.id == "demo-01" })
            let box = PictureBox(columns: 16, rows: 8)
            let online = await performer.perform(.cardPicture(id: pictured.id, revision: pictured.revision, box: box))
            guard case .success(.picture(let shown)) = online else {
                Issue.record("no picture online: \(online)")
                return
            }
            #expect(try cache.image(cardID: pictured.id)?.revision == pictured.revision)

            // The server goes away. A new interface (nothing in memory) on the same cache.
            await harness.server.stop()
            let offline = CallPerformer(accounts: harness.accounts(cache: harness.cacheLocation, logger: Self.logger))
            let again = await offline.perform(.cardPicture(id: pictured.id, revision: pictured.revision, box: box))
            #expect(again == .success(.picture(shown)), "the cached picture, offline")
            let other = try #require(listed.cards.first { $0.id == "demo-06" })
            let never = await offline.perform(.cardPicture(id: other.id, revision: other.revision, box: box))
            guard case .failure(let failure) = never else {
                Issue.record("a picture never shown cannot be had offline: \(never)")
                return
            }
            #expect(failure.message.contains("not cached"), "\(failure)")

            // Export of every card, offline: all twelve, whole, the kept picture inside.
            let path = harness.folder.path("all.vcf")
            let export = await offline.perform(.exportCards(ExportRequest(cards: .all, path: path, format: .vcard3)))
            #expect(export == .success(.exported(count: 12, path: path)), "\(export)")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(text.components(separatedBy: "BEGIN:VCARD").count - 1 == 12)
            #expect(text.components(separatedBy: "PHOTO;").count - 1 == 1, "only the picture kept")
            #expect(text.contains("파이프라인"), "a field only the whole card holds (demo-02's bio)")
        }
    }

    @Test func anOfflineExportOfCardsKnownOnlyFromTheListNamesThemAndWritesNothing() async throws {
        try await GlueHarness.with { harness in
            let (_, performer) = try await harness.loggedInPerformerWithCache(logger: Self.logger)
            // The list cached by a script (no background reads): list entries only.
            let wallet = try #require(await performer.accounts.cachedWallet())
            _ = try await wallet.list(.online)
            await harness.server.stop()
            let path = harness.folder.path("some.vcf")
            let export = await performer.perform(
                .exportCards(ExportRequest(cards: .ids(["demo-01", "demo-02"]), path: path, format: .vcard3)))
            guard case .failure(let failure) = export else {
                Issue.record("exported list entries: \(export)")
                return
            }
            #expect(failure.message.contains("2 cards are cached only as a list entry"), "\(failure)")
            #expect(failure.message.contains("“Ada Lovelace” (demo-01)"), "\(failure)")
            #expect(!FileManager.default.fileExists(atPath: path), "nothing written")
        }
    }
}
