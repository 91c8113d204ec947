import CardModels
import Foundation
import Testing

@testable import CardWalletUI

/// An edit made offline whose card changed on the server meanwhile (issue 17): when the outbox
/// is sent, the server refuses it (E07) and the form's conflict view opens with the person's
/// offline text and the server's card; the person's choice resolves the outbox entry.
@Suite struct OfflineConflictTests {
    /// The first sample card, its offline edit (a new title) and the server's newer version
    /// (someone changed the company meanwhile).
    private static func conflict(entry: Int64 = 7, card number: Int = 0) -> OfflineConflict {
        let card = SampleCards.card(SampleCards.summaries(count: 3)[number])
        var mine = card.fields
        mine.title = "Edited offline"
        var server = card
        server.revision = CardRevision((card.revision.number ?? 0) + 1)
        server.fields.company = "Changed on the server"
        return OfflineConflict(
            entry: entry, fields: mine, original: card.fields, baseRevision: card.revision, server: server)
    }

    /// A list whose reload (the app back online) answers with `conflicts`.
    private static func backOnline(with conflicts: [OfflineConflict]) throws -> (AppState, [Effect]) {
        var state = AppState.loggedIn(cards: 3)
        let (id, _) = try #require(AppState.lastRequest(state.press(.char("r"))))
        let page = CardPage(cards: SampleCards.summaries(count: 3), total: 3, offset: 0, limit: 100)
        let effects = state.reduce(.completed(id, .success(.withOfflineConflicts(conflicts, .cards(page)))))
        return (state, effects)
    }

    private static func requests(_ effects: [Effect]) -> [AppCall] {
        effects.compactMap { if case .perform(_, let call) = $0 { call } else { nil } }
    }

    @Test func theConflictViewOpensWithYourOfflineTextAndTheServersCard() throws {
        let conflict = Self.conflict()
        let (state, effects) = try Self.backOnline(with: [conflict])
        #expect(effects.contains(.discardTypeahead), "keys typed for the list do not land in the form")
        #expect(state.screen == .form)
        let form = try #require(state.form)
        #expect(form.offlineEntry == 7)
        #expect(form.conflict == conflict.server)
        #expect(form.cardFields.title == "Edited offline", "your offline change is kept")
        #expect(form.cardFields.company == "Changed on the server", "the server's change is taken, not undone")
        let title = try #require(form.fields.firstIndex { $0.kind == .card(.title) })
        #expect(form.conflictMark(at: title) == .changedByYou)
        let company = try #require(form.fields.firstIndex { $0.kind == .card(.company) })
        #expect(form.conflictMark(at: company) == .takenFromServer)
        #expect(state.list.cards.loadedCount == 3, "the list loaded as usual beneath")
        let text = Renderer.render(state).text
        #expect(text.contains("Server, version \(conflict.server.revision)"))
        #expect(text.contains("Changed on the server while you were offline: your edit was not sent"))
        #expect(state.message?.text.contains("Enter sends yours, Esc keeps theirs") == true)
        #expect(state.offlineConflicts.isEmpty)
    }

