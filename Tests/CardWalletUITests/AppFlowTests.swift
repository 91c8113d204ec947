import CardModels
import Foundation
import Testing

@testable import CardWalletUI

@Suite struct AppFlowTests {
    @Test func loginGoesToTheListAndLoadsTheFirstPage() throws {
        var state = AppState(server: testServer, email: testEmail, password: "pw", pageSize: 50)
        var effects = state.press(.enter)
        #expect(effects == [.perform(CallID(1), .logIn(server: testServer, email: testEmail, password: "pw"))])
        #expect(state.isBusy)
        // The session's news arrives first (the live session reports before the call returns):
        // it sets the status bar but does not leave the form while the login is in flight.
        #expect(state.send(.session(.loggedIn(email: testEmail, server: testServer))).isEmpty)
        #expect(state.screen == .login)
        effects = state.reduce(.completed(CallID(1), .success(.loggedIn(email: testEmail, server: testServer))))
        #expect(effects == [.perform(CallID(2), .loadCards(offset: 0, limit: 50, query: nil))])
        #expect(state.screen == .list)
        #expect(state.session == .loggedIn(email: testEmail, server: testServer))
        #expect(state.login.password.text.isEmpty)
        effects = state.reduce(
            .completed(CallID(2), .success(.cards(SampleCards.page(offset: 0, limit: 50, total: 3)))))
        #expect(effects.isEmpty)
        #expect(state.list.cards.loadedCount == 3)
        #expect(!state.isBusy)
    }

    @Test func aRestoredSessionSkipsTheLoginForm() {
        var state = AppState(server: testServer)
        let effects = state.reduce(.session(.loggedIn(email: testEmail, server: testServer)))
        #expect(state.screen == .list)
        #expect(effects.count == 1)
    }

    @Test func enterOpensTheCardAndItsDetailsLoad() throws {
        var state = AppState.loggedIn(cards: 5)
        var effects = state.press(.char("j"), .enter)
        let (id, request) = try #require(AppState.lastRequest(effects))
        #expect(request == .loadCard(id: "card-1"))
        #expect(state.screen == .detail)
        #expect(state.detail?.isLoading == true)
        let card = SampleCards.card(SampleCards.summary(number: 1))
        effects = state.reduce(.completed(id, .success(.card(card))))
        #expect(state.detail?.card == card)
        state.press(.char("q"))
        #expect(state.screen == .list)
        #expect(state.detail == nil)
        #expect(state.list.selection == 1)
    }

    @Test func aCardGoneFromTheServerLeavesTheList() throws {
        var state = AppState.loggedIn(cards: 5)
        let effects = state.press(.enter)
        let (id, _) = try #require(AppState.lastRequest(effects))
        state.send(.completed(id, .failure(UIFailure(.notFound, message: "no such card", serverCode: "E05"))))
        #expect(state.screen == .list)
        #expect(state.list.cards.loadedCount == 4)
        #expect(state.message?.text == "That card no longer exists (E05)")
        // A CardDAV server's 404 carries no code: none is named.
        let next = state.press(.enter)
        let (other, _) = try #require(AppState.lastRequest(next))
        state.send(.completed(other, .failure(UIFailure(.notFound, message: "404"))))
        #expect(state.message?.text == "That card no longer exists")
    }

    @Test func deleteAsksFirstAndDefaultsToNo() throws {
        var state = AppState.loggedIn(cards: 3)
        state.press(.char("d"))
        #expect(state.modal == .confirm(ConfirmState(.deleteCard(SampleCards.summary(number: 0)))))
        #expect(state.press(.enter).isEmpty)
        #expect(state.modal == nil)
        #expect(state.list.cards.loadedCount == 3)

        state.press(.char("d"))
        let effects = state.press(.char("y"))
        let (id, request) = try #require(AppState.lastRequest(effects))
        #expect(request == .deleteCard(id: "card-0"))
        state.send(.completed(id, .success(.deleted(id: "card-0", backup: nil))))
        #expect(state.list.cards.walletIDs == ["card-1", "card-2"])
        #expect(state.message?.text == "Deleted “김민지”")
        #expect(state.message?.kind == .success)
    }

