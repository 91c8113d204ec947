import CardModels
import Foundation
import Testing

@testable import CardWalletUI

/// The list on the local cache (issue 17): the cached first frame, offline from the cache with
/// retries on the ticks' clock, back online by itself.
@Suite struct CacheStateTests {
    /// 2026-11-29 14:02:30 UTC.
    private let confirmed = Date(timeIntervalSince1970: 1_795_960_950)

    private func cachedPage(_ count: Int) -> CardPage {
        CardPage(cards: SampleCards.summaries(count: count), total: count, offset: 0, limit: count)
    }

    /// A restored session whose first page is on its way.
    private func restored() -> (AppState, CallID) {
        var state = AppState(server: testServer)
        let effects = state.reduce(.session(.loggedIn(email: testEmail, server: testServer)))
        let (id, _) = AppState.lastRequest(effects)!
        return (state, id)
    }

    @Test func theCachedWalletPaintsTheFirstFrameAndTheServersPageReplacesIt() throws {
        var (state, id) = restored()
        #expect(state.reduce(.cachedWallet(cachedPage(3), asOf: confirmed)).isEmpty)
        #expect(state.list.cards.loadedCount == 3)
        #expect(state.list.isLoadingPage, "the server's page is still awaited")
        #expect(state.connection == .cached(asOf: confirmed))
        #expect(Renderer.render(state).text.contains("cached 14:02 · \(testEmail)"))
        #expect(Renderer.render(state).text.contains(SampleCards.summaries(count: 3)[2].name))

        let server = CardPage(cards: SampleCards.summaries(count: 5), total: 5, offset: 0, limit: 100)
        _ = state.reduce(.completed(id, .success(.cards(server))))
        #expect(state.list.cards.loadedCount == 5, "the server's cards replace the cached ones in one step")
        #expect(state.connection == .online)
        #expect(!Renderer.render(state).text.contains("cached"))
    }

    /// The cursor moved over the cache's cards stays on its card when the server's replace
    /// them (it went back to the first row: a clean-clone e2e-books run opened the wrong card).
    @Test func theCursorMovedOverTheCachedCardsStaysOnItsCardWhenTheServersArrive() throws {
        var (state, id) = restored()
        _ = state.reduce(.cachedWallet(cachedPage(4), asOf: confirmed))
        _ = state.press(.char("j"))
        _ = state.press(.char("j"))
        let chosen = try #require(state.list.selectedCard)
        #expect(chosen.id == SampleCards.summaries(count: 4)[2].id)

        // The server has one card more, before the chosen one.
        var cards = SampleCards.summaries(count: 5)
        cards.insert(cards.removeLast(), at: 0)
        _ = state.reduce(.completed(id, .success(.cards(CardPage(cards: cards, total: 5, offset: 0, limit: 100)))))
        #expect(state.list.selectedCard?.id == chosen.id)
        #expect(state.list.selection == 3)
    }

    @Test func aCachedWalletAfterTheServersAnswerIsIgnored() throws {
        var (state, id) = restored()
        let server = CardPage(cards: SampleCards.summaries(count: 5), total: 5, offset: 0, limit: 100)
        _ = state.reduce(.completed(id, .success(.cards(server))))
        _ = state.reduce(.cachedWallet(cachedPage(2), asOf: confirmed))
        #expect(state.list.cards.loadedCount == 5)
        #expect(state.connection == .online)
    }

