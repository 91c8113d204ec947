import CardModels
import Testing

@testable import CardWalletUI

/// Every key on every screen, asserting the whole app state after it: the expected state is
/// the previous one with exactly the described change.
@Suite struct ExactStateTests {
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

    @Test func loginScreen() {
        var state = AppState(server: testServer, email: "", password: "")
        check(&state, .char("m")) { $0.login.email = TextFieldState("m") }
        check(&state, .backspace) { $0.login.email = TextFieldState("") }
        check(&state, .tab) { $0.login.focus = .password }
        check(&state, .char("p")) { $0.login.password = TextFieldState("p") }
        check(&state, .up) { $0.login.focus = .email }
        check(&state, .char("?")) { $0.login.email = TextFieldState("?") }
        check(&state, .enter) {
            $0.login.error = .init(.email, "That is not an email address or a user name")
        }
        check(&state, .function(1)) { $0.modal = .help(scroll: 0) }
        check(&state, .escape) { $0.modal = nil }
        check(&state, .escape, effects: [.quit]) { $0.isQuitting = true }
    }

    @Test func listScreen() {
        var state = AppState.loggedIn(cards: 30)
        let viewport = state.listViewport
        check(&state, .char("j")) { $0.list.selection = 1 }
        check(&state, .down) { $0.list.selection = 2 }
        check(&state, .char("k")) { $0.list.selection = 1 }
        check(&state, .char("G")) {
            $0.list.selection = 29
            $0.list.scrollTop = 30 - viewport
        }
        check(&state, .char("g")) {
            $0.list.selection = 0
            $0.list.scrollTop = 0
        }
        check(&state, .pageDown) {
            $0.list.selection = viewport
            $0.list.scrollTop = 30 - viewport
        }
        check(&state, .ctrl("u")) {
            $0.list.selection = viewport - viewport / 2
            $0.list.scrollTop = 30 - viewport - viewport / 2
        }
        check(&state, .char("/")) { $0.list.isEditingFilter = true }
        check(&state, .char("k")) {
            $0.list.cards.setQuery("k")
            $0.list.selection = 0
            $0.list.scrollTop = 0
        }
        check(&state, .enter) { $0.list.isEditingFilter = false }
        // Clearing the filter keeps the selected card (Kim Min-ji, row 1 of the whole list).
        check(&state, .escape) {
            $0.list.cards.setQuery("")
            $0.list.selection = 1
        }
        let selected = state.list.cards.rows[state.list.selection]
        check(&state, .char("s")) {
            $0.list.cards.setSortOrder(.name)
            $0.list.selection = $0.list.cards.row(ofIndex: selected) ?? -1
            $0.list.settle(viewport: viewport)
            $0.showMessage(.info, "Sorted by name", topic: .listScreen)
        }
        check(&state, .char("s")) {
            $0.list.cards.setSortOrder(.company)
            $0.list.selection = $0.list.cards.row(ofIndex: selected) ?? -1
            $0.list.settle(viewport: viewport)
            $0.showMessage(.info, "Sorted by company", topic: .listScreen)
        }
        // The log pane takes rows from the list, which scrolls to keep the selection in view.
        check(&state, .char("l")) {
            $0.log.isVisible = true
            $0.list.settle(viewport: $0.listViewport)
        }
        check(&state, .char("L")) {
            $0.log.height = .medium
            $0.list.settle(viewport: $0.listViewport)
        }
        check(&state, .tab) { $0.focus = .log }
        check(&state, .char("f")) { $0.log.failuresOnly = true }
        check(&state, .escape) { $0.focus = .screen }
        check(&state, .char("l")) {
            $0.log.isVisible = false
            $0.list.settle(viewport: $0.listViewport)
        }
        check(&state, .char("?")) { $0.modal = .help(scroll: 0) }
        check(&state, .char("j")) { $0.modal = .help(scroll: 1) }
        check(&state, .char("q")) { $0.modal = nil }
        check(&state, .char("a")) {
            $0.form = FormState()
            $0.screen = .form
            // "Sorted by company" was about the list: stale on the form.
            $0.message = nil
        }
    }

    @Test func detailScreen() {
        var state = AppState.loggedIn(cards: 3, height: 15)
        let card = SampleCards.summary(number: 0)
        check(&state, .enter, effects: [.perform(CallID(3), .loadCard(id: card.id))]) {
            $0.detail = DetailState(summary: card)
            $0.screen = .detail
            $0.pending[CallID(3)] = .init(call: .loadCard(id: card.id), route: .detail(.load(id: card.id)))
            $0.nextCallID = 4
        }
        let full = SampleCards.card(card)
        state.send(.completed(CallID(3), .success(.card(full))))
        check(&state, .char("j")) { $0.detail?.scroll = 1 }
        check(&state, .char("k")) { $0.detail?.scroll = 0 }
        check(&state, .char("d")) { $0.modal = .confirm(ConfirmState(.deleteCard(full.summary))) }
        check(&state, .right) { $0.modal = .confirm(ConfirmState(.deleteCard(full.summary), yes: true)) }
        check(&state, .escape) { $0.modal = nil }
        check(&state, .char("e")) {
            $0.form = FormState(editing: full, returnsToDetail: true)
            $0.screen = .form
        }
        check(&state, .escape) {
            $0.form = nil
            $0.screen = .detail
        }
        check(&state, .char("q")) {
            $0.detail = nil
            $0.screen = .list
        }
    }

    @Test func formScreen() {
        var state = AppState.loggedIn(cards: 1)
        state.press(.char("a"))
        check(&state, .char("K")) {
            $0.form?.fields[0].input = TextFieldState("K")
            $0.form?.fields[0].isTouched = true
        }
        check(&state, .left) { $0.form?.fields[0].input.cursor = 0 }
        check(&state, .ctrl("k")) { $0.form?.fields[0].input = TextFieldState("") }
        check(&state, .tab) { $0.form?.focus = 1 }
        check(&state, .backTab) { $0.form?.focus = 0 }
        let last = (state.form?.fields.count ?? 1) - 1
        check(&state, .up) { $0.form?.focus = last }
        check(&state, .down) { $0.form?.focus = 0 }
        check(&state, .enter) {
            $0.form?.showsAllProblems = true
            $0.showMessage(.error, "Fix the marked field first", topic: .form)
        }
        check(&state, .char("x")) {
            $0.form?.fields[0].input = TextFieldState("x")
        }
        check(&state, .escape) { $0.modal = .confirm(ConfirmState(.discardChanges)) }
        check(&state, .enter) { $0.modal = nil }
        check(&state, .ctrl("s"), effects: [.perform(CallID(3), .createCard(CardFields(name: "x"), imagePath: nil))]) {
            $0.form?.isSaving = true
            // "Fix the marked field first" is stale once the save starts.
            $0.message = nil
            $0.pending[CallID(3)] = .init(call: .createCard(CardFields(name: "x"), imagePath: nil), route: .form(.save))
            $0.nextCallID = 4
        }
        // Typed while saving: not taken, and said so.
        check(&state, .char("y")) {
            $0.showMessage(.info, "Saving… the text cannot change until the server answers", topic: .form)
        }
    }
}

extension ConfirmState {
    init(_ purpose: Purpose, yes: Bool) {
        self.init(purpose)
        isYesHighlighted = yes
    }
}
