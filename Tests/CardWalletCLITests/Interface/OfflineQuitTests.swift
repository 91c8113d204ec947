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
            id: "local:1", fields: CardFields(name: "Offline"), createdAt: Date(), updatedAt: Date(), version: 0)
        state.offlineChanges.note(.createCard(card.fields, imagePath: nil), .card(card))
        state.offlineChanges.note(.deleteCard(id: "demo-02"), .deleted(id: "demo-02", backup: nil))
        let lines = TerminalApp.unsentChanges(state, allSent: true)
        #expect(
            lines == [
                "2 changes made offline are kept in the cache and will be sent the next time the server can be reached "
                    + "(or by `cardwallet sync`)"
            ])
    }
}
