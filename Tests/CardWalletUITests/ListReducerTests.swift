import CardModels
import Testing

@testable import CardWalletUI

/// A list with the first `count` sample cards of `total` loaded.
func loadedList(_ count: Int, total: Int? = nil, pageSize: Int = 100, viewport: Int = 10) -> ListState {
    var list = ListState(pageSize: pageSize)
    _ = list.reduce(.reload, viewport: viewport)
    _ = list.reduce(.pageLoaded(SampleCards.page(offset: 0, limit: count, total: total ?? count)), viewport: viewport)
    return list
}

@Suite struct ListReducerTests {
    @Test func reloadAsksForTheFirstPage() {
        var list = ListState(pageSize: 50)
        var expected = list
        let effects = list.reduce(.reload, viewport: 10)
        expected.generation = 1
        expected.isLoadingPage = true
        #expect(list == expected)
        #expect(effects == [.call(.loadCards(offset: 0, limit: 50, query: nil), then: .page(generation: 1))])
    }

    @Test func movementKeysGiveExactSelectionAndScroll() {
        var list = loadedList(30)
        var expected = list
        func press(
            _ command: ScrollCommand, selection: Int, scrollTop: Int, sourceLocation: SourceLocation = #_sourceLocation
        ) {
            let effects = list.reduce(.command(.move(command)), viewport: 10)
            expected.selection = selection
            expected.scrollTop = scrollTop
            #expect(list == expected, sourceLocation: sourceLocation)
            #expect(effects.isEmpty, sourceLocation: sourceLocation)
        }
        press(.down, selection: 1, scrollTop: 0)
        press(.up, selection: 0, scrollTop: 0)
        press(.up, selection: 0, scrollTop: 0)
        for row in 1...9 { press(.down, selection: row, scrollTop: 0) }
        press(.down, selection: 10, scrollTop: 1)
        press(.bottom, selection: 29, scrollTop: 20)
        press(.top, selection: 0, scrollTop: 0)
        press(.pageDown, selection: 10, scrollTop: 10)
        press(.halfPageDown, selection: 15, scrollTop: 15)
        press(.pageDown, selection: 25, scrollTop: 20)
        press(.pageDown, selection: 29, scrollTop: 20)
        press(.halfPageUp, selection: 24, scrollTop: 15)
        press(.pageUp, selection: 14, scrollTop: 5)
    }

    @Test func scrollingNearTheEndLoadsTheNextPage() {
        var list = loadedList(100, total: 250)
        #expect(list.cards.total == 250)
        #expect(!list.isLoadingPage)
        var effects = list.reduce(.command(.move(.bottom)), viewport: 10)
        #expect(effects == [.call(.loadCards(offset: 100, limit: 100, query: nil), then: .page(generation: 1))])
        #expect(list.isLoadingPage)
        // A second key while the page is in flight asks for nothing more.
        effects = list.reduce(.command(.move(.up)), viewport: 10)
        #expect(effects.isEmpty)
        effects = list.reduce(.pageLoaded(SampleCards.page(offset: 100, limit: 100, total: 250)), viewport: 10)
        #expect(list.cards.loadedCount == 200)
        #expect(list.selection == 98)
        #expect(effects.isEmpty)
    }

    @Test func aFailedPageStopsLoadingAheadUntilTheUserMoves() {
        var list = loadedList(100, total: 250)
        _ = list.reduce(.command(.move(.bottom)), viewport: 10)
        var effects = list.reduce(.pageFailed, viewport: 10)
        #expect(effects.isEmpty)
        #expect(list.isPagingPaused)
        effects = list.reduce(.command(.move(.up)), viewport: 10)
        #expect(effects.isEmpty)
        effects = list.reduce(.command(.move(.down)), viewport: 10)
        #expect(effects == [.call(.loadCards(offset: 100, limit: 100, query: nil), then: .page(generation: 1))])
    }

