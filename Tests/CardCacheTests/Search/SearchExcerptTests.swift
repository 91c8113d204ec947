import CardCache
import CardModels
import Foundation
import GRDB
import Testing

/// The excerpt a list shows for a hit in a field it has no column for: the card's own text of
/// the line that matched, not the folded text the index holds.
@Suite("Search: what matched, for the list")
struct SearchExcerptTests {
    /// The excerpts of a search, by card id.
    private func excerpts(_ cache: CardCache, _ text: String) throws -> [String: String] {
        var excerpts: [String: String] = [:]
        for hit in try cache.search(text, excerpts: true).hits { excerpts[hit.cardID] = hit.excerpt }
        return excerpts
    }

    /// `world`'s cache holding `cards` whole.
    private func stored(_ cards: [Card], in world: borrowing CacheWorld) throws -> CardCache {
        let cache = try world.open()
        try cache.storeList(cards.map(\.summary), confirmedAt: Cards.date)
        try cache.storeCards(cards, confirmedAt: Cards.date)
        return cache
    }

    @Test func aPhoneNumberAsTheCardWritesIt() throws {
        let world = try CacheWorld()
        let cache = try stored(
            [
                Cards.card("p", "Phone") { $0.phone = "+82 10-5550-1234" },
                Cards.card("two", "Two") { $0.phone = "+82 2-777-0100, +1 (555) 010-0199" },
            ], in: world)
        #expect(try excerpts(cache, "5550 12") == ["p": "+82 10-5550-1234"])
        #expect(try excerpts(cache, "55501234") == ["p": "+82 10-5550-1234"])
        #expect(try excerpts(cache, "12")["p"] == "+82 10-5550-1234", "word starts: any digits")
        #expect(try excerpts(cache, "555-0100") == ["two": "+1 (555) 010-0199"], "the number that holds the digits")
        #expect(try excerpts(cache, "7770") == ["two": "+82 2-777-0100"])
    }

    @Test func accentsCaseAndWidthAsWritten() throws {
        let world = try CacheWorld()
        let cache = try stored(
            [
                Cards.card("z", "Zoë Brontë") { $0.bio = "Écrit à Montréal, parle de Bernoulli." },
                Cards.card("w", "Wide") { $0.department = "ＡＤＡ Research" },
            ], in: world)
        #expect(try excerpts(cache, "zoe") == ["z": "Zoë Brontë"])
        #expect(try excerpts(cache, "montreal") == ["z": "Écrit à Montréal, parle de Bernoulli."])
        #expect(try excerpts(cache, "ada res") == ["w": "ＡＤＡ Research"])
    }

    @Test func scriptsWithoutSpaces() throws {
        let world = try CacheWorld()
        let cache = try stored(
            [
                Cards.card("k", "김민준") { $0.address = "서울 강남구\n서울데이터랩 3층" },
                Cards.card("j", "山田") { $0.funFacts = ["猫が好き", "東京タワーの近くに住んでいます"] },
            ], in: world)
        #expect(try excerpts(cache, "데이터") == ["k": "서울데이터랩 3층"])
        #expect(try excerpts(cache, "민준") == ["k": "김민준"])
        #expect(try excerpts(cache, "タワー") == ["j": "東京タワーの近くに住んでいます"])
    }

    @Test func theLineOrListItemThatMatched() throws {
        let world = try CacheWorld()
        let cache = try stored(
            [
                Cards.card("a", "Address") { $0.address = "12 Rue de la Paix\nParis" },
                Cards.card("t", "Tags") { $0.tags = ["client", "Conférence 2026"] },
                Cards.card("m", "TMI") { $0.funFacts = ["Bakes on Sundays", "Sings in a CHOIR"] },
            ], in: world)
        #expect(try excerpts(cache, "paris") == ["a": "Paris"])
        #expect(try excerpts(cache, "rue de") == ["a": "12 Rue de la Paix"])
        #expect(try excerpts(cache, "conference") == ["t": "Conférence 2026"])
        #expect(try excerpts(cache, "cl") == ["t": "client"], "word starts: the item that holds one")
        #expect(try excerpts(cache, "choir") == ["m": "Sings in a CHOIR"])
    }

    /// A line that folds to nothing (a lone accent) leaves the folded text a line short: the
    /// card's lines are then folded one by one to find the one that matched.
    @Test func linesThatFoldAwayAreSkipped() throws {
        let world = try CacheWorld()
        let cache = try stored([Cards.card("x", "X") { $0.tags = ["\u{301}", "Zoë fan"] }], in: world)
        #expect(try excerpts(cache, "zoe") == ["x": "Zoë fan"])
    }

    @Test func aLongLineIsCutAroundTheMatch() throws {
        let bio =
            "Started with punch cards and relay computers, then spent thirty years on Sourdough starters"
            + " and wild yeast, then wrote about it"
        // `ﬁ` folds to two characters: the cut is carried back character by character.
        let ligatures =
            String(repeating: "ﬁ", count: 40) + " then talks about Bernoulli numbers over tea, for hours on end"
        let world = try CacheWorld()
        let cache = try stored(
            [
                Cards.card("b", "Bio") { $0.bio = bio },
                Cards.card("l", "Ligatures") { $0.bio = ligatures },
                Cards.card("é", "Accents") {
                    $0.bio = String(repeating: "é", count: 50) + " Ünïcödé BERNOULLI ët cætera"
                },
            ], in: world)
        let long = try #require(try excerpts(cache, "sourdough")["b"])
        #expect(long == "…ty years on Sourdough starters and wild yeast, then wrote …")
        #expect(long.count == 60)
        let found = try excerpts(cache, "bernoulli")
        #expect(found["l"] == "…talks about Bernoulli numbers over tea, for hours on end")
        #expect(found["é"] == "…ééé Ünïcödé BERNOULLI ët cætera")
        #expect(try excerpts(cache, "with punch")["b"] == String(bio.prefix(59)) + "…", "a match near the start")
    }

    @Test func aSummaryOnlyCardAndOnlyWhenAskedFor() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        try cache.storeList(
            [Cards.card("s", "Summary") { $0.title = "Chief Ｂaker" }.summary], confirmedAt: Cards.date)
        #expect(try excerpts(cache, "baker") == ["s": "Chief Ｂaker"])
        #expect(try cache.search("baker").hits.allSatisfy { $0.excerpt == nil }, "only when asked for")
    }

    /// A whole card whose JSON cannot be read still gets the folded line, never an error.
    @Test func unreadableCardTextFallsBackToTheIndexedText() throws {
        let world = try CacheWorld()
        let cache = try stored([Cards.card("p", "Phone") { $0.phone = "+82 10-5550-1234" }], in: world)
        let queue = try DatabaseQueue(path: world.path)
        try queue.write { db in try db.execute(sql: "UPDATE card SET detail = '{not json' WHERE id = 'p'") }
        try queue.close()
        #expect(try excerpts(cache, "5550") == ["p": "821055501234"])
    }
}
