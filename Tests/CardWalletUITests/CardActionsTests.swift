import CardModels
import Foundation
import Testing

@testable import CardWalletUI

/// Marking several cards, undoing a delete, copying a field, opening a website or an email.
@Suite struct CardActionsTests {
    @Test func markedCardsAreDeletedTogetherAfterOneQuestion() throws {
        var state = AppState.loggedIn(cards: 5)
        state.press(.char(" "), .char(" "))
        #expect(state.list.marked == ["card-0", "card-1"])
        #expect(state.list.selection == 2)
        let frame = Renderer.render(state).text.split(separator: "\n")
        #expect(frame[0].contains("2 marked"))
        #expect(frame[2].hasPrefix("*") && frame[3].hasPrefix("*") && !frame[4].hasPrefix("*"))
        state.press(.char("d"))
        let first = SampleCards.summary(number: 0)
        let second = SampleCards.summary(number: 1)
        #expect(state.modal == .confirm(ConfirmState(.deleteCards([first, second]))))
        #expect(ConfirmState(.deleteCards([first, second])).question == "Delete the 2 marked cards?")
        let effects = state.press(.char("y"))
        let calls = effects.compactMap { if case .perform(_, let call) = $0 { call } else { nil } }
        #expect(calls == [.deleteCard(id: "card-0"), .deleteCard(id: "card-1")])
        #expect(state.list.marked.isEmpty)
        state.answer(effects) { call in
            guard case .deleteCard(let id) = call else { return .failure(UIFailure(.other, message: "?")) }
            return .success(.deleted(id: id, backup: nil))
        }
        #expect(state.list.cards.walletIDs == ["card-2", "card-3", "card-4"])
        // Esc with no filter clears marks.
        state.press(.char(" "))
        #expect(!state.list.marked.isEmpty)
        state.press(.escape)
        #expect(state.list.marked.isEmpty)
    }

    @Test func uBringsBackTheLastDeleteWhereItWas() throws {
        var state = AppState.loggedIn(cards: 4)
        state.send(.tick(now: .seconds(100)))
        state.press(.char("j"), .char("j"))
        state.press(.char("d"))
        let delete = state.press(.char("y"))
        let (id, _) = try #require(AppState.lastRequest(delete))
        let card = SampleCards.card(SampleCards.summary(number: 2))
        state.send(.completed(id, .success(.deleted(id: "card-2", backup: DeletedCard(card: card)))))
        #expect(state.list.cards.walletIDs == ["card-0", "card-1", "card-3"])
        #expect(state.message?.text == "Deleted “\(card.fields.name)” · u brings it back")
        state.send(.tick(now: .seconds(105)))
        let undo = state.press(.char("u"))
        let (restoreID, restore) = try #require(AppState.lastRequest(undo))
        #expect(restore == .restoreCard(DeletedCard(card: card)))
        var again = card
        again.id = "card-new"
        let reorder = state.send(.completed(restoreID, .success(.card(again))))
        // Back in the wallet at its old place.
        #expect(state.list.cards.walletIDs == ["card-0", "card-1", "card-new", "card-3"])
        #expect(AppState.lastRequest(reorder)?.1 == .reorderCards(order: ["card-0", "card-1", "card-new", "card-3"]))
        #expect(state.message?.text == "Brought back “\(card.fields.name)”")
        // Once only, and only for a while.
        state.press(.char("u"))
        #expect(state.message?.text == "Nothing to undo: a delete can be undone for 10 seconds")
    }

    @Test func anOldDeleteCannotBeUndone() throws {
        var state = AppState.loggedIn(cards: 2)
        state.press(.char("d"))
        let delete = state.press(.char("y"))
        let (id, _) = try #require(AppState.lastRequest(delete))
        let card = SampleCards.card(SampleCards.summary(number: 0))
        state.send(.completed(id, .success(.deleted(id: "card-0", backup: DeletedCard(card: card)))))
        state.send(.tick(now: state.now + .seconds(11)))
        #expect(state.press(.char("u")).isEmpty)
        #expect(state.message?.text == "Nothing to undo: a delete can be undone for 10 seconds")
    }

    @Test func yCopiesTheFieldTheNextKeyNames() throws {
        var state = AppState.loggedIn(cards: 2)
        let open = state.press(.enter)
        let card = SampleCards.card(SampleCards.summary(number: 0))
        state.answer(open) { _ in .success(.card(card)) }
        #expect(state.press(.char("y")).isEmpty)
        #expect(state.detail?.isChoosingCopy == true)
        #expect(state.activeKeyTables.first?.title == "Copy")
        let effects = state.press(.char("e"))
        #expect(effects == [.copyToClipboard(try #require(card.fields.email))])
        #expect(state.message?.text == "Copied the email address to the clipboard (through the terminal: OSC 52)")
        state.press(.char("y"))
        #expect(state.press(.char("y")) == [.copyToClipboard(DetailState.text(of: card))])
        #expect(DetailState.text(of: card).contains("Name: \(card.fields.name)"))
        state.press(.char("y"))
        #expect(state.press(.escape).isEmpty)
        #expect(state.message?.text == "Copied nothing")
        #expect(state.detail?.isChoosingCopy == false)
    }

    @Test func oOpensTheWebsiteAndMWritesAnEmail() throws {
        var state = AppState.loggedIn(cards: 2)
        let open = state.press(.enter)
        let card = SampleCards.card(SampleCards.summary(number: 0))
        state.answer(open) { _ in .success(.card(card)) }
        #expect(state.press(.char("o")) == [.openExternally(try #require(card.fields.website))])
        #expect(state.press(.char("m")) == [.openExternally("mailto:" + (try #require(card.fields.email)))])
        var bare = card
        bare.fields.website = nil
        state.send(.completed(CallID(99), .success(.card(bare))))
        state.detail?.card = bare
        #expect(state.press(.char("o")).isEmpty)
        #expect(state.message?.text == "This card has no website")
    }
}
