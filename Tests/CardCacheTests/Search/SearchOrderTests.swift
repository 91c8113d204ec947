import CardCache
import CardModels
import Foundation
import Testing

@Suite("Search: long substrings, wallet order, every id")
struct SearchOrderTests {
    private func hits(_ cache: CardCache, _ text: String) throws -> [String] {
        try cache.search(text).hits.map { "\($0.cardID):\($0.field.rawValue)" }
    }

    /// A long substring is looked for by its trigrams every third character: they must sit in
    /// one field at those distances, not anywhere in the card.
    @Test func longSubstringsMatchOnlyWhereTheWholeTextIs() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        let cards = [
            Cards.card("whole", "Whole") { $0.bio = "bakes sourdough on sundays" },
            // Every spaced trigram of "sourdough" (sou, rdo, ugh) but never together.
            Cards.card("scattered", "Scattered") { $0.bio = "sound rdoor ugh" },
            // The trigrams in order but one character off.
            Cards.card("shifted", "Shifted") { $0.bio = "sourrdoough" },
            // Split over two fields.
            Cards.card("split", "Split") {
                $0.bio = "sourd"
                $0.funFacts = ["ough"]
            },
            // Over two items of a list field.
            Cards.card("items", "Items") { $0.tags = ["sourdo", "ugh"] },
            Cards.card("tag", "Tag") { $0.tags = ["friend", "sourdough club"] },
            Cards.card("repeat", "Repeat") { $0.funFacts = ["aaaaaaaa"] },
        ]
        try cache.storeList(cards.map(\.summary), confirmedAt: Cards.date)
        try cache.storeCards(cards, confirmedAt: Cards.date)
        #expect(try hits(cache, "sourdough") == ["whole:bio", "tag:tags"])
        #expect(try hits(cache, "SOURDOUGH CLUB") == ["tag:tags"])
        #expect(try hits(cache, "ourdoug") == ["whole:bio", "tag:tags"])
        #expect(try hits(cache, "sourdoughs") == [])
        #expect(try hits(cache, "aaaaaaa") == ["repeat:tmi"])
        #expect(try hits(cache, "aaaaaaaaa") == [])
        // Column filters still hold.
        #expect(try cache.search("sourdough", in: [.name, .company, .title, .email]).total == 0)
        #expect(try cache.search("sourdough", in: [.tags]).hits.map(\.cardID) == ["tag"])
    }

    /// A long phone number typed with punctuation still finds the card by its digits.
    @Test func longPhoneNumbers() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        let card = Cards.card("p", "Phone") { $0.phone = "+82 10-5550-1234" }
        try cache.storeList([card.summary], confirmedAt: Cards.date)
        try cache.storeCards([card], confirmedAt: Cards.date)
        #expect(try hits(cache, "+82 10-5550-1234") == ["p:phone"])
        #expect(try hits(cache, "10-5550-1234") == ["p:phone"])
        #expect(try hits(cache, "10-5550-12") == ["p:phone"])
        #expect(try hits(cache, "10-5550-13") == [])
    }

    /// Hits follow the wallet as the server last ordered it, not the order cards were stored.
    @Test func hitsFollowTheWalletOrderAfterAMove() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        let cards = (0..<12).map { Cards.card("c\($0)", "Person \($0)") { $0.bio = "sourdough baker" } }
        try cache.storeList(cards.map(\.summary), confirmedAt: Cards.date)
        try cache.storeCards(cards, confirmedAt: Cards.date)
        #expect(try cache.search("sourdough baker", limit: 3).hits.map(\.cardID) == ["c0", "c1", "c2"])
        let moved = ["c11", "c5"] + cards.map(\.id).filter { $0 != "c11" && $0 != "c5" }
        try cache.storeOrder(moved)
        #expect(try cache.search("sourdough baker", limit: 3).hits.map(\.cardID) == ["c11", "c5", "c0"])
        #expect(try cache.search("sou", limit: nil).hits.map(\.cardID) == moved)
        // The list from the server in yet another order.
        let reversed = Array(cards.reversed())
        try cache.storeList(reversed.map(\.summary), confirmedAt: Cards.date)
        #expect(try cache.search("so", limit: 2).hits.map(\.cardID) == ["c11", "c10"])
    }

    /// `allIDs` gives every match in wallet order past the limit; the hits stay limited.
    @Test func everyIDPastTheLimit() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        let cards = (0..<40).map { index in
            Cards.card("c\(index)", "Person \(index)") {
                $0.funFacts = index.isMultiple(of: 3) ? ["sourdough"] : ["pens"]
            }
        }
        try cache.storeList(cards.map(\.summary), confirmedAt: Cards.date)
        try cache.storeCards(cards, confirmedAt: Cards.date)
        let expected = stride(from: 0, to: 40, by: 3).map { "c\($0)" }
        let result = try cache.search("sourdough", limit: 5, allIDs: true)
        #expect(result.hits.map(\.cardID) == Array(expected.prefix(5)))
        #expect(result.hits.allSatisfy { $0.field == .funFacts })
        #expect(result.total == expected.count)
        #expect(result.allIDs == expected)
        #expect(try cache.search("sourdough", limit: 5).allIDs == [], "only when asked for")
        #expect(try cache.search("p", limit: 0, allIDs: true).allIDs.count == 40)
        try cache.removeCard(id: "c3")
        #expect(try cache.search("sourdough", limit: 0, allIDs: true).allIDs == expected.filter { $0 != "c3" })
    }
}