    @Test func offlineSaysSoAndRetriesWithBackoffUntilTheServerIsBack() throws {
        var (state, id) = restored()
        _ = state.reduce(.completed(id, .success(.cachedCards(cachedPage(4), asOf: confirmed))))
        #expect(state.list.cards.loadedCount == 4, "the list works from the cache")
        #expect(state.connection.isOffline)
        let text = Renderer.render(state).text
        #expect(text.contains("offline — cards as of 14:02"))

        // Nothing before the wait is over; then one reload, and no second one while it runs.
        var waits: [Duration] = []
        var now: Duration = .zero
        var retries = 0
        while retries < 7 {
            let before = now
            var effects: [Effect] = []
            while effects.isEmpty {
                now += .milliseconds(250)
                effects = state.reduce(.tick(now: now))
                #expect(now - before <= .seconds(31), "never waits longer than 30 s")
                if now - before > .seconds(31) { return }
            }
            waits.append(now - before)
            let (retry, call) = try #require(AppState.lastRequest(effects))
            #expect(call == .loadCards(offset: 0, limit: 100, query: nil))
            #expect(state.reduce(.tick(now: now + .seconds(60))).isEmpty, "one try at a time")
            now += .seconds(60)
            retries += 1
            if retries < 7 {
                _ = state.reduce(.completed(retry, .success(.cachedCards(cachedPage(4), asOf: confirmed))))
            } else {
                // The server is back.
                let server = CardPage(cards: SampleCards.summaries(count: 6), total: 6, offset: 0, limit: 100)
                _ = state.reduce(.completed(retry, .success(.cards(server))))
            }
        }
        #expect(waits.map { $0.components.seconds } == [1, 2, 4, 8, 16, 30, 30])
        #expect(state.connection == .online)
        #expect(state.list.cards.loadedCount == 6, "refreshed from the server")
        #expect(state.message?.text.contains("Back online") == true)
        #expect(!Renderer.render(state).text.contains("offline"))
    }

    @Test func theClockIsLocal() {
        #expect(Connection.clock(confirmed, 9 * 3600) == "23:02")
        #expect(Connection.clock(confirmed, -15 * 3600) == "23:02")
        #expect(
            Connection.offline(asOf: confirmed, retryAt: .zero, delay: .seconds(1)).statusText(utcOffsetSeconds: 0)
                == "offline — cards as of 14:02")
    }
}

@Suite struct OfflineChangeTests {
    @Test func changesMadeOfflineAreMarkedPendingUntilTheServerHasThem() throws {
        var state = AppState.loggedIn(cards: 3)
        let confirmed = Date(timeIntervalSince1970: 1_795_960_950)
        // Offline: the reload answers from the cache.
        var effects = state.press(.char("r"))
        var (id, _) = try #require(AppState.lastRequest(effects))
        let page = CardPage(cards: SampleCards.summaries(count: 3), total: 3, offset: 0, limit: 3)
        _ = state.reduce(.completed(id, .success(.cachedCards(page, asOf: confirmed))))
        #expect(state.connection.isOffline)

        // An edit made offline: kept in the outbox, shown, marked pending.
        effects = state.press(.char("e"))
        (id, _) = try #require(AppState.lastRequest(effects))
        var card = SampleCards.card(SampleCards.summaries(count: 3)[0])
        effects = state.reduce(.completed(id, .success(.card(card))))
        card.fields.name += "x"
        state.type("x")
        effects = state.press(.ctrl("s"))
        let (save, call) = try #require(AppState.lastRequest(effects))
        guard case .updateCard = call else {
            Issue.record("not a save: \(call)")
            return
        }
        _ = state.reduce(.completed(save, .success(.queued(.card(card)))))
        #expect(state.offlineChanges.count == 1)
        #expect(state.offlineChanges.cardIDs == [card.id])
        #expect(state.screen == .list)
        let row = Renderer.render(state).text.split(separator: "\n").first { $0.contains(card.fields.name) }
        #expect(row?.hasPrefix("↑") == true, "the pending mark: \(row ?? "")")

        // Back online: the glue sent the outbox before reading the list.
        var now: Duration = .zero
        effects = []
        while effects.isEmpty, now < .seconds(5) {
            now += .milliseconds(500)
            effects = state.reduce(.tick(now: now))
        }
        (id, _) = try #require(AppState.lastRequest(effects))
        _ = state.reduce(.completed(id, .success(.cards(page))))
        #expect(state.offlineChanges.count == 0)
        #expect(state.message?.text.contains("changes made offline were sent") == true)
    }