    @Test func filterNarrowsAsYouTypeAndEscClears() {
        var list = loadedList(30)
        _ = list.reduce(.command(.move(.down)), viewport: 10)
        _ = list.reduce(.command(.startFilter), viewport: 10)
        #expect(list.isEditingFilter)
        for character in "kim" { _ = list.reduce(.filter(.insert, typed: character), viewport: 10) }
        #expect(list.cards.query == "kim")
        let names = list.cards.rows.map { list.cards.summary(atIndex: $0).name }
        #expect(names == ["Kim Min-ji", "Kim Min-ji 15", "Kim Min-ji 29"])
        // The selected card (Kim Min-ji, row 1) still matches, so it stays selected.
        #expect(list.selectedCard?.id == "card-1")
        #expect(list.selection == 0)
        _ = list.reduce(.filter(.insert, typed: " "), viewport: 10)
        _ = list.reduce(.filter(.insert, typed: "1"), viewport: 10)
        // Every word must match: "1" is in person1@… and in "15".
        #expect(list.cards.rows.map { list.cards.summary(atIndex: $0).id } == ["card-1", "card-15"])
        _ = list.reduce(.filter(.deleteBackward, typed: nil), viewport: 10)
        #expect(list.cards.rows.count == 3)
        _ = list.reduce(.filter(.cancel, typed: nil), viewport: 10)
        #expect(!list.isEditingFilter)
        #expect(list.cards.query.isEmpty)
        #expect(list.cards.rows.count == 30)
        #expect(list.selectedCard?.id == "card-1")
    }

    @Test func filterMatchesEveryFieldCaseAndWidthInsensitively() {
        var list = loadedList(30)
        _ = list.reduce(.command(.startFilter), viewport: 10)
        for character in "ＡＣＭＥ" { _ = list.reduce(.filter(.insert, typed: character), viewport: 10) }
        #expect(!list.cards.rows.isEmpty)
        #expect(list.cards.rows.allSatisfy { list.cards.summary(atIndex: $0).company == "Acme" })
        _ = list.reduce(.filter(.clear, typed: nil), viewport: 10)
        for character in "山田" { _ = list.reduce(.filter(.insert, typed: character), viewport: 10) }
        #expect(list.cards.rows.map { list.cards.summary(atIndex: $0).id } == ["card-2", "card-16"])
        _ = list.reduce(.filter(.clear, typed: nil), viewport: 10)
        for character in "person29@" { _ = list.reduce(.filter(.insert, typed: character), viewport: 10) }
        #expect(list.cards.rows.map { list.cards.summary(atIndex: $0).id } == ["card-29"])
    }

    @Test func enterKeepsTheFilterAndNextMatchWraps() {
        var list = loadedList(30)
        _ = list.reduce(.command(.startFilter), viewport: 10)
        for character in "kim" { _ = list.reduce(.filter(.insert, typed: character), viewport: 10) }
        _ = list.reduce(.filter(.accept, typed: nil), viewport: 10)
        #expect(!list.isEditingFilter)
        #expect(list.cards.query == "kim")
        var effects = list.reduce(.command(.nextMatch), viewport: 10)
        #expect(list.selection == 1)
        #expect(effects.isEmpty)
        effects = list.reduce(.command(.nextMatch), viewport: 10)
        #expect(list.selection == 2)
        effects = list.reduce(.command(.nextMatch), viewport: 10)
        #expect(list.selection == 0)
        #expect(effects == [.message(.info, "Search wrapped to the first match", about: .listScreen)])
        effects = list.reduce(.command(.previousMatch), viewport: 10)
        #expect(list.selection == 2)
        #expect(effects == [.message(.info, "Search wrapped to the last match", about: .listScreen)])
        effects = list.reduce(.command(.clearFilter), viewport: 10)
        #expect(list.cards.rows.count == 30)
        effects = list.reduce(.command(.nextMatch), viewport: 10)
        #expect(effects == [.message(.info, "No filter: press / and type to find cards", about: .listScreen)])
    }

    @Test func backspaceOnAnEmptyFilterLeavesIt() {
        var list = loadedList(5)
        _ = list.reduce(.command(.startFilter), viewport: 10)
        _ = list.reduce(.filter(.deleteBackward, typed: nil), viewport: 10)
        #expect(!list.isEditingFilter)
    }

    @Test func sortCyclesThroughEveryOrder() {
        var list = loadedList(14)
        var effects = list.reduce(.command(.cycleSort), viewport: 10)
        #expect(list.cards.sortOrder == .name)
        #expect(effects == [.message(.info, "Sorted by name", about: .listScreen)])
        let names = list.cards.rows.map { list.cards.summary(atIndex: $0).name }
        #expect(names.prefix(4) == ["Ada Lovelace", "Amélie Poulain", "Grace Hopper", "José Álvarez"])
        effects = list.reduce(.command(.cycleSort), viewport: 10)
        #expect(list.cards.sortOrder == .company)
        let companies = list.cards.rows.map { list.cards.summary(atIndex: $0).company }
        #expect(companies.first == "Acme")
        #expect(companies.last == .some(nil))
        _ = list.reduce(.command(.cycleSort), viewport: 10)
        #expect(list.cards.sortOrder == .updated)
        let dates = list.cards.rows.map { list.cards.summary(atIndex: $0).updatedAt }
        #expect(dates == dates.sorted(by: >))
        _ = list.reduce(.command(.cycleSort), viewport: 10)
        #expect(list.cards.sortOrder == .wallet)
        #expect(list.cards.rows == list.cards.wallet)
    }

