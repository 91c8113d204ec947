import CardModels
import Testing

@testable import CardWalletUI

/// A dialog overlay made here, known to the app only through ``Overlay``: opened by a key's
/// command, it takes the keys while it shows, asks for a call whose outcome comes back to it,
/// runs a command on the screen beneath, closes; a refused opening says why; the session-expired
/// dialog goes over it, and help lists its keys.
@Suite struct OverlayTests {
    /// Picks one of the loaded cards and loads it.
    struct CardPicker: Overlay {
        var names: [String]
        var ids: [String]
        var selection = 0
        var loaded: String?

        static let opener = OverlayOpener("card picker") { app in
            let cards = app.list.cards.wallet.map { app.list.cards.summary(atIndex: $0) }
            guard !cards.isEmpty else { return .refuse("No cards to pick from") }
            return .open(CardPicker(names: cards.map(\.name), ids: cards.map(\.id)), [.message(.info, "Pick a card")])
        }

        static let keys = KeyTable(
            "Card picker",
            [
                KeyBinding(.char("j"), .down, command: .overlay(.scroll(.down)), "next card"),
                KeyBinding(.enter, command: .overlay(.accept), "load the card", hint: KeyHint("Enter", "load")),
                KeyBinding(.char("s"), command: .overlay(.named("sort")), "sort the list beneath"),
                KeyBinding(.escape, command: .overlay(.cancel), "close", hint: KeyHint("Esc", "close")),
            ])

        var keyTables: [KeyTable] { [Self.keys, KeyTables.interrupt] }

        mutating func reduce(_ command: OverlayCommand, typed: Character?, app: AppState) -> [OverlayEffect] {
            switch command {
            case .scroll(.down): selection = min(selection + 1, names.count - 1)
            case .accept: return [.call(.loadCard(id: ids[selection]), tag: "load")]
            case .named("sort"): return [.perform(.list(.cycleSort))]
            case .cancel: return [.close]
            default: break
            }
            return []
        }

        mutating func finished(tag: String, _ outcome: CallOutcome, app: AppState) -> [OverlayEffect] {
            guard tag == "load", case .success(.card(let card)) = outcome else { return [] }
            loaded = card.fields.name
            return [.message(.success, "Loaded “\(card.fields.name)”"), .close]
        }

        func draw(_ grid: inout Grid, app: AppState, layout: Layout) {
            let box = Renderer.drawBox(&grid, title: "Pick a card", width: 40, height: 6, layout: layout)
            grid.draw("→ " + names[selection], x: box.x, y: box.y)
        }
    }

    static func opened() -> AppState {
        var state = AppState.loggedIn(cards: 3)
        _ = state.perform(.open(CardPicker.opener), typed: nil)
        return state
    }

    @Test func anOpenerOpensItAndItsKeysDriveIt() throws {
        var state = Self.opened()
        let picker = try #require(state.overlay?.as(CardPicker.self))
        #expect(picker.names == SampleCards.summaries(count: 3).map(\.name))
        #expect(state.message?.text == "Pick a card")
        #expect(state.activeKeyTables == [CardPicker.keys, KeyTables.interrupt])
        #expect(Renderer.render(state).text.contains("→ " + picker.names[0]))

        state.press(.char("j"))
        #expect(state.overlay?.as(CardPicker.self)?.selection == 1)
        state.press(.char("x"))
        #expect(state.message?.text == "Key is not bound here: Esc closes this")

        // Its call's outcome comes back to it; then it closes.
        let effects = state.press(.enter)
        let (id, call) = try #require(AppState.lastRequest(effects))
        #expect(call == .loadCard(id: picker.ids[1]))
        #expect(state.pending[id]?.route == .overlay(name: "card picker", tag: "load"))
        let card = SampleCards.card(SampleCards.summaries(count: 3)[1])
        state.send(.completed(id, .success(.card(card))))
        #expect(state.overlay == nil)
        #expect(state.message?.text == "Loaded “\(card.fields.name)”")
    }

    @Test func itRunsCommandsOnTheScreenBeneathAndEscClosesIt() {
        var state = Self.opened()
        let order = state.list.cards.sortOrder
        state.press(.char("s"))
        #expect(state.list.cards.sortOrder == order.next)
        #expect(state.overlay != nil)
        state.press(.escape)
        #expect(state.overlay == nil)
        #expect(state.activeKeyTables == [KeyTables.list, KeyTables.global])
    }

    @Test func anOutcomeAfterItClosedGoesNowhere() throws {
        var state = Self.opened()
        let (id, _) = try #require(AppState.lastRequest(state.press(.enter)))
        state.press(.escape)
        let before = state
        state.send(.completed(id, .success(.card(SampleCards.card(SampleCards.summaries(count: 1)[0])))))
        #expect(state.overlay == nil && state.list == before.list)
    }

    @Test func aRefusedOpeningSaysWhy() {
        var state = AppState.loggedIn(cards: 0)
        _ = state.perform(.open(CardPicker.opener), typed: nil)
        #expect(state.overlay == nil)
        #expect(state.message?.text == "No cards to pick from")
    }

    @Test func theSessionExpiredDialogGoesOverADialogAndHelpListsItsKeys() {
        var state = Self.opened()
        state.send(.session(.expired(email: testEmail, server: testServer)))
        #expect(state.activeKeyTables.first == KeyTables.reauth)
        state.press(.escape)
        #expect(state.reauth == nil && state.overlay != nil)
        state.press(.function(1))
        #expect(state.modal == nil, "F1 is not the picker's")
        state.modal = .help(scroll: 0)
        #expect(state.helpTables == [CardPicker.keys, KeyTables.interrupt])
    }

    @Test func aPageOverlayGoesOverTheSessionExpiredDialog() throws {
        var state = AppState.loggedIn(cards: 1)
        state.send(.log(LogLine(id: 1, time: SampleCards.epoch, kind: .response, method: "GET", path: "/cards")))
        state.press(.char("l"), .tab, .enter)
        #expect(state.overlay?.as(LogDetailPage.self) == LogDetailPage(lineID: 1))
        state.send(.session(.expired(email: testEmail, server: testServer)))
        #expect(state.activeKeyTables.first == LogDetailPage.keys)
        #expect(!Renderer.render(state).text.contains("Session expired"))
        state.press(.escape)
        #expect(state.overlay == nil && state.activeKeyTables.first == KeyTables.reauth)
    }
}
