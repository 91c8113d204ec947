import CardCache
import CardModels
import Foundation
import GRDB
import Testing

/// Cards a first sync stores with ``SearchIndexing/later`` are in no index until a search (or
/// the interface's background) indexes them: every search first empties the backlog, so it
/// always sees every card; a card changed or removed meanwhile is never found by its old text.
@Suite struct SearchBacklogTests {
    @Test func aSearchIndexesTheBacklogFirstAndFindsEveryCard() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        try cache.storeCards(Cards.wallet, confirmedAt: Cards.date, indexing: .later)
        #expect(try cache.backlogCount() == Cards.wallet.count)
        #expect(try world.indexRows() == 0, "nothing indexed yet")

        #expect(try cache.search("analytical").hits.map(\.cardID) == ["c-ada"])
        #expect(try cache.backlogCount() == 0)
        #expect(try world.indexRows() == Cards.wallet.count)
        // Every card, by a field only its whole card holds.
        for card in Cards.wallet {
            #expect(try cache.search(card.fields.name).hits.map(\.cardID).contains(card.id), "\(card.id)")
        }
    }

    @Test func theBacklogIsIndexedInBatchesWithProgress() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        let many = (0..<1_203).map { number in
            Cards.card("c-\(number)", "Person \(number)") { $0.bio = "row \(number)" }
        }
        try cache.storeCards(many, confirmedAt: Cards.date, indexing: .later)
        var seen: [Int] = []
        try cache.indexBacklog { seen.append($0) }
        #expect(seen == [500, 1_000, 1_203])
        #expect(try !cache.hasBacklog())
        #expect(try cache.indexSomeOfBacklog() == 0)
        #expect(try cache.search("person 1202").hits.map(\.cardID) == ["c-1202"])
    }

    @Test func aCardChangedOrRemovedWhileWaitingIsFoundAsItIsNow() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        let ada = Cards.wallet[0]
        // Indexed once as it was…
        try cache.storeCards([ada], confirmedAt: Cards.date)
        #expect(try cache.search("programmer").hits.map(\.cardID) == [ada.id])
        // …then changed by a sync that postpones its indexing: the old text is gone at once.
        var changed = ada
        changed.fields.title = "Countess"
        changed.revision = CardRevision(2)
        try cache.storeCards([changed], confirmedAt: Cards.date.addingTimeInterval(5), indexing: .later)
        #expect(try world.indexRows() == 0)
        #expect(try cache.search("programmer").hits.isEmpty)
        #expect(try cache.search("countess").hits.map(\.cardID) == [ada.id])

        // A card removed while it waits leaves the backlog with it.
        try cache.storeCards([Cards.wallet[1]], confirmedAt: Cards.date, indexing: .later)
        try cache.removeCard(id: Cards.wallet[1].id)
        #expect(try cache.backlogCount() == 0)
        // Listed again with a new summary before any search: indexed once, not twice.
        try cache.storeCards([Cards.wallet[2]], confirmedAt: Cards.date, indexing: .later)
        var renamed = Cards.wallet[2].summary
        renamed.name = "Renamed Person"
        renamed.revision = CardRevision(9)
        try cache.storeList([changed.summary, renamed], confirmedAt: Cards.date.addingTimeInterval(9))
        #expect(try cache.backlogCount() == 0)
        #expect(try cache.search("renamed").hits.map(\.cardID) == [Cards.wallet[2].id])
        #expect(try world.indexRows() == 2)
    }

    @Test func aWipeEmptiesTheBacklog() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        try cache.storeCards(Cards.wallet, confirmedAt: Cards.date, indexing: .later)
        _ = try cache.wipe()
        let reopened = try world.open()
        #expect(try reopened.backlogCount() == 0)
    }
}

extension CacheWorld {
    /// The rows of the trigram index, read with a connection of its own.
    func indexRows() throws -> Int {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read { try Int.fetchOne($0, sql: "SELECT count(*) FROM cardSearch") ?? 0 }
    }
}
