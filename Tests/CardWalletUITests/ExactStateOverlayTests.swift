import CardModels
import Testing

@testable import CardWalletUI

/// The keys ``ExactStateTests`` leaves out: the rest of the list, the question, help, the log
/// pane and its detail page, the session-expired dialog, a conflict and a too-small terminal.
/// The expected state is the previous one with exactly the described change.
@Suite struct ExactStateOverlayTests {
    func check(
        _ state: inout AppState, _ key: Key, effects expectedEffects: [Effect] = [],
        sourceLocation: SourceLocation = #_sourceLocation, _ change: (inout AppState) -> Void = { _ in }
    ) {
        var expected = state
        change(&expected)
        let effects = state.reduce(.key(key))
        #expect(effects == expectedEffects, sourceLocation: sourceLocation)
        let same = state == expected
        #expect(same, "\(differences(state, expected).joined(separator: "\n"))", sourceLocation: sourceLocation)
    }

    @Test func listMovementAndPaging() {
        var state = AppState.loggedIn(cards: 30)
        let viewport = state.listViewport
        check(&state, .end) {
            $0.list.selection = 29
            $0.list.scrollTop = 30 - viewport
        }
        check(&state, .up) { $0.list.selection = 28 }
        check(&state, .pageUp) {
            $0.list.selection = 28 - viewport
            $0.list.scrollTop = 0
        }
        check(&state, .home) { $0.list.selection = 0 }
        check(&state, .ctrl("d")) {
            $0.list.selection = viewport / 2
            $0.list.scrollTop = viewport / 2
        }
        check(&state, .char("k")) {
            $0.list.selection = viewport / 2 - 1
            $0.list.scrollTop = viewport / 2 - 1
        }
        check(&state, .pageDown) {
            $0.list.selection = viewport / 2 - 1 + viewport
            $0.list.scrollTop = 30 - viewport
        }
    }