    @Test func deletingFromTheDetailScreenClosesIt() throws {
        var state = AppState.loggedIn(cards: 3)
        let open = state.press(.enter)
        state.answer(open) { _ in .success(.card(SampleCards.card(SampleCards.summary(number: 0)))) }
        #expect(state.screen == .detail)
        state.press(.char("d"))
        let effects = state.press(.char("y"))
        let (id, request) = try #require(AppState.lastRequest(effects))
        #expect(request == .deleteCard(id: "card-0"))
        state.send(.completed(id, .success(.deleted(id: "card-0", backup: nil))))
        #expect(state.screen == .list)
        #expect(state.detail == nil)
        #expect(state.list.cards.walletIDs == ["card-1", "card-2"])
        #expect(state.message?.text == "Deleted “김민지”")
    }

    @Test func addThenSaveShowsTheNewCard() throws {
        var state = AppState.loggedIn(cards: 2)
        state.press(.char("a"))
        #expect(state.screen == .form)
        state.type("Kim")
        let effects = state.press(.ctrl("s"))
        let (id, request) = try #require(AppState.lastRequest(effects))
        #expect(request == .createCard(CardFields(name: "Kim"), imagePath: nil))
        var card = SampleCards.card(SampleCards.summary(number: 9))
        card.fields = CardFields(name: "Kim")
        state.send(.completed(id, .success(.card(card))))
        #expect(state.screen == .detail)
        #expect(state.detail?.card == card)
        #expect(state.list.cards.walletIDs == ["card-0", "card-1", "card-9"])
        state.press(.escape)
        #expect(state.screen == .list)
        #expect(state.list.selectedCard?.id == "card-9")
    }

    @Test func editFromTheListLoadsTheCardThenSavesWithIfMatch() throws {
        var state = AppState.loggedIn(cards: 2)
        var effects = state.press(.char("e"))
        var (id, request) = try #require(AppState.lastRequest(effects))
        #expect(request == .loadCard(id: "card-0"))
        let card = SampleCards.card(SampleCards.summary(number: 0))
        state.send(.completed(id, .success(.card(card))))
        #expect(state.screen == .form)
        state.press(.ctrl("e"))
        state.type("!")
        effects = state.press(.enter)
        (id, request) = try #require(AppState.lastRequest(effects))
        var fields = card.fields
        fields.name += "!"
        #expect(request == .updateCard(id: "card-0", fields: fields, revision: card.revision))
        var saved = card
        saved.fields = fields
        saved.revision = CardRevision((saved.revision.number ?? 0) + 1)
        state.send(.completed(id, .success(.card(saved))))
        #expect(state.screen == .list)
        #expect(state.list.selectedCard?.name == "김민지!")
    }

    @Test func escapeWithChangesAsksBeforeDiscarding() {
        var state = AppState.loggedIn(cards: 2)
        state.press(.char("a"))
        state.type("x")
        state.press(.escape)
        #expect(state.modal == .confirm(ConfirmState(.discardChanges)))
        state.press(.char("n"))
        #expect(state.screen == .form)
        #expect(state.form?.fields[0].input.text == "x")
        state.press(.escape, .char("y"))
        #expect(state.screen == .list)
        #expect(state.form == nil)
    }