    @Test func moveCardReordersTheWalletAndSendsTheWholeOrder() {
        var list = loadedList(4)
        var expected = list
        let effects = list.reduce(.command(.moveCardDown), viewport: 10)
        #expect(effects == [.call(.reorderCards(order: ["card-1", "card-0", "card-2", "card-3"]), then: .reorder)])
        _ = expected.cards.moveInWallet(from: 0, by: 1)
        expected.selection = 1
        expected.isReordering = true
        #expect(list == expected)
        // One order at a time: the next waits for the first to be saved, the newest wins.
        #expect(list.reduce(.command(.moveCardUp), viewport: 10).isEmpty)
        #expect(list.queuedReorder == ["card-0", "card-1", "card-2", "card-3"])
        #expect(list.selection == 0)
        let next = list.reduce(.finished(.reorder, .success(.reordered)), viewport: 10)
        #expect(next == [.call(.reorderCards(order: ["card-0", "card-1", "card-2", "card-3"]), then: .reorder)])
        #expect(list.queuedReorder == nil)
        #expect(list.reduce(.finished(.reorder, .success(.reordered)), viewport: 10).isEmpty)
        #expect(!list.isReordering)
        #expect(list.reduce(.command(.moveCardUp), viewport: 10).isEmpty)
    }

    @Test func moveCardSaysWhyItCannot() {
        var sorted = loadedList(4)
        _ = sorted.reduce(.command(.cycleSort), viewport: 10)
        let before = sorted
        let sortedEffects = sorted.reduce(.command(.moveCardDown), viewport: 10)
        #expect(
            sortedEffects == [
                .message(
                    .warning, "Cards move only in wallet order (sorted by name): press s to go back", about: .listScreen
                )
            ])
        #expect(sorted == before)

        var filtered = loadedList(4)
        _ = filtered.reduce(.filter(.insert, typed: "k"), viewport: 10)
        #expect(
            filtered.reduce(.command(.moveCardDown), viewport: 10) == [
                .message(.warning, "Clear the filter (Esc) to move cards in the wallet", about: .listScreen)
            ])

        var partial = loadedList(100, total: 300)
        let effects = partial.reduce(.command(.moveCardDown), viewport: 10)
        #expect(
            effects == [
                .message(.info, "Loading the whole wallet before moving cards (100 of 300)", about: .listScreen),
                .call(.loadCards(offset: 100, limit: 100, query: nil), then: .page(generation: 1)),
            ])
    }

    @Test func selectedCardCommandsCarryTheCard() {
        var list = loadedList(3)
        _ = list.reduce(.command(.move(.down)), viewport: 10)
        let card = SampleCards.summary(number: 1)
        #expect(list.reduce(.command(.open), viewport: 10) == [.open(card)])
        #expect(
            list.reduce(.command(.edit), viewport: 10) == [
                .message(.info, "Loading “\(card.name)” to edit…", about: .listScreen),
                .call(.loadCard(id: card.id), then: .loadForEdit(id: card.id)),
            ])
        #expect(list.reduce(.command(.delete), viewport: 10) == [.delete(card)])
        #expect(list.reduce(.command(.add), viewport: 10) == [.add])
        #expect(list.reduce(.command(.quit), viewport: 10) == [.quit])
        var empty = loadedList(0)
        #expect(
            empty.reduce(.command(.open), viewport: 10) == [.message(.info, "No card selected", about: .listScreen)])
    }

    @Test func savedAndRemovedCardsUpdateTheRows() {
        var list = loadedList(3)
        _ = list.reduce(.command(.move(.bottom)), viewport: 10)
        var renamed = SampleCards.summary(number: 2)
        renamed.name = "Renamed"
        _ = list.reduce(.cardSaved(renamed, isNew: false), viewport: 10)
        #expect(list.selectedCard == renamed)
        let added = SampleCards.summary(number: 99)
        _ = list.reduce(.cardSaved(added, isNew: true), viewport: 10)
        #expect(list.cards.total == 4)
        #expect(list.selectedCard == added)
        _ = list.reduce(.cardRemoved(id: added.id), viewport: 10)
        #expect(list.cards.total == 3)
        #expect(list.selection == 2)
        #expect(list.selectedCard == renamed)
    }
}
