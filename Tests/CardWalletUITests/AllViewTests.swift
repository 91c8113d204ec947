import CardModels
import Foundation
import Testing

@testable import CardWalletUI

/// Every book in one wallet, in the interface (issue 40): `B` shows every book with a BOOK
/// column (one book looks as before), `m`/`c` pick a book to move or copy the card to, `M`
/// merges the two marked cards field by field, and the background sync replaces the list in
/// place with the cursor on the card it was on.
@Suite struct AllViewTests {
    static let date = Date(timeIntervalSince1970: 1_700_000_000)
    static let labels = ["1": "work", "2": "home"]
    static let cards = [
        CardSummary(id: "1/w1", name: "Ada Lovelace", email: "ada@work.example", updatedAt: date),
        CardSummary(id: "1/w2", name: "Bob Work", updatedAt: date),
        CardSummary(id: "2/h1", name: "Cleo Home", updatedAt: date),
    ]

    /// The books the picker is answered with: work's (the cards' first) and home's (in use).
    static let books = [
        BookChoice(tag: "1", label: "work", account: "work", inUse: false),
        BookChoice(tag: "2", label: "home", account: "home", inUse: true),
    ]

    /// The list showing every book: B answered, the All view's list loaded.
    static func allView() throws -> AppState {
        var state = AppState.loggedIn(cards: 3, width: 100)
        let effects = state.press(.char("B"))
        #expect(AppState.lastRequest(effects)?.1 == .nextBook)
        let reload = state.answer(effects) { _ in
            .success(.showingAllBooks(labels: labels, session: .loggedIn(email: "ann", server: "all books")))
        }
        let (id, call) = try #require(AppState.lastRequest(reload))
        guard case .loadCards(0, _, nil) = call else {
            Issue.record("no reload after B: \(call)")
            return state
        }
        _ = state.reduce(.completed(id, .success(.cards(CardPage(cards: cards, total: 3, offset: 0, limit: 100)))))
        return state
    }

    @Test func theAllViewHasABookColumnAndOneBookLooksAsBefore() throws {
        let one = Renderer.render(AppState.loggedIn(cards: 3, width: 100)).text
        #expect(!one.contains("Book"))

        let state = try Self.allView()
        #expect(state.list.showsAllBooks)
        #expect(state.message?.text == "All address books (2): B shows one")
        let frame = Renderer.render(state).text
        let header = try #require(frame.split(separator: "\n").first { $0.contains("Name") })
        #expect(header.contains("Book"))
        let cleo = try #require(frame.split(separator: "\n").first { $0.contains("Cleo Home") })
        #expect(cleo.contains("home"))
        #expect(!frame.contains("1/w1"), "the tags stay inside")
    }

    @Test func aBookWhoseServerDidNotAnswerIsNamedInTheStatusBar() throws {
        var state = AppState.loggedIn(cards: 3, width: 120)
        let effects = state.press(.char("B"))
        let reload = state.answer(effects) { _ in
            .success(.showingAllBooks(labels: Self.labels, session: .loggedIn(email: "ann", server: "all books")))
        }
        let (id, _) = try #require(AppState.lastRequest(reload))
        let page = CardPage(cards: Self.cards, total: 3, offset: 0, limit: 100)
        let behind = BookBehind(label: "work\u{1B}[2J", problem: "its server cannot be reached", asOf: Self.date)
        _ = state.reduce(.completed(id, .success(.withBooksBehind([behind], .cards(page)))))
        #expect(state.list.cards.loadedCount == 3, "every book's cards, the cached ones too")
        #expect(state.connection == .online, "the other books answered")
        let text = try #require(state.message?.text)
        #expect(text == "work^[[2J: its server cannot be reached; cards as of 22:13")
        #expect(state.message?.kind == .warning)
    }

