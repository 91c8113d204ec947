import CardCache
import CardModels
import Foundation
import GRDB
import Testing

/// The cache files earlier cardwallets wrote.
enum CacheFixture {
    /// Every migration this cardwallet applies, in order.
    static let migrations = [
        "v1: cards, images, wallet, search, outbox",
        "v2: revisions are opaque text; the cache's own card encoding",
        "v3: outbox claims with a lease, idempotency keys of additions",
        "v4: groups of cards (a CardDAV book's group vCards)",
        "v5: a whole card's source beside its record; rows waiting to be indexed",
    ]

    /// A cache written by the cardwallet before revisions were opaque (the first schema): six
    /// summaries of `Cards.wallet`, the first four in full, a picture of c-ada (version 1), and
    /// four changes made offline (an addition, an edit of c-zoe, a delete of c-yuki, a reorder).
    static let firstSchema = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Fixtures/cache-v1.sqlite")
}

@Suite struct MigrationFixtureTests {
    @Test func aCacheOfTheFirstSchemaIsMigratedNotWiped() throws {
        let world = try CacheWorld()
        try FileManager.default.createDirectory(
            atPath: world.location.folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        try FileManager.default.copyItem(atPath: CacheFixture.firstSchema.path, toPath: world.path)
        chmod(world.path, 0o600)

        let cache = try world.open()
        #expect(world.warnings.isEmpty, "not moved aside: \(world.warnings)")
        let list = try #require(try cache.list())
        #expect(list.cards.map(\.id) == Cards.wallet.map(\.id))
        #expect(list.cards.allSatisfy { $0.revision == CardRevision(1) }, "versions became revisions")
        #expect(list.confirmedAt == Date(timeIntervalSince1970: 1_800_000_500))

        // The whole cards read back as they were stored, now from the cache's own encoding.
        let whole = try cache.cards(ids: Cards.wallet.map(\.id))
        #expect(whole.prefix(4).map { $0?.card } == Cards.wallet.prefix(4).map { Optional($0) })
        #expect(whole.suffix(2).allSatisfy { $0 == nil })
        #expect(whole.prefix(4).allSatisfy { $0?.isCurrent == true })
        #expect(try cache.search("analytical").hits.map(\.cardID) == ["c-ada"])

        let picture = try #require(try cache.image(cardID: "c-ada"))
        #expect(picture.revision == CardRevision(1))
        #expect(picture.data == Data([0x89, 0x50, 0x4E, 0x47, 1, 2, 3]))

        // The changes made offline are still there, with their base revisions.
        #expect(
            try cache.pendingChanges().map(\.change) == [
                .add(
                    localID: CardCache.localIDPrefix + "17",
                    fields: CardFields(name: "Offline Olga", email: "olga@example.com"), image: nil),
                .edit(
                    cardID: "c-zoe", fields: CardFields(name: "Zoë Dvořák", company: "SG"),
                    baseRevision: CardRevision(1)),
                .delete(cardID: "c-yuki", baseRevision: CardRevision(1)),
                .reorder(["c-grace", "c-ada"]),
            ])

        let queue = try DatabaseQueue(path: world.path)
        let applied = try queue.read { try String.fetchAll($0, sql: "SELECT identifier FROM grdb_migrations") }
        #expect(applied == CacheFixture.migrations)
    }
}