    @Test func sessionExpiredOpensALoginOverTheFormAndReplaysTheSave() throws {
        var state = AppState.loggedIn(cards: 2)
        state.press(.char("a"))
        state.type("Typed before expiry")
        var effects = state.press(.enter)
        let (saveID, saveRequest) = try #require(AppState.lastRequest(effects))
        state.send(.completed(saveID, .failure(UIFailure(.mustLogIn, message: "refresh token expired"))))
        let reauth = try #require(state.reauth)
        #expect(reauth.login.email.text == testEmail)
        #expect(reauth.login.focus == .password)
        #expect(reauth.replay.map(\.call) == [saveRequest])
        // The answer opens the dialog and changes nothing else: the session says it expired
        // through its own news.
        #expect(state.session == .loggedIn(email: testEmail, server: testServer))
        state.send(.session(.expired(email: testEmail, server: testServer)))
        #expect(state.session == .expired(email: testEmail, server: testServer))
        #expect(state.reauth == reauth)
        #expect(state.screen == .form)
        #expect(state.form?.fields[0].input.text == "Typed before expiry")
        #expect(state.form?.isSaving == true)

        // Keys now go to the dialog; the form keeps its text.
        state.type("pw")
        #expect(state.reauth?.login.password.text == "pw")
        #expect(state.form?.fields[0].input.text == "Typed before expiry")
        effects = state.press(.enter)
        let (loginID, loginRequest) = try #require(AppState.lastRequest(effects))
        #expect(loginRequest == .logIn(server: testServer, email: testEmail, password: "pw"))
        state.send(.session(.loggedIn(email: testEmail, server: testServer)))
        effects = state.reduce(.completed(loginID, .success(.loggedIn(email: testEmail, server: testServer))))
        #expect(state.reauth == nil)
        let (replayID, replayed) = try #require(AppState.lastRequest(effects))
        #expect(replayed == saveRequest)
        #expect(replayID > loginID)
        var card = SampleCards.card(SampleCards.summary(number: 5))
        card.fields = CardFields(name: "Typed before expiry")
        state.send(.completed(replayID, .success(.card(card))))
        #expect(state.screen == .detail)
    }

    @Test func wrongPasswordInTheSessionDialogStaysInIt() throws {
        var state = AppState.loggedIn(cards: 2)
        state.send(.session(.expired(email: testEmail, server: testServer)))
        #expect(state.reauth != nil)
        state.type("bad")
        let effects = state.press(.enter)
        let (id, _) = try #require(AppState.lastRequest(effects))
        state.send(.completed(id, .failure(UIFailure(.loginFailed, message: "nope", serverCode: "E02"))))
        #expect(state.reauth?.login.error == .init(.password, "Wrong email or password (E02). Try again."))
        #expect(state.screen == .list)
    }

    @Test func aFailedReloadKeepsTheListAndSaysSo() throws {
        var state = AppState.loggedIn(cards: 5)
        let effects = state.press(.char("r"))
        // Nothing blanks while the reload waits.
        #expect(state.list.cards.loadedCount == 5)
        #expect(Renderer.render(state).text.contains("Kim Min-ji"))
        let (id, _) = try #require(AppState.lastRequest(effects))
        state.send(.completed(id, .failure(UIFailure(.cannotConnect(url: testServer), message: "connection refused"))))
        #expect(state.list.cards.loadedCount == 5)
        #expect(state.message?.kind == .error)
        #expect(state.message?.text.hasPrefix("Reload failed (the list is as it was): cannot connect") == true)
        #expect(Renderer.render(state).text.contains("Kim Min-ji"))
    }

    @Test func theSelectionStaysVisibleAfterAResizeOnAnotherScreen() {
        var state = AppState.loggedIn(cards: 40, width: 80, height: 40)
        state.press(.char("G"))
        #expect(state.list.selection == 39)
        state.press(.enter)
        #expect(state.screen == .detail)
        state.send(.resize(width: 80, height: 20))
        state.press(.char("q"))
        #expect(state.screen == .list)
        let viewport = state.listViewport
        #expect(state.list.selection >= state.list.scrollTop)
        #expect(state.list.selection < state.list.scrollTop + viewport)
        #expect(Renderer.render(state).text.contains(SampleCards.summaries(count: 40)[39].name))
    }