    @Test func savingSendsYoursOnceOverTheServersVersionThenResolvesTheEntry() throws {
        let conflict = Self.conflict()
        var (state, _) = try Self.backOnline(with: [conflict])
        let effects = state.press(.ctrl("s"))
        let saves = Self.requests(effects)
        var expected = conflict.server.fields
        expected.title = "Edited offline"
        #expect(
            saves == [.updateCard(id: conflict.server.id, fields: expected, revision: conflict.server.revision)],
            "one save, with the server's version as If-Match")
        let (save, _) = try #require(AppState.lastRequest(effects))
        var saved = conflict.server
        saved.fields = expected
        saved.revision = CardRevision((saved.revision.number ?? 0) + 1)
        let after = state.reduce(.completed(save, .success(.card(saved))))
        #expect(Self.requests(after) == [.resolveOfflineEdit(entry: 7, keptMine: true)])
        #expect(state.screen == .list)
        #expect(state.form == nil)
        #expect(state.message?.text.contains("Saved") == true)
    }

    @Test func leavingKeepsTheServersVersionAndDropsTheEntryWithoutSending() throws {
        var (state, _) = try Self.backOnline(with: [Self.conflict()])
        #expect(state.press(.escape).isEmpty)
        guard case .confirm(let question) = state.modal else {
            Issue.record("no question: \(String(describing: state.modal))")
            return
        }
        #expect(question.purpose == .dropOfflineChange)
        #expect(question.question.contains("drop the change you made offline"))
        let effects = state.press(.char("y"))
        #expect(
            Self.requests(effects) == [.resolveOfflineEdit(entry: 7, keptMine: false)], "nothing sent to the server")
        #expect(state.screen == .list)
        #expect(state.message?.text.contains("Kept the server's version") == true)
    }

    @Test func takingTheServersVersionThenLeavingDropsTheEntry() throws {
        var (state, _) = try Self.backOnline(with: [Self.conflict()])
        _ = state.press(.ctrl("g"))
        #expect(state.form?.cardFields.title != "Edited offline")
        let effects = state.press(.escape)
        #expect(state.modal == nil, "nothing typed is lost: no question")
        #expect(Self.requests(effects) == [.resolveOfflineEdit(entry: 7, keptMine: false)])
        #expect(state.screen == .list)
    }

    @Test func conflictsWaitForTheListAndOpenOneAtATime() throws {
        var state = AppState.loggedIn(cards: 3)
        let (id, _) = try #require(AppState.lastRequest(state.press(.char("r"))))
        // A card is opened while the list reloads: the conflict view does not take its place.
        _ = state.press(.enter)
        #expect(state.screen == .detail)
        let page = CardPage(cards: SampleCards.summaries(count: 3), total: 3, offset: 0, limit: 100)
        let conflicts = [Self.conflict(entry: 7), Self.conflict(entry: 8, card: 1)]
        _ = state.reduce(.completed(id, .success(.withOfflineConflicts(conflicts, .cards(page)))))
        #expect(state.screen == .detail)
        #expect(state.offlineConflicts.map(\.entry) == [7, 8])
        // Told again (a later list): not offered twice.
        state.noteOfflineConflicts(conflicts)
        #expect(state.offlineConflicts.map(\.entry) == [7, 8])

        _ = state.press(.char("q"))
        #expect(state.form?.offlineEntry == 7)
        state.noteOfflineConflicts(conflicts)
        #expect(state.offlineConflicts.map(\.entry) == [8], "the open one is not queued again")
        _ = state.press(.escape)
        _ = state.press(.char("y"))
        #expect(state.form?.offlineEntry == 8, "the next one opens once the first is resolved")
    }
}

/// Starting offline with nothing cached for the account (issue 17): a clear message, and the
/// same retries as offline with a cache, instead of an empty list that waits for `r`.
@Suite struct OfflineNothingCachedTests {
    @Test func itSaysSoAndKeepsRetryingWithBackoffUntilTheServerAnswers() throws {
        var state = AppState(server: testServer)
        var effects = state.reduce(.session(.loggedIn(email: testEmail, server: testServer)))
        var (id, _) = try #require(AppState.lastRequest(effects))
        _ = state.reduce(.completed(id, .success(.offlineNothingCached)))
        #expect(state.connection == .offline(asOf: nil, retryAt: .seconds(1), delay: .seconds(1)))
        let text = Renderer.render(state).text
        #expect(text.contains("offline — no cards cached yet"))
        #expect(text.contains("no cards cached yet for this account: retrying"))
        #expect(state.message?.text.contains("no cards are cached for this account yet") == true)

        var now: Duration = .zero
        var waits: [Int64] = []
        for attempt in 0..<4 {
            let before = now
            effects = []
            while effects.isEmpty, now - before <= .seconds(31) {
                now += .milliseconds(250)
                effects = state.reduce(.tick(now: now))
            }
            waits.append((now - before).components.seconds)
            (id, _) = try #require(AppState.lastRequest(effects))
            #expect(Renderer.render(state).text.contains("no cards cached yet for this account: retrying"))
            if attempt < 3 {
                _ = state.reduce(.completed(id, .success(.offlineNothingCached)))
            } else {
                let page = CardPage(cards: SampleCards.summaries(count: 2), total: 2, offset: 0, limit: 100)
                _ = state.reduce(.completed(id, .success(.cards(page))))
            }
        }
        #expect(waits == [1, 2, 4, 8])
        #expect(state.connection == .online)
        #expect(state.list.cards.loadedCount == 2)
        #expect(state.message?.text.contains("Back online") == true)
    }
}
