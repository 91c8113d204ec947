import CardModels
import Testing

@testable import CardWalletUI

/// A small deterministic generator, so the property test is repeatable.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

@Suite struct CardCollectionTests {
    func collection(_ count: Int) -> CardCollection {
        var cards = CardCollection()
        cards.append(SampleCards.page(offset: 0, limit: count, total: count))
        return cards
    }

    /// What the filter should keep, worked out the slow and obvious way.
    func bruteForce(_ cards: CardCollection, _ query: String) -> [Int32] {
        let words = query.lowercased().split(separator: " ").map(String.init)
        return (cards.sortOrder == .wallet ? cards.wallet : cards.rows).filter { index in
            let card = cards.summary(atIndex: index)
            let fields = [card.name, card.company ?? "", card.title ?? "", card.email ?? ""].map { $0.lowercased() }
            return words.allSatisfy { word in fields.contains { $0.contains(word) } }
        }
    }

    @Test func incrementalFilteringEqualsFilteringFromScratch() {
        var random = SplitMix(state: 42)
        var cards = collection(500)
        let alphabet = Array("aeikmnorst 1234@.김민山田")
        var query = ""
        for _ in 0..<400 {
            if !query.isEmpty, Int.random(in: 0..<3, using: &random) == 0 {
                query.removeLast()
            } else {
                query.append(alphabet[Int.random(in: 0..<alphabet.count, using: &random)])
            }
            cards.setQuery(query)
            let expected = query.split(separator: " ").isEmpty ? cards.wallet : bruteForce(cards, query)
            #expect(cards.rows == expected, "query \(query)")
        }
    }

    @Test func filterLevelsAreBounded() {
        var cards = collection(50)
        var query = ""
        for _ in 0..<100 {
            query += "a"
            cards.setQuery(query)
        }
        #expect(cards.rows.isEmpty)
        while !query.isEmpty {
            query.removeLast()
            cards.setQuery(query)
        }
        #expect(cards.rows == cards.wallet)
    }

    @Test func pagesArrivingDuringAFilterAreFiltered() {
        var cards = CardCollection()
        cards.append(SampleCards.page(offset: 0, limit: 14, total: 42))
        cards.setQuery("kim")
        #expect(cards.rows.count == 1)
        cards.append(SampleCards.page(offset: 14, limit: 28, total: 42))
        #expect(cards.rows.map { cards.summary(atIndex: $0).id } == ["card-1", "card-15", "card-29"])
        cards.setSortOrder(.name)
        cards.append(SampleCards.page(offset: 42, limit: 14, total: 56))
        #expect(cards.rows.map { cards.summary(atIndex: $0).id } == ["card-1", "card-15", "card-29", "card-43"])
    }

    @Test func sortedPagesMergeInOrder() {
        var cards = CardCollection()
        cards.setSortOrder(.name)
        cards.append(SampleCards.page(offset: 0, limit: 20, total: 40))
        cards.append(SampleCards.page(offset: 20, limit: 20, total: 40))
        var fresh = CardCollection()
        fresh.append(SampleCards.page(offset: 0, limit: 40, total: 40))
        fresh.setSortOrder(.name)
        #expect(cards.rows.map { cards.summary(atIndex: $0).id } == fresh.rows.map { fresh.summary(atIndex: $0).id })
    }

    @Test func duplicatesFromOverlappingPagesAreSkipped() {
        var cards = collection(10)
        cards.append(SampleCards.page(offset: 5, limit: 10, total: 15))
        #expect(cards.loadedCount == 15)
        #expect(Set(cards.walletIDs).count == 15)
    }

    @Test func updateResortsAndRefilters() {
        var cards = collection(14)
        cards.setSortOrder(.name)
        cards.setQuery("a")
        var renamed = SampleCards.summary(number: 0)
        renamed.name = "Aaron"
        cards.update(renamed)
        #expect(cards.summary(atRow: 0)?.id == "card-0")
        renamed.name = "Zed"
        renamed.email = "z@z.z"
        renamed.company = nil
        cards.update(renamed)
        #expect(cards.rows.allSatisfy { cards.summary(atIndex: $0).id != "card-0" })
    }

