import CardCache
import CardModels
import Foundation
import GRDB
import Testing

@Suite("The wallet in the cache: list, cards, pictures, order, wipe")
struct WalletTests {
    @Test func aListComesBackInWalletOrderWithItsDate() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        #expect(try cache.list() == nil)
        let summaries = Cards.wallet.map(\.summary)
        try cache.storeList(summaries, confirmedAt: Cards.date)
        #expect(try cache.list() == CachedList(cards: summaries, confirmedAt: Cards.date))
        // A new list: one card gone, one new, one changed, the order changed.
        var changed = summaries[2]
        changed.name = "김민준 (Minjun)"
        changed.revision = CardRevision(2)
        let next = [
            summaries[3], changed, Cards.card("c-new", "New Card").summary, summaries[0], summaries[4], summaries[5],
        ]
        let later = Cards.date.addingTimeInterval(60)
        try cache.storeList(next, confirmedAt: later)
        #expect(try cache.list() == CachedList(cards: next, confirmedAt: later))
        #expect(try cache.card(id: "c-zoe") == nil)
        #expect(try cache.state().cards == 6)
    }

    @Test func aWholeCardKeepsItsVCardPropertiesAndKnowsWhenItIsStale() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        let grace = Cards.wallet[4]
        try cache.storeList(Cards.wallet.map(\.summary), confirmedAt: Cards.date)
        try cache.storeCard(grace, confirmedAt: Cards.date.addingTimeInterval(5))
        let cached = try #require(try cache.card(id: grace.id))
        #expect(cached.card == grace)
        #expect(cached.card.fields.vcardProperties.count == 2)
        #expect(cached.confirmedAt == Cards.date.addingTimeInterval(5))
        #expect(cached.isCurrent)
        // The list then shows version 2: the kept card is no longer the current one.
        var newer = grace.summary
        newer.revision = CardRevision(2)
        newer.name = "Grace B. Hopper"
        try cache.storeList(Cards.wallet.map(\.summary).map { $0.id == grace.id ? newer : $0 }, confirmedAt: Cards.date)
        #expect(try cache.card(id: grace.id)?.isCurrent == false)
        // An older answer arriving late changes nothing.
        try cache.storeCard(Cards.card(grace.id, "Old Grace", version: 1), confirmedAt: Cards.date)
        #expect(try cache.card(id: grace.id)?.card.fields.name == "Grace Hopper")
    }

    @Test func aCardReadBeforeAnyListGoesToTheEnd() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        try cache.storeCard(Cards.wallet[1], confirmedAt: Cards.date)
        #expect(try cache.list() == nil, "the whole list was never confirmed")
        try cache.storeList([Cards.wallet[0].summary], confirmedAt: Cards.date)
        try cache.storeCard(Cards.wallet[2], confirmedAt: Cards.date)
        #expect(try cache.list()?.cards.map(\.id) == ["c-ada", "c-minjun"])
    }

    /// A picture is replaced by what the server confirmed later, never by a revision's order
    /// (revisions are opaque: an ETag has none).
    @Test func picturesAreKeptByWhenTheServerConfirmedThemAndGoWithTheirCard() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        let png = Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3])
        #expect(
            try !cache.storeImage(
                cardID: "c-ada", revision: CardRevision(1), contentType: "image/png", data: png, confirmedAt: Cards.date
            ))
        try cache.storeList(Cards.wallet.map(\.summary), confirmedAt: Cards.date)
        #expect(
            try cache.storeImage(
                cardID: "c-ada", revision: CardRevision(3), contentType: "image/png", data: png, confirmedAt: Cards.date
            ))
        #expect(
            try !cache.storeImage(
                cardID: "c-ada", revision: CardRevision(rawValue: "\"zz\""), contentType: "image/png", data: Data([1]),
                confirmedAt: Cards.date.addingTimeInterval(-10)),
            "an answer the server gave before the kept one's is ignored")
        #expect(
            try cache.image(cardID: "c-ada")
                == CachedImage(data: png, contentType: "image/png", revision: CardRevision(3), confirmedAt: Cards.date))
        try cache.storeList(Array(Cards.wallet.map(\.summary).dropFirst()), confirmedAt: Cards.date)
        #expect(try cache.image(cardID: "c-ada") == nil)
        #expect(try cache.state().images == 0)
    }

    @Test func aNewOrderPutsTheNamedCardsFirst() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        try cache.storeList(Cards.wallet.map(\.summary), confirmedAt: Cards.date)
        try cache.storeOrder(["c-yuki", "c-minjun", "c-yuki"])
        #expect(try cache.list()?.cards.map(\.id) == ["c-yuki", "c-minjun", "c-ada", "c-zoe", "c-jisoo", "c-grace"])
        try cache.removeCard(id: "c-minjun")
        #expect(try cache.list()?.cards.map(\.id) == ["c-yuki", "c-ada", "c-zoe", "c-jisoo", "c-grace"])
    }

    @Test func wipingForgetsTheCardsButKeepsTheChangesMadeOffline() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        try cache.storeList(Cards.wallet.map(\.summary), confirmedAt: Cards.date)
        try cache.storeCards(Cards.wallet, confirmedAt: Cards.date)
        let change = OutboxChange.delete(cardID: "c-ada", baseRevision: CardRevision(1))
        try cache.enqueue(change)
        #expect(try cache.wipe() == 1)
        let reopened = try world.open()
        #expect(try reopened.list() == nil)
        #expect(try reopened.search("ada").total == 0)
        #expect(try reopened.state().cards == 0 && reopened.state().fullCards == 0)
        #expect(try reopened.pendingChanges().map(\.change) == [change], "the person's work is kept")
    }

    @Test func wipingForgetsEverythingAndRemovesTheFiles() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        let other = try world.open()
        try cache.storeList(Cards.wallet.map(\.summary), confirmedAt: Cards.date)
        try cache.storeCards(Cards.wallet, confirmedAt: Cards.date)
        #expect(try cache.wipe() == 0)
        for suffix in ["", "-wal", "-shm"] {
            #expect(!FileManager.default.fileExists(atPath: world.path + suffix), "\(suffix)")
        }
        // A handle another part of the program still holds sees nothing of the old wallet.
        #expect((try? other.list()) == nil)
        #expect((try? other.search("ada")) == nil || (try? other.search("ada"))?.total == 0)
        #expect(
            try world.open().state()
                == CacheState(listConfirmedAt: nil, cards: 0, fullCards: 0, images: 0, unsentChanges: 0))
    }

    @Test func wipingWithoutAHandleAndWithoutAFileIsFine() throws {
        let world = try CacheWorld()
        try CardCache.wipe(
            server: CacheWorld.server, account: CacheWorld.account, location: world.location, logger: world.logger)
        #expect(!FileManager.default.fileExists(atPath: world.location.folder))
        try world.open().storeCards(Cards.wallet, confirmedAt: Cards.date)
        try CardCache.wipe(
            server: CacheWorld.server, account: CacheWorld.account, location: world.location, logger: world.logger)
        #expect(!FileManager.default.fileExists(atPath: world.path))
    }
}

