import CardModels
import Testing

@testable import CardWalletUI

/// What a paste and the mouse do to the app; typing while a save is on the wire.
@Suite struct PasteAndMouseTests {
    @Test func aPasteIntoAOneLineFieldIsTextNeverEnter() {
        var state = AppState.loggedIn(cards: 2)
        state.press(.char("a"))
        state.press(.tab)
        let title = state.form?.fields[state.form?.focus ?? 0]
        #expect(title?.kind == .card(.title))
        let effects = state.send(.paste("Hello\nWorld"))
        #expect(effects.isEmpty, "nothing is saved")
        #expect(state.screen == .form)
        #expect(state.form?.fields[1].input.text == "Hello World")
        #expect(state.form?.fields[1].input.cursor == 11)
    }

    @Test func aPasteIntoBioKeepsItsLineBreaks() throws {
        var state = AppState.loggedIn(cards: 2)
        state.press(.char("a"))
        let bio = try #require(state.form?.fields.firstIndex { $0.kind == .card(.bio) })
        state.form?.focus = bio
        state.send(.paste("line one\nline two"))
        #expect(state.form?.fields[bio].input.text == "line one\nline two")
    }

    @Test func aPasteWhereNothingTakesTextDoesNothingButSaySo() {
        var state = AppState.loggedIn(cards: 3)
        let before = state
        let effects = state.send(.paste("dq"))
        #expect(effects.isEmpty)
        #expect(state.list == before.list)
        #expect(state.modal == nil)
        #expect(state.message?.text == "Nothing here takes text: / filters the cards, a adds a card, e edits one")
        state.press(.char("/"))
        state.send(.paste("Kim\nMin"))
        #expect(state.list.cards.query == "Kim Min")
    }

    @Test func aPasteIntoTheLoginFormIsOneLine() {
        var state = AppState(server: "http://127.0.0.1:8080/v1")
        #expect(state.login.focus == .email)
        state.send(.paste("me@example.com\n"))
        #expect(state.login.email.text == "me@example.com ")
        #expect(state.pending.isEmpty, "Enter was not pressed")
    }

    @Test func joinersMakeOneCharacterAndTheCursorFollows() {
        var field = TextFieldState()
        for scalar in ["👩", "\u{200D}", "👩", "\u{200D}", "👧"] { field.apply(.insert, typed: Character(scalar)) }
        #expect(field.text == "👩‍👩‍👧")
        #expect(field.text.count == 1)
        #expect(field.cursor == 1)
        field.apply(.insert, typed: "!")
        #expect(field.text == "👩‍👩‍👧!")
        // Persian: ZWNJ between letters stays.
        var persian = TextFieldState()
        for scalar in ["م", "ی", "\u{200C}", "خ", "و", "ا", "ه", "م"] {
            persian.apply(.insert, typed: Character(scalar))
        }
        #expect(persian.text.unicodeScalars.contains("\u{200C}"))
        #expect(persian.cursor == persian.text.count)
    }

    @Test func whileSavingEscAndTypingSayWhyNothingHappens() {
        var state = AppState.loggedIn(cards: 2)
        state.press(.char("a"))
        state.type("Kim")
        let save = state.press(.ctrl("s"))
        #expect(AppState.lastRequest(save) != nil)
        state.press(.escape)
        #expect(state.modal == nil, "no discard question over a save that is going through")
        #expect(state.message?.text == "Saving… it cannot be undone now; the form closes when the server answers")
        state.type("x")
        #expect(state.form?.fields[0].input.text == "Kim")
        #expect(state.message?.text == "Saving… the text cannot change until the server answers")
    }

    @Test func clickingACardSelectsItAndClickingAgainOpensIt() throws {
        var state = AppState.loggedIn(cards: 10, width: 80, height: 24)
        let firstRow = state.layout.content.lowerBound + 1
        #expect(state.send(.mouse(MouseEvent(.press, x: 5, y: firstRow + 3))).isEmpty)
        #expect(state.list.selection == 3)
        let open = state.send(.mouse(MouseEvent(.press, x: 5, y: firstRow + 3)))
        #expect(state.screen == .detail)
        #expect(AppState.lastRequest(open)?.1 == .loadCard(id: "card-3"))
        // A click below the last card does nothing.
        var short = AppState.loggedIn(cards: 2)
        short.send(.mouse(MouseEvent(.press, x: 5, y: firstRow + 5)))
        #expect(short.list.selection == 0)
        #expect(short.screen == .list)
    }

    @Test func theWheelScrollsWhatIsUnderIt() {
        var state = AppState.loggedIn(cards: 30)
        let row = state.layout.content.lowerBound + 2
        state.send(.mouse(MouseEvent(.wheelDown, x: 1, y: row)))
        #expect(state.list.selection == 3)
        state.send(.mouse(MouseEvent(.wheelUp, x: 1, y: row)))
        #expect(state.list.selection == 0)
        state.press(.char("?"))
        state.send(.mouse(MouseEvent(.wheelDown, x: 1, y: row)))
        #expect(state.modal == .help(scroll: 3))
    }
}
