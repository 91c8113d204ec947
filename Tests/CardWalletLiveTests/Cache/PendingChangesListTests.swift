import CardCache
import CardModels
import Foundation
import Testing

@testable import CardWalletLive

/// The list the interface reads from the cache while changes wait in the outbox shows them:
/// an offline retry reloading the list (or the next start) must not undo them on screen.
@Suite struct PendingChangesListTests {
    static let date = Date(timeIntervalSince1970: 1_795_000_000)

    static func card(_ id: String, _ name: String) -> CardSummary {
        CardSummary(id: id, name: name, updatedAt: date, revision: CardRevision(3))
    }

    static func entry(_ id: Int64, _ change: OutboxChange) -> OutboxEntry {
        OutboxEntry(
            id: id, change: change, state: .pending, attempts: 1, lastError: nil, createdAt: date, updatedAt: date)
    }

    static let cached = [card("a", "Ada"), card("b", "Bo"), card("c", "Cy")]

    @Test func anAdditionJoinsTheEndUnderItsLocalID() {
        let fields = CardFields(name: "Offline Person", title: "QA", email: "o@example.com")
        let shown = CachedWallet.applying(
            [Self.entry(1, .add(localID: "local:1", fields: fields, image: nil))], to: Self.cached)
        #expect(shown.map(\.id) == ["a", "b", "c", "local:1"])
        #expect(shown.last?.name == "Offline Person")
        #expect(shown.last?.title == "QA")
        #expect(shown.last?.email == "o@example.com")
    }

    @Test func anEditShowsItsFieldsAndADeleteRemovesTheCard() {
        let shown = CachedWallet.applying(
            [
                Self.entry(
                    1,
                    .edit(
                        cardID: "b", fields: CardFields(name: "Bo (offline)", company: "Elsewhere"),
                        baseRevision: CardRevision(3))),
                Self.entry(2, .delete(cardID: "a", baseRevision: CardRevision(3))),
            ], to: Self.cached)
        #expect(shown.map(\.id) == ["b", "c"])
        #expect(shown.first?.name == "Bo (offline)")
        #expect(shown.first?.company == "Elsewhere")
        #expect(shown.first?.revision == CardRevision(3), "the version stays the server's until it answers")
    }

    @Test func aReorderPutsTheNamedCardsFirstAndTheOthersAfterInTheirOrder() {
        let shown = CachedWallet.applying([Self.entry(1, .reorder(["c", "a"]))], to: Self.cached)
        #expect(shown.map(\.id) == ["c", "a", "b"])
    }

    @Test func changesApplyInTheirOrderAndAnUnknownCardIsSkipped() {
        let fields = CardFields(name: "New")
        let shown = CachedWallet.applying(
            [
                Self.entry(1, .add(localID: "local:9", fields: fields, image: nil)),
                Self.entry(2, .reorder(["local:9"])),
                Self.entry(3, .edit(cardID: "gone", fields: fields, baseRevision: CardRevision(1))),
                Self.entry(4, .add(localID: "local:9", fields: fields, image: nil)),
            ], to: Self.cached)
        #expect(shown.map(\.id) == ["local:9", "a", "b", "c"])
    }
}