    @Test func listFilterMatchesAndWalletOrder() {
        var state = AppState.loggedIn(cards: 30)
        state.press(.char("/"))
        state.type("min-ji")
        state.press(.enter)
        // Kim Min-ji is card 1, 15 and 29: rows 0, 1 and 2 of the filtered list.
        #expect(
            state.list.cards.rows.map { state.list.cards.summary(atIndex: $0).id } == ["card-1", "card-15", "card-29"])
        check(&state, .char("n")) { $0.list.selection = 1 }
        check(&state, .char("n")) { $0.list.selection = 2 }
        check(&state, .char("n")) {
            $0.list.selection = 0
            $0.showMessage(.info, "Search wrapped to the first match", topic: .listScreen)
        }
        check(&state, .char("N")) {
            $0.list.selection = 2
            $0.showMessage(.info, "Search wrapped to the last match", topic: .listScreen)
        }
        check(&state, .char("N")) { $0.list.selection = 1 }
        check(&state, .char("J")) {
            $0.showMessage(.warning, "Clear the filter (Esc) to move cards in the wallet", topic: .listScreen)
        }
        check(&state, .escape) {
            $0.list.cards.setQuery("")
            $0.list.selection = 15
        }
        let order =
            [
                "card-0", "card-1", "card-2", "card-3", "card-4", "card-5", "card-6", "card-7", "card-8", "card-9",
                "card-10", "card-11", "card-12", "card-13", "card-14", "card-16", "card-15",
            ]
            + (17..<30).map { "card-\($0)" }
        check(&state, .char("J"), effects: [.perform(CallID(3), .reorderCards(order: order))]) {
            _ = $0.list.cards.moveInWallet(from: 15, by: 1)
            $0.list.selection = 16
            $0.pending[CallID(3)] = .init(call: .reorderCards(order: order), route: .list(.reorder))
            $0.nextCallID = 4
            $0.list.isReordering = true
        }
        // A second move waits for the first to be saved; the newest order wins.
        check(&state, .char("K")) {
            _ = $0.list.cards.moveInWallet(from: 16, by: -1)
            $0.list.selection = 15
            $0.list.queuedReorder = (0..<30).map { "card-\($0)" }
        }
    }

    @Test func listCardCommandsAndTheQuestion() {
        var state = AppState.loggedIn(cards: 3)
        let card = SampleCards.summary(number: 0)
        check(&state, .char("e"), effects: [.perform(CallID(3), .loadCard(id: card.id))]) {
            $0.showMessage(.info, "Loading “\(card.name)” to edit…", topic: .listScreen)
            $0.pending[CallID(3)] = .init(call: .loadCard(id: card.id), route: .list(.loadForEdit(id: card.id)))
            $0.nextCallID = 4
        }
        check(&state, .char("d")) { $0.modal = .confirm(ConfirmState(.deleteCard(card))) }
        // Over the question only its keys work: j, q and r mean nothing, and it says so.
        check(&state, .char("j")) { $0.showMessage(.info, "Key is not bound here: answer y (yes) or n (no)") }
        check(&state, .char("q"))
        check(&state, .tab) { $0.modal = .confirm(ConfirmState(.deleteCard(card), yes: true)) }
        check(&state, .backTab) { $0.modal = .confirm(ConfirmState(.deleteCard(card))) }
        check(&state, .left) { $0.modal = .confirm(ConfirmState(.deleteCard(card), yes: true)) }
        check(&state, .char("n")) { $0.modal = nil }
        check(&state, .char("d")) { $0.modal = .confirm(ConfirmState(.deleteCard(card))) }
        check(&state, .enter) { $0.modal = nil }
        check(&state, .char("d")) { $0.modal = .confirm(ConfirmState(.deleteCard(card))) }
        check(&state, .char("y"), effects: [.perform(CallID(4), .deleteCard(id: card.id))]) {
            $0.modal = nil
            $0.pending[CallID(4)] = .init(call: .deleteCard(id: card.id), route: .list(.delete(card)))
            $0.nextCallID = 5
        }
        check(&state, .char("r"), effects: [.perform(CallID(5), .loadCards(offset: 0, limit: 100, query: nil))]) {
            // The cards stay on screen until the server's first page replaces them.
            $0.list.reselectID = card.id
            $0.list.reselectRow = 0
            $0.list.generation += 1
            $0.list.isReloading = true
            $0.list.isLoadingPage = true
            $0.pending[CallID(5)] = .init(
                call: .loadCards(offset: 0, limit: 100, query: nil),
                route: .list(.page(generation: $0.list.generation)))
            $0.nextCallID = 6
        }
        check(&state, .char("a")) {
            $0.form = FormState()
            $0.screen = .form
        }
        check(&state, .escape) {
            $0.form = nil
            $0.screen = .list
        }
        // The delete is still on its way: quitting says it waits for it.
        check(&state, .char("q"), effects: [.quit]) {
            $0.isQuitting = true
            $0.showMessage(.warning, "Quitting once your change reaches the server… (Ctrl-C quits now)")
        }
    }

    @Test func helpPage() {
        var state = AppState.loggedIn(cards: 3)
        check(&state, .char("?")) { $0.modal = .help(scroll: 0) }
        let last = state.helpLines.count - state.layout.pageViewport
        check(&state, .char("G")) { $0.modal = .help(scroll: last) }
        check(&state, .char("k")) { $0.modal = .help(scroll: last - 1) }
        check(&state, .char("g")) { $0.modal = .help(scroll: 0) }
        let half = state.layout.pageViewport / 2
        check(&state, .ctrl("d")) { $0.modal = .help(scroll: min(last, half)) }
        // Keys of the list beneath do nothing while help shows.
        check(&state, .char("d")) { $0.showMessage(.info, "Key is not bound here: Esc closes this page") }
        check(&state, .char("?")) { $0.modal = nil }
        check(&state, .char("?")) { $0.modal = .help(scroll: 0) }
        check(&state, .enter) { $0.modal = nil }
    }

    @Test func logPaneAndLogLineDetail() {
        var state = AppState.loggedIn(cards: 3)
        for id in 1...10 {
            state.send(
                .log(
                    LogLine(
                        id: UInt64(id), time: SampleCards.epoch, kind: .response, method: "GET",
                        path: "/cards", status: id == 4 ? 500 : 200, isFailure: id == 4)))
        }
        check(&state, .char("l")) {
            $0.log.isVisible = true
            $0.list.settle(viewport: $0.listViewport)
        }
        check(&state, .tab) { $0.focus = .log }
        check(&state, .char("k")) { $0.log.selectedID = 9 }
        check(&state, .char("g")) { $0.log.selectedID = 1 }
        check(&state, .char("j")) { $0.log.selectedID = 2 }
        check(&state, .char("G")) { $0.log.selectedID = nil }
        check(&state, .enter) { $0.overlay = OpenOverlay(LogDetailPage.opener, LogDetailPage(lineID: 10)) }
        check(&state, .char("j"))
        check(&state, .escape) { $0.overlay = nil }
        check(&state, .char("f")) { $0.log.failuresOnly = true }
        check(&state, .enter) { $0.overlay = OpenOverlay(LogDetailPage.opener, LogDetailPage(lineID: 4)) }
        check(&state, .char("q")) { $0.overlay = nil }
        check(&state, .char("f")) { $0.log.failuresOnly = false }
        check(&state, .escape) { $0.focus = .screen }
        check(&state, .tab) { $0.focus = .log }
        check(&state, .char("l")) {
            $0.log.isVisible = false
            $0.focus = .screen
            $0.list.settle(viewport: $0.listViewport)
        }
        check(&state, .tab) { $0.showMessage(.info, "The log pane is hidden: press l to show it") }
    }

    @Test func sessionExpiredDialog() {
        var state = AppState.loggedIn(cards: 3)
        state.press(.char("a"))
        state.type("Half")
        state.send(.session(.expired(email: testEmail, server: testServer)))
        let dialog = state
        #expect(dialog.reauth?.login.focus == .password)
        check(&state, .char("p")) { $0.reauth?.login.password = TextFieldState("p") }
        // Letters are text here, even q and ?: help is F1.
        check(&state, .char("?")) { $0.reauth?.login.password = TextFieldState("p?") }
        check(&state, .backspace) { $0.reauth?.login.password = TextFieldState("p") }
        check(&state, .tab) { $0.reauth?.login.focus = .email }
        check(&state, .down) { $0.reauth?.login.focus = .password }
        check(&state, .function(1)) { $0.modal = .help(scroll: 0) }
        check(&state, .escape) { $0.modal = nil }
        let login = AppCall.logIn(server: testServer, email: testEmail, password: "p")
        check(&state, .enter, effects: [.perform(CallID(3), login)]) {
            $0.reauth?.login.isSubmitting = true
            $0.pending[CallID(3)] = .init(call: login, route: .reauth)
            $0.nextCallID = 4
        }
        check(&state, .char("x"))
        // The form under the dialog kept what was typed: Ctrl-C asks, a second one quits.
        #expect(state.form?.fields[0].input.text == "Half")
        check(&state, .ctrl("c")) { $0.modal = .confirm(ConfirmState(.quitDiscarding)) }
        check(&state, .ctrl("c"), effects: [.quit]) { $0.isQuitting = true }
    }

    @Test func conflictKeys() {
        var state = AppState.loggedIn(cards: 3)
        let card = SampleCards.card(SampleCards.summary(number: 1))
        state.form = FormState(editing: card, returnsToDetail: false)
        state.screen = .form
        state.press(.tab, .ctrl("u"))
        state.type("Boss")
        let effects = state.press(.enter)
        var theirs = card
        theirs.revision = CardRevision(7)
        theirs.fields.title = "Chief"
        theirs.fields.company = "Their Co"
        state.answer(effects) { _ in .failure(UIFailure(.conflict(current: theirs), message: "changed")) }
        #expect(state.form?.fields[2].input.text == "Their Co")
        check(&state, .ctrl("t")) {
            $0.form?.fields[1].input = TextFieldState("Chief")
        }
        check(&state, .ctrl("g")) {
            $0.form = FormState(editing: theirs, returnsToDetail: false)
            $0.form?.focus = 1
            $0.showMessage(.info, "Took the server's version (7); your changes are gone", topic: .form)
        }
        // Without a conflict ^T means nothing in the form.
        check(&state, .ctrl("t")) { $0.showMessage(.info, "Key is not bound. Press F1 for help.") }
    }

    @Test func tooSmallTakesOnlyCtrlC() {
        var state = AppState.loggedIn(cards: 3)
        state.send(.resize(width: 59, height: 14))
        for key: Key in [
            .char("j"), .char("d"), .char("y"), .char("a"), .char("l"), .char("?"), .enter, .escape, .char("q"),
        ] {
            check(&state, key)
        }
        check(&state, .ctrl("c"), effects: [.quit]) { $0.isQuitting = true }
    }
}
