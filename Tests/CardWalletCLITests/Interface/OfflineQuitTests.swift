import CardModels
import Foundation
import Testing

@testable import CardWalletUI
@testable import cardwallet

/// Quitting the interface with changes made offline still in the cache's outbox says they are
/// kept and sent next time (issue 17).
@Suite struct OfflineQuitTests {
    @Test func quittingWithChangesMadeOfflineSaysTheyAreKept() {
        var state = AppState(server: "http://127.0.0.1:8080/v1")
        #expect(TerminalApp.unsentChanges(state, allSent: true).isEmpty)
        let card = Card(
            id: "local:1", fields: CardFields(name: "Offline"), createdAt: Date(), updatedAt: Date(),
            revision: CardRevision(0))
        state.offlineChanges.note(.createCard(card.fields, imagePath: nil), .card(card))
        state.offlineChanges.note(.deleteCard(id: "demo-02"), .deleted(id: "demo-02", backup: nil))
        let lines = TerminalApp.unsentChanges(state, allSent: true)
        #expect(
            lines == [
                "2 changes made offline are kept in the cache and will be sent the next time the server can be reached "
                    + "(or by `cardwallet sync`)"
            ])
    }

    @Test func quittingWithAnOfflineConflictUnresolvedSaysItComesBack() {
        var state = AppState(server: "http://127.0.0.1:8080/v1")
        let card = Card(
            id: "demo-02", fields: CardFields(name: "Grace"), createdAt: Date(), updatedAt: Date(),
            revision: CardRevision(3))
        var mine = card.fields
        mine.title = "Edited offline"
        state.offlineConflicts = [
            OfflineConflict(entry: 4, fields: mine, original: card.fields, baseRevision: CardRevision(2), server: card)
        ]
        #expect(
            TerminalApp.unsentChanges(state, allSent: true) == [
                "1 change made offline conflicts with the server's version and is kept in the cache, unsent: "
                    + "the wallet asks you to choose at the next start"
            ])
    }
}