    @Test func messagesAboutAScreenGoWithIt() throws {
        var state = AppState.loggedIn(cards: 3)
        state.press(.char("s"))
        state.press(.char("J"))
        #expect(state.message?.text == "Cards move only in wallet order (sorted by name): press s to go back")
        state.press(.enter)
        #expect(state.screen == .detail)
        #expect(state.message == nil, "a hint about moving cards is not true on the card screen")
        // The form's "your text is still here" goes when the text does.
        var edit = AppState.loggedIn(cards: 2)
        let card = SampleCards.card(SampleCards.summary(number: 0))
        edit.form = FormState(editing: card, returnsToDetail: false)
        edit.screen = .form
        edit.type("x")
        let save = edit.press(.ctrl("s"))
        let (id, _) = try #require(AppState.lastRequest(save))
        edit.send(.completed(id, .failure(UIFailure(.notFound, message: "gone"))))
        #expect(edit.message?.text.contains("your text is still here") == true)
        // What was a deleted card's form now saves a new card with the text.
        #expect(edit.form?.mode == .add)
        let again = edit.press(.ctrl("s"))
        #expect(AppState.lastRequest(again).map { if case .createCard = $0.1 { true } else { false } } == true)
        edit.send(.completed(AppState.lastRequest(again)!.0, .failure(UIFailure(.server(status: 500), message: "x"))))
        edit.press(.escape)
        edit.press(.char("y"))
        #expect(edit.form == nil)
        #expect(edit.message == nil)
    }

    @Test func anUnboundKeySaysSo() {
        var state = AppState.loggedIn(cards: 2)
        state.press(.char("Z"))
        #expect(state.message?.text == "Key is not bound. Press ? for help.")
    }