    @Test func mPicksTheBookAndEnterMovesTheCardThere() throws {
        var state = try Self.allView()
        var effects = state.press(.char("m"))
        let picker = try #require(state.overlay?.as(BookPicker.self))
        #expect(picker.card.id == "1/w1")
        #expect(AppState.lastRequest(effects)?.1 == .listBooks)
        effects = state.answer(effects) { _ in .success(.books(Self.books)) }
        #expect(state.overlay?.as(BookPicker.self)?.selected == 1, "the first book the card is not in")
        #expect(Renderer.render(state).text.contains("work  (work)  (here)"))
        #expect(Renderer.render(state).text.contains("Enter moves it there"))
        effects = state.press(.enter)
        #expect(AppState.lastRequest(effects)?.1 == .transferCard(id: "1/w1", toBook: "2", copy: false))
        effects = state.answer(effects) { _ in .success(.transferred("Moved “Ada Lovelace” to home")) }
        #expect(state.overlay == nil)
        #expect(state.message?.text == "Moved “Ada Lovelace” to home")
        guard case .loadCards? = AppState.lastRequest(effects)?.1 else {
            Issue.record("no reload after the move")
            return
        }
    }

    @Test func cPicksTheBookAndEnterCopiesTheCardThere() throws {
        var state = try Self.allView()
        var effects = state.press(.char("c"))
        effects = state.answer(effects) { _ in .success(.books(Self.books)) }
        let frame = Renderer.render(state).text
        #expect(frame.contains("Copy “"))
        #expect(frame.contains("Enter copies it there"), "not “copys”")
        effects = state.press(.enter)
        #expect(AppState.lastRequest(effects)?.1 == .transferCard(id: "1/w1", toBook: "2", copy: true))
    }

    @Test func afterAMoveTheCursorStaysOnItsRowNotTheTop() throws {
        var state = try Self.allView()
        _ = state.press(.char("j"))
        #expect(state.list.selectedCard?.id == "1/w2")
        var effects = state.press(.char("m"))
        effects = state.answer(effects) { _ in .success(.books(Self.books)) }
        effects = state.press(.enter)
        #expect(AppState.lastRequest(effects)?.1 == .transferCard(id: "1/w2", toBook: "2", copy: false))
        effects = state.answer(effects) { _ in .success(.transferred("Moved “Bob Work” to home")) }
        // The card is in home now, under another id: the cursor stays on the second row.
        let moved = [
            Self.cards[0], Self.cards[2], CardSummary(id: "2/h2", name: "Bob Work", updatedAt: Self.date),
        ]
        _ = state.answer(effects) { _ in .success(.cards(CardPage(cards: moved, total: 3, offset: 0, limit: 100))) }
        #expect(state.list.selection == 1)
        #expect(state.list.selectedCard?.name == "Cleo Home")
    }

    @Test func enterBeforeTheBooksAreReadSaysSoAndMovesNothing() throws {
        var state = try Self.allView()
        var effects = state.press(.char("m"))
        #expect(Renderer.render(state).text.contains("Reading the books…"))
        let early = state.press(.enter)
        #expect(AppState.lastRequest(early) == nil)
        #expect(state.message?.text.contains("Still reading the books") == true)
        #expect(state.overlay?.as(BookPicker.self) != nil, "the dialog stays open")
        effects = state.answer(effects) { _ in .success(.books(Self.books)) }
        effects = state.press(.enter)
        #expect(AppState.lastRequest(effects)?.1 == .transferCard(id: "1/w1", toBook: "2", copy: false))
    }

    @Test func enterOnTheCardsOwnBookMovesNothing() throws {
        var state = try Self.allView()
        var effects = state.press(.char("c"))
        effects = state.answer(effects) { _ in .success(.books(Self.books)) }
        effects = state.press(.char("k"), .enter)
        #expect(AppState.lastRequest(effects) == nil)
        #expect(state.message?.text.contains("is in work already") == true)
    }

