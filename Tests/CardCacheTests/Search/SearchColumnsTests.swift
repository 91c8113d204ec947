import CardCache
import CardModels
import Foundation
import GRDB
import Testing

/// The full-text tables have one column per searched field of the descriptors, whatever the
/// migrations made: a cache whose tables were made for other fields (a cardwallet before a field
/// was added, or after one was removed) gets them made again when it is opened, every card put on
/// the backlog, and finds every card by every field at the next search. No numbered migration.
@Suite struct SearchColumnsTests {
    @Test func theTablesHaveTheDescriptorsSearchedFieldsInOrder() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        cache.close()
        #expect(try world.searchColumns("cardSearch") == CardField.searched.map(\.key))
        #expect(try world.searchColumns("cardWords") == CardField.searched.map(\.key))
    }

    @Test func tablesOfOtherFieldsAreMadeAgainAndEveryCardIsFoundByEveryField() throws {
        let world = try CacheWorld()
        var cache = try world.open()
        try cache.storeList(Cards.wallet.map(\.summary), confirmedAt: Cards.date)
        try cache.storeCards(Cards.wallet, confirmedAt: Cards.date)
        cache.close()

        // As a cardwallet that did not search the bio and had a field since removed would have
        // left them.
        let older = CardField.searched.map(\.key).filter { $0 != "bio" } + ["retired"]
        try world.remakeSearchTables(columns: older)
        #expect(try world.searchColumns("cardSearch") == older)

        cache = try world.open()
        #expect(world.warnings.isEmpty, "not moved aside: \(world.warnings)")
        #expect(try world.searchColumns("cardSearch") == CardField.searched.map(\.key))
        #expect(try world.searchColumns("cardWords") == CardField.searched.map(\.key))
        #expect(try cache.backlogCount() == Cards.wallet.count, "every card waits to be indexed again")
        let hit = try #require(try cache.search("compilers").hits.first)
        #expect(hit.cardID == "c-jisoo" && hit.field == .bio)
        #expect(try cache.search("moth").hits.map(\.cardID) == ["c-grace"])
        #expect(try cache.search("5550").hits.map(\.cardID) == ["c-minjun"])
        #expect(try cache.backlogCount() == 0)
        cache.close()

        // The next opening finds them current: nothing made again, nothing on the backlog.
        cache = try world.open()
        #expect(try cache.backlogCount() == 0)
        cache.close()
    }
}

extension CacheWorld {
    /// The columns of full-text table `table`, read with a connection of its own.
    func searchColumns(_ table: String) throws -> [String] {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        return try queue.read {
            try String.fetchAll($0, sql: "SELECT name FROM pragma_table_info(?)", arguments: [table])
        }
    }

    /// Makes both full-text tables again with `columns`, empty.
    func remakeSearchTables(columns: [String]) throws {
        let queue = try DatabaseQueue(path: path)
        defer { try? queue.close() }
        try queue.write { db in
            let list = columns.joined(separator: ", ")
            try db.execute(sql: "DROP TABLE cardSearch")
            try db.execute(sql: "DROP TABLE cardWords")
            try db.execute(sql: "CREATE VIRTUAL TABLE cardSearch USING fts5(\(list), tokenize = 'trigram')")
            try db.execute(sql: "CREATE VIRTUAL TABLE cardWords USING fts5(\(list), prefix = '1 2')")
        }
    }
}