    @Test func stalePagesOfAReloadedListAreDropped() throws {
        var state = AppState.loggedIn(cards: 100, total: 300, height: 60)
        // The list already asked for the next page (a tall screen shows most of the first).
        let oldID = try #require(
            state.pending.first { $0.value.call == .loadCards(offset: 100, limit: 100, query: nil) }?.key)
        let effects = state.press(.char("r"))
        let (newID, newRequest) = try #require(AppState.lastRequest(effects))
        #expect(newRequest == .loadCards(offset: 0, limit: 100, query: nil))
        state.send(.completed(oldID, .success(.cards(SampleCards.page(offset: 100, limit: 100, total: 300)))))
        // The old list's page is dropped; what was shown stays until the reload's page comes.
        #expect(state.list.cards.loadedCount == 100)
        #expect(state.list.isReloading)
        state.send(.completed(newID, .success(.cards(SampleCards.page(offset: 0, limit: 100, total: 300)))))
        #expect(state.list.cards.loadedCount == 100)
        #expect(!state.list.isReloading)
    }

    @Test func aFirstPageThatFailedSaysSoAndMovingDownRetries() throws {
        var state = AppState(server: testServer, email: testEmail, password: "pw")
        let login = state.press(.enter)
        let page = state.answer(login) { _ in .success(.loggedIn(email: testEmail, server: testServer)) }
        state.answer(page) { _ in .failure(UIFailure(.server(status: 503), message: "The server failed (E99)")) }
        #expect(!state.list.cards.isTotalKnown)
        #expect(state.message?.text == "Could not load cards: server error 503; see the log (l)")
        #expect(state.message?.topic == .loadingCards)
        var text = Renderer.render(state).text
        #expect(text.contains("CardWallet · cards not loaded"))
        #expect(text.contains("The cards could not be loaded: press r to try again"))
        #expect(!text.contains("No cards yet"))
        // A card added meanwhile does not make a wallet of one.
        state.send(.completed(CallID(99), .success(.card(SampleCards.card(SampleCards.summary(number: 5))))))
        #expect(state.list.cards.loadedCount == 0)
        // Moving down asks again; the page that arrives clears the stale error.
        let retry = state.press(.char("j"))
        let (id, request) = try #require(AppState.lastRequest(retry))
        #expect(request == .loadCards(offset: 0, limit: 100, query: nil))
        text = Renderer.render(state).text
        #expect(text.contains("CardWallet · loading cards…"))
        state.send(.completed(id, .success(.cards(SampleCards.page(offset: 0, limit: 100, total: 3)))))
        #expect(state.message == nil)
        #expect(Renderer.render(state).text.contains("CardWallet · 3 cards"))
    }

    @Test func aLaterPageErrorDoesNotClearOtherMessages() {
        var state = AppState.loggedIn(cards: 3)
        state.showMessage(.success, "Saved “x”")
        state.press(.char("r"))
        let id = CallID(state.nextCallID - 1)
        state.send(.completed(id, .success(.cards(SampleCards.page(offset: 0, limit: 100, total: 3)))))
        #expect(state.message?.text == "Saved “x”")
    }

    @Test func failedReorderReloadsTheServersOrder() throws {
        var state = AppState.loggedIn(cards: 3)
        var effects = state.press(.char("J"))
        let (id, request) = try #require(AppState.lastRequest(effects))
        #expect(request == .reorderCards(order: ["card-1", "card-0", "card-2"]))
        effects = state.reduce(.completed(id, .failure(UIFailure(.server(status: 500), message: "boom"))))
        #expect(AppState.lastRequest(effects)?.1 == .loadCards(offset: 0, limit: 100, query: nil))
        #expect(state.message?.kind == .error)
    }

    @Test func reordersGoOneAtATimeAndTheNewestWins() throws {
        var state = AppState.loggedIn(cards: 4)
        let first = state.press(.char("J"))
        let (firstID, firstRequest) = try #require(AppState.lastRequest(first))
        #expect(firstRequest == .reorderCards(order: ["card-1", "card-0", "card-2", "card-3"]))
        #expect(state.press(.char("J")).isEmpty)
        #expect(state.press(.char("J")).isEmpty)
        #expect(state.list.queuedReorder == ["card-1", "card-2", "card-3", "card-0"])
        let next = state.send(.completed(firstID, .success(.reordered)))
        let (secondID, secondRequest) = try #require(AppState.lastRequest(next))
        #expect(secondRequest == .reorderCards(order: ["card-1", "card-2", "card-3", "card-0"]))
        #expect(state.list.queuedReorder == nil)
        #expect(state.send(.completed(secondID, .success(.reordered))).isEmpty)
        #expect(!state.isBusy)
    }

    @Test func messagesExpireWithTicks() {
        var state = AppState.loggedIn(cards: 1)
        state.send(.tick(now: .seconds(100)))
        state.press(.char("n"))
        #expect(
            state.message
                == StatusMessage(
                    .info, "No filter: press / and type to find cards", expires: .seconds(104), topic: .listScreen))
        state.send(.tick(now: .seconds(103)))
        #expect(state.message != nil)
        state.send(.tick(now: .seconds(104)))
        #expect(state.message == nil)
    }

    @Test func logOutReturnsToTheLoginForm() throws {
        var state = AppState.loggedIn(cards: 1)
        let effects = state.press(.char("O"))
        let (id, request) = try #require(AppState.lastRequest(effects))
        #expect(request == .logOut)
        state.send(.session(.loggedOut))
        state.send(.completed(id, .success(.loggedOut)))
        #expect(state.screen == .login)
        #expect(state.session == .loggedOut)
        #expect(state.login.email.text == testEmail)
        #expect(state.list.cards.loadedCount == 0)
    }

    /// `B` switches to the next address book (CardDAV): the status bar names it, and the list
    /// is read again from the new book; a server without books says so and changes nothing.
    @Test func bSwitchesTheAddressBookAndReloadsTheList() throws {
        var state = AppState.loggedIn(cards: 3)
        let effects = state.press(.char("B"))
        let (id, request) = try #require(AppState.lastRequest(effects))
        #expect(request == .nextBook)
        let after = state.send(
            .completed(id, .success(.switchedBook("work", session: .loggedIn(email: testEmail, server: "dav · work")))))
        #expect(state.session == .loggedIn(email: testEmail, server: "dav · work"))
        #expect(state.message?.text == "Address book “work”")
        let (_, reload) = try #require(AppState.lastRequest(after))
        guard case .loadCards(offset: 0, _, _) = reload else {
            Issue.record("the list is not read again: \(reload)")
            return
        }

        var single = AppState.loggedIn(cards: 3)
        let asked = single.press(.char("B"))
        let (singleID, _) = try #require(AppState.lastRequest(asked))
        let refused = single.send(
            .completed(singleID, .failure(UIFailure(.other, message: "This account has one address book only."))))
        #expect(AppState.lastRequest(refused) == nil, "nothing is read again")
        #expect(single.message?.text == "This account has one address book only.")
        #expect(single.list.cards.loadedCount == 3)
    }

    @Test func quitFromTheListAndCtrlCFromAnywhere() {
        var list = AppState.loggedIn(cards: 1)
        #expect(list.press(.char("q")) == [.quit])
        #expect(list.isQuitting)
        var form = AppState.loggedIn(cards: 1)
        form.press(.char("a"))
        #expect(form.press(.ctrl("c")) == [.quit], "nothing typed: Ctrl-C quits at once")
        var typed = AppState.loggedIn(cards: 1)
        typed.press(.char("a"))
        typed.type("q")
        #expect(!typed.isQuitting)
        // Typed and not saved: Ctrl-C asks, No by default; a second Ctrl-C quits.
        #expect(typed.press(.ctrl("c")).isEmpty)
        #expect(typed.modal == .confirm(ConfirmState(.quitDiscarding)))
        #expect(typed.press(.enter).isEmpty)
        #expect(typed.modal == nil && !typed.isQuitting)
        #expect(typed.form?.fields[0].input.text == "q")
        typed.press(.ctrl("c"))
        #expect(typed.press(.ctrl("c")) == [.quit])
        #expect(typed.isQuitting)
    }

    @Test func theSessionDialogCanBeDismissedKeepingTheDraft() throws {
        var state = AppState.loggedIn(cards: 2)
        state.press(.char("a"))
        state.type("Draft")
        let save = state.press(.ctrl("s"))
        let (id, _) = try #require(AppState.lastRequest(save))
        state.send(.session(.expired(email: testEmail, server: testServer)))
        state.send(.completed(id, .failure(UIFailure(.mustLogIn, message: "E06", serverCode: "E06"))))
        #expect(state.reauth != nil)
        #expect(Renderer.render(state).text.contains("Session expired (E06)"))
        state.press(.escape)
        #expect(state.reauth == nil)
        #expect(state.screen == .form)
        #expect(state.form?.fields[0].input.text == "Draft")
        #expect(state.message?.text == "Not logged in (E06): your text stays here; saving asks you to log in again")
        // Saving again fails fast with E06 and opens the dialog again, the save kept to replay.
        let again = state.press(.ctrl("s"))
        let (retry, call) = try #require(AppState.lastRequest(again))
        state.send(.completed(retry, .failure(UIFailure(.mustLogIn, message: "E06"))))
        #expect(state.reauth?.replay.map(\.call) == [call])
    }

    @Test func theSessionDialogStartsInThePasswordAndDropsTypeahead() {
        var state = AppState.loggedIn(cards: 2)
        let effects = state.send(.session(.expired(email: testEmail, server: testServer)))
        #expect(effects == [.discardTypeahead])
        #expect(state.reauth?.login.focus == .password)
        #expect(state.reauth?.login.email.text == testEmail)
        // News naming no account: the last one the session named is filled in, still.
        var anonymous = AppState.loggedIn(cards: 2)
        anonymous.send(.session(.expired(email: nil, server: testServer)))
        #expect(anonymous.reauth?.login.email.text == testEmail)
        #expect(anonymous.reauth?.login.focus == .password)
    }

    @Test func resizeRelaysOutAndTooSmallKeepsRunning() {
        var state = AppState.loggedIn(cards: 40, height: 24)
        state.press(.char("G"))
        #expect(state.list.scrollTop == 40 - state.listViewport)
        state.send(.resize(width: 50, height: 10))
        #expect(state.layout.isTooSmall)
        // Nothing shows, so no key acts unseen: no move, no delete question, no answer.
        let before = state
        #expect(state.press(.char("k"), .char("d"), .char("y"), .enter, .char("q")).isEmpty)
        #expect(state == before)
        state.send(.resize(width: 100, height: 50))
        #expect(!state.layout.isTooSmall)
        #expect(state.list.selection == 39)
        #expect(state.list.scrollTop == 0)
        // Ctrl-C, which the notice names, still quits.
        state.send(.resize(width: 59, height: 14))
        #expect(state.press(.ctrl("c")) == [.quit])
    }
}