    /// A delete made offline waits in the outbox like any change, and `u` brings the card back
    /// from the copy the glue read (from the cache): as an addition waiting too.
    @Test func aDeleteMadeOfflineWaitsAndCanBeUndone() throws {
        var state = AppState.loggedIn(cards: 3)
        let card = SampleCards.card(SampleCards.summaries(count: 3)[1])
        state.press(.char("j"))
        var effects = state.press(.char("d"), .char("y"))
        var (id, call) = try #require(AppState.lastRequest(effects))
        #expect(call == .deleteCard(id: card.id))
        let backup = DeletedCard(card: card, image: nil)
        state.send(.completed(id, .success(.queued(.deleted(id: card.id, backup: backup)))))
        #expect(state.offlineChanges.count == 1)
        #expect(!state.list.cards.walletIDs.contains(card.id))
        #expect(state.message?.text == "Deleted “\(card.fields.name)” · u brings it back")

        effects = state.press(.char("u"))
        (id, call) = try #require(AppState.lastRequest(effects))
        #expect(call == .restoreCard(backup))
        var local = card
        local.id = "local-1"
        state.send(.completed(id, .success(.queued(.card(local)))))
        #expect(state.list.cards.walletIDs.contains("local-1"))
        #expect(state.offlineChanges.count == 2)
        let row = Renderer.render(state).text.split(separator: "\n").first { $0.contains(card.fields.name) }
        #expect(row?.hasPrefix("↑") == true, "pending: \(row ?? "")")
    }
}

@Suite struct CacheSearchTests {
    @Test func theFilterAsksTheCacheAndItsMatchesJoinTheInMemoryOnes() throws {
        var state = AppState.loggedIn(cards: 5)
        state.searchesCache = true
        _ = state.press(.char("/"))
        let effects = state.type("zz")
        // One search per change of the text, the newest last.
        let searches = effects.compactMap { effect -> (CallID, String)? in
            if case .perform(let id, .searchCache(let query)) = effect { (id, query) } else { nil }
        }
        #expect(searches.map(\.1) == ["z", "zz"])
        #expect(state.list.cards.rows.isEmpty, "no name, company, title or email holds zz")
        // An older answer is ignored; the current one adds the cards matching in other fields.
        let cards = SampleCards.summaries(count: 5)
        _ = state.reduce(.completed(searches[0].0, .success(.cacheMatches(query: "z", ids: [cards[1].id]))))
        #expect(state.list.cards.rows.isEmpty)
        _ = state.reduce(
            .completed(searches[1].0, .success(.cacheMatches(query: "zz", ids: [cards[3].id, cards[1].id, "unknown"]))))
        #expect(state.list.cards.rows.map { state.list.cards.summary(atIndex: $0).id } == [cards[1].id, cards[3].id])
    }

    @Test func theFieldThatMatchedIsShownForItsTextOnly() throws {
        var state = AppState.loggedIn(cards: 5)
        state.searchesCache = true
        _ = state.press(.char("/"))
        let cards = SampleCards.summaries(count: 5)
        var (id, call) = try #require(AppState.lastRequest(state.type("5550")))
        #expect(call == .searchCache(query: "5550"))
        let phone = FieldMatch(field: .phone, excerpt: "5550\u{1B}0100")
        let title = FieldMatch(field: .title, excerpt: "5550 team")
        _ = state.reduce(
            .completed(
                id,
                .success(
                    .cacheMatches(
                        query: "5550", ids: [cards[2].id, cards[4].id],
                        fields: [cards[2].id: phone, cards[4].id: title]))))
        #expect(state.list.fieldMatches == FieldMatches(query: "5550", byID: [cards[2].id: phone, cards[4].id: title]))
        let rows = Renderer.render(state).text.split(separator: "\n")
        let phoneRow = try #require(rows.first { $0.contains(cards[2].name) })
        #expect(
            phoneRow.trimmingCharacters(in: .whitespaces).hasSuffix("phone: 5550^[0100"),
            "escaped, at the end of the row: \(phoneRow)")
        // The title is a column at 80 columns: no note.
        let titleRow = try #require(rows.first { $0.contains(cards[4].name) })
        #expect(!titleRow.contains("title:"), "\(titleRow)")

        // One more key: the old text's fields are not shown for the new text.
        (id, call) = try #require(AppState.lastRequest(state.type("9")))
        #expect(call == .searchCache(query: "55509"))
        #expect(state.list.fieldMatches.match(for: cards[2].id, query: state.list.cards.query) == nil)
        #expect(!Renderer.render(state).text.contains("phone:"))
        // An answer for an older text changes nothing.
        _ = state.reduce(.completed(id, .success(.cacheMatches(query: "5550", ids: [cards[2].id], fields: [:]))))
        #expect(state.list.fieldMatches.query == "5550")
    }

    @Test func withoutACacheTheFilterStaysInMemory() {
        var state = AppState.loggedIn(cards: 5)
        _ = state.press(.char("/"))
        #expect(state.type("zz").isEmpty)
    }
}