    @Test func mWithTwoMarkedCardsOpensTheMergeAndEnterSendsThePlan() throws {
        var state = try Self.allView()
        #expect(state.press(.char("M")).isEmpty)
        #expect(state.message?.text.contains("Mark two cards") == true)

        _ = state.press(.char(" "), .char("j"), .char("j"), .char(" "))
        var effects = state.press(.char("M"))
        #expect(AppState.lastRequest(effects)?.1 == .loadMerge(left: "1/w1", right: "2/h1"))
        let left = Card(
            id: "1/w1", fields: CardFields(name: "Ada Lovelace", email: "ada@work.example"), createdAt: Self.date,
            updatedAt: Self.date)
        let right = Card(
            id: "2/h1", fields: CardFields(name: "Ada", title: "Countess", email: "ada@home.example"),
            createdAt: Self.date, updatedAt: Self.date)
        effects = state.answer(effects) { _ in
            .success(.mergeCandidates(left: left, right: right, leftBook: "work", rightBook: "home"))
        }
        let frame = Renderer.render(state).text
        #expect(frame.contains("Merge two cards"))
        #expect(frame.contains("kept · work"))
        #expect(frame.contains("deleted · home"))

        // The email row takes the right card's value; Tab keeps the right card.
        let screen = try #require(state.overlay?.as(MergeScreen.self))
        let emailRow = try #require(screen.plan?.rows.firstIndex(of: .email))
        for _ in 0..<emailRow { _ = state.press(.char("j")) }
        _ = state.press(.char("l"), .tab)
        effects = state.press(.enter)
        guard case .mergeCards(let plan)? = AppState.lastRequest(effects)?.1 else {
            Issue.record("no merge sent")
            return
        }
        #expect(plan.keep == .right)
        #expect(plan.fields.name == "Ada Lovelace")
        #expect(plan.fields.title == "Countess")
        #expect(plan.fields.email == "ada@home.example")
        #expect(plan.otherEmail == "ada@work.example", "the other email is kept too")
        effects = state.answer(effects) { _ in .success(.transferred("Merged into “Ada Lovelace” in home")) }
        #expect(state.overlay == nil)
        #expect(state.list.marked.isEmpty)
    }

    @Test func aSyncedListReplacesTheListInPlaceWithTheCursorOnItsCard() throws {
        var state = try Self.allView()
        _ = state.press(.char("j"))
        #expect(state.list.selectedCard?.name == "Bob Work")
        let arrived = [CardSummary(id: "1/w0", name: "Made on a phone", updatedAt: Self.date)] + Self.cards
        _ = state.reduce(.synced(CardPage(cards: arrived, total: 4, offset: 0, limit: 4)))
        #expect(state.list.cards.loadedCount == 4)
        #expect(state.list.selectedCard?.name == "Bob Work", "the cursor stays on its card")
        #expect(Renderer.render(state).text.contains("Made on a phone"))
    }

    /// The card on the detail screen after a background sync: read again when it changed
    /// elsewhere, the screen closed (and why said) when it was deleted elsewhere.
    @Test func theOpenCardFollowsTheSyncChangedOrDeletedElsewhere() throws {
        var state = try Self.allView()
        _ = state.press(.char("j"))
        var effects = state.press(.enter)
        #expect(AppState.lastRequest(effects)?.1 == .loadCard(id: "1/w2"))
        let bob = Card(id: "1/w2", fields: CardFields(name: "Bob Work"), createdAt: Self.date, updatedAt: Self.date)
        effects = state.answer(effects) { _ in .success(.card(bob)) }
        #expect(state.screen == .detail)

        // The same list: nothing asked.
        #expect(state.reduce(.synced(CardPage(cards: Self.cards, total: 3, offset: 0, limit: 3))).isEmpty)
        #expect(state.message?.text.contains("elsewhere") != true)

        // Changed elsewhere: read again.
        var changed = Self.cards
        changed[1].revision = CardRevision(2)
        effects = state.reduce(.synced(CardPage(cards: changed, total: 3, offset: 0, limit: 3)))
        #expect(AppState.lastRequest(effects)?.1 == .loadCard(id: "1/w2"))
        #expect(state.message?.text == "“Bob Work” changed elsewhere: shown as it is now")
        var renamed = bob
        renamed.fields.title = "Now a title"
        renamed.revision = CardRevision(2)
        _ = state.answer(effects) { _ in .success(.card(renamed)) }
        #expect(Renderer.render(state).text.contains("Now a title"))

        // A partial list says nothing of the cards it lacks.
        let partial = [Self.cards[0]]
        #expect(state.reduce(.synced(CardPage(cards: partial, total: 3, offset: 0, limit: 1))).isEmpty)
        #expect(state.screen == .detail)

        // Deleted elsewhere: back to the list, which no longer has it.
        _ = state.reduce(.synced(CardPage(cards: [Self.cards[0], Self.cards[2]], total: 2, offset: 0, limit: 2)))
        #expect(state.screen == .list)
        #expect(state.message?.text == "“Bob Work” was deleted elsewhere: it is no longer on its server")
        #expect(state.list.cards.index(ofID: "1/w2") == nil)
        #expect(state.detail == nil)
    }
}