/// A whole card's source (a CardDAV card's vCard, photo included) is kept beside its record,
/// in `detailSource` (v5), never escaped into the record's JSON.
@Suite struct CardSourceColumnTests {
    static let vcard =
        "BEGIN:VCARD\r\nVERSION:3.0\r\nUID:u1\r\nFN:Ada Lovelace\r\nNOTE:a \"quoted\" note\\nwith a line\r\nEND:VCARD\r\n"

    static func card() -> Card {
        var card = Cards.card("u1.vcf", "Ada Lovelace")
        card.source = vcard
        card.revision = CardRevision(rawValue: "\"etag-1\"")
        return card
    }

    @Test func theSourceIsStoredApartAndReadBackWhole() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        try cache.storeCard(Self.card(), confirmedAt: Cards.date)
        #expect(try cache.card(id: "u1.vcf")?.card == Self.card())
        cache.close()

        let queue = try DatabaseQueue(path: world.path)
        let row = try #require(
            try queue.read { try Row.fetchOne($0, sql: "SELECT detail, detailSource FROM card WHERE id = 'u1.vcf'") })
        #expect((row[1] as String?) == Self.vcard)
        #expect(!(row[0] as String).contains("BEGIN:VCARD"), "the record's JSON holds no source")
    }

    @Test func aCardStoredBeforeTheColumnKeepsItsSource() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        try cache.storeCard(Self.card(), confirmedAt: Cards.date)
        cache.close()
        // As a cache written before v5 holds it: the source inside the record, no column.
        let queue = try DatabaseQueue(path: world.path)
        var record = try #require(
            try queue.read { try String.fetchOne($0, sql: "SELECT detail FROM card WHERE id = 'u1.vcf'") })
        let escaped = String(decoding: try JSONEncoder().encode(Self.vcard), as: UTF8.self)
        record.removeLast()
        record += ",\"source\":\(escaped)}"
        try queue.write {
            try $0.execute(sql: "UPDATE card SET detail = ?, detailSource = NULL", arguments: [record])
        }
        try queue.close()

        let reopened = try world.open()
        #expect(try reopened.card(id: "u1.vcf")?.card == Self.card())
        #expect(try reopened.search("lovelace").hits.map(\.cardID) == ["u1.vcf"])
    }
}