    @Test func insertAppendsOnlyWhenTheWalletIsComplete() {
        var complete = collection(3)
        complete.insert(SampleCards.summary(number: 7))
        #expect(complete.walletIDs == ["card-0", "card-1", "card-2", "card-7"])
        #expect(complete.total == 4)
        var partial = CardCollection()
        partial.append(SampleCards.page(offset: 0, limit: 3, total: 10))
        partial.insert(SampleCards.summary(number: 7))
        #expect(partial.walletIDs == ["card-0", "card-1", "card-2"])
        #expect(partial.total == 11)
        // Before any page (the first one failed) the total is unknown and stays so.
        var unknown = CardCollection()
        #expect(!unknown.isTotalKnown)
        #expect(!unknown.isComplete)
        unknown.insert(SampleCards.summary(number: 7))
        #expect(unknown.walletIDs.isEmpty)
        #expect(unknown.total == 0)
        unknown.append(SampleCards.page(offset: 0, limit: 3, total: 3))
        #expect(unknown.isTotalKnown && unknown.isComplete)
        unknown.removeAll()
        #expect(!unknown.isTotalKnown)
    }

    @Test func removeAllKeepsSortAndQuery() {
        var cards = collection(14)
        cards.setSortOrder(.company)
        cards.setQuery("kim")
        cards.removeAll()
        #expect(cards.rows.isEmpty)
        #expect(cards.sortOrder == .company)
        #expect(cards.query == "kim")
        cards.append(SampleCards.page(offset: 0, limit: 14, total: 14))
        #expect(cards.rows.map { cards.summary(atIndex: $0).id } == ["card-1"])
    }
}

@Suite struct AccentInsensitiveSearchTests {
    @Test(arguments: [
        ("angstrom", "Ångström Labs"), ("zoe", "Zoë Fox"), ("jose alvarez", "José Álvarez"),
        ("ＫＩＭ", "Kim Min-ji"), ("데이터", "서울데이터랩"), ("CAFE", "Café Müller"),
    ])
    func theFilterIgnoresCaseAccentsAndWidth(query: String, name: String) {
        var cards = CardCollection()
        let summaries = [name, "Somebody Else"].enumerated().map { index, name in
            CardSummary(id: "c\(index)", name: name, updatedAt: SampleCards.epoch)
        }
        cards.append(CardPage(cards: summaries, total: 2, offset: 0, limit: 10))
        cards.setQuery(query)
        #expect(cards.rows.map { cards.summary(atIndex: $0).name } == [name])
    }
}

/// The folded keys are made when a filter or a sort first needs them, not as pages arrive: what
/// a person sees must not depend on when that was.
@Suite struct LazySearchKeysTests {
    func card(_ id: String, _ name: String) -> CardSummary {
        CardSummary(id: id, name: name, updatedAt: SampleCards.epoch)
    }

    @Test func anEditBeforeTheFirstFilterIsWhatTheFilterSees() {
        var cards = CardCollection()
        cards.append(CardPage(cards: [card("a", "Zoë Old"), card("b", "Bob")], total: 2, offset: 0, limit: 10))
        cards.update(card("a", "Ångström New"))
        cards.setQuery("angstrom")
        #expect(cards.rows.map { cards.summary(atIndex: $0).id } == ["a"])
        cards.setQuery("zoe")
        #expect(cards.rows.isEmpty)
    }

    @Test func anEditAfterTheFirstFilterIsWhatTheNextFilterSees() {
        var cards = CardCollection()
        cards.append(CardPage(cards: [card("a", "Zoë Old"), card("b", "Bob")], total: 2, offset: 0, limit: 10))
        cards.setQuery("zoe")
        #expect(cards.rows.count == 1)
        cards.setQuery("")
        cards.update(card("a", "Ångström New"))
        cards.setQuery("zoe")
        #expect(cards.rows.isEmpty)
        cards.setQuery("new")
        #expect(cards.rows.map { cards.summary(atIndex: $0).id } == ["a"])
    }

    @Test func pagesAfterASortAreSortedAndPagesBeforeItToo() {
        var cards = CardCollection()
        cards.append(CardPage(cards: [card("c", "Carol"), card("a", "Álvaro")], total: 4, offset: 0, limit: 2))
        cards.setSortOrder(.name)
        cards.append(CardPage(cards: [card("d", "dave"), card("b", "Bea")], total: 4, offset: 2, limit: 2))
        #expect(cards.rows.map { cards.summary(atIndex: $0).id } == ["a", "b", "c", "d"])
    }

    @Test func collectionsWithTheSameCardsAreEqualWhetherOrNotTheirKeysWereMade() {
        let page = CardPage(cards: [card("a", "Zoë"), card("b", "Bob")], total: 2, offset: 0, limit: 10)
        var filteredOnce = CardCollection()
        filteredOnce.append(page)
        filteredOnce.setQuery("zoe")
        filteredOnce.setQuery("")
        var never = CardCollection()
        never.append(page)
        #expect(filteredOnce == never)
        never.update(card("b", "Bobby"))
        #expect(filteredOnce != never)
    }
}