@Suite struct LogPaneTests {
    func line(_ id: UInt64, failure: Bool = false) -> LogLine {
        LogLine(
            id: id, time: SampleCards.epoch, kind: failure ? .failure : .response, method: "GET",
            path: "/cards", status: failure ? nil : 200, isFailure: failure, text: "line \(id)")
    }

    @Test func bufferKeepsTheLastLinesOnly() {
        var buffer = LogBuffer(capacity: 3)
        for id in 1...5 { buffer.append(line(UInt64(id))) }
        #expect(buffer.lines.map(\.id) == [3, 4, 5])
        #expect(buffer.index(ofID: 4) == 1)
        #expect(buffer.index(ofID: 2) == nil)
    }

    @Test func longTextIsCut() {
        var buffer = LogBuffer(capacity: 3)
        var long = line(1)
        long.text = String(repeating: "x", count: 10_000)
        long.detail = Array(repeating: "d", count: 1_000)
        buffer.append(long)
        #expect(buffer[0].text.count == LogBuffer.maxTextLength + 1)
        #expect(buffer[0].detail.count == LogBuffer.maxDetailLines + 1)
    }

    @Test func leavingThePaneFollowsTheNewestLineAgain() {
        var state = AppState.loggedIn(cards: 3)
        for id in 1...30 { state.send(.log(line(UInt64(id)))) }
        state.press(.char("l"), .tab, .char("g"))
        #expect(state.log.selectedID == 1)
        state.press(.escape)
        #expect(state.log.selectedID == nil)
        state.send(.log(line(31)))
        #expect(Renderer.render(state).text.contains("line 31"))
        // Tab away and l (hide) let go of the selection too.
        state.press(.tab, .char("g"), .tab)
        #expect(state.focus == .screen && state.log.selectedID == nil)
        state.press(.tab, .char("g"), .char("l"))
        #expect(state.focus == .screen && state.log.selectedID == nil)
    }

    @Test func paneKeysToggleResizeFocusFilterAndShowDetail() {
        var state = AppState.loggedIn(cards: 3)
        for id in 1...6 { state.send(.log(line(UInt64(id), failure: id % 3 == 0))) }
        state.press(.char("l"))
        #expect(state.log.isVisible)
        #expect(state.focus == .screen)
        state.press(.char("L"))
        #expect(state.log.height == .medium)
        state.press(.tab)
        #expect(state.focus == .log)
        state.press(.char("k"), .char("k"))
        #expect(state.log.selectedID == 4)
        state.press(.char("f"))
        #expect(state.log.failuresOnly)
        #expect(state.log.selectedID == nil)
        #expect(state.log.shownIndices.map { state.log.buffer[$0].id } == [3, 6])
        state.press(.char("k"))
        #expect(state.log.selectedLine?.id == 3)
        state.press(.enter)
        #expect(state.overlay?.as(LogDetailPage.self) == LogDetailPage(lineID: 3))
        state.press(.escape)
        #expect(state.overlay == nil)
        state.press(.escape)
        #expect(state.focus == .screen)
        state.press(.char("l"))
        #expect(!state.log.isVisible)
    }
}
