import CardCache
import CardModels
import Foundation
import Testing

@Suite("Searching every field")
struct SearchTests {
    /// A cache holding ``Cards/wallet`` in full.
    private func filled(_ world: borrowing CacheWorld) throws -> CardCache {
        let cache = try world.open()
        try cache.storeList(Cards.wallet.map(\.summary), confirmedAt: Cards.date)
        try cache.storeCards(Cards.wallet, confirmedAt: Cards.date)
        return cache
    }

    private func hits(_ cache: CardCache, _ text: String) throws -> [String] {
        try cache.search(text).hits.map { "\($0.cardID):\($0.field.rawValue)" }
    }

    @Test(arguments: [
        // The issue's examples: diacritics, a substring of a word in a script without spaces.
        ("zoe", ["c-zoe:name"]),
        ("ZOË", ["c-zoe:name"]),
        ("데이터", ["c-minjun:company"]),
        ("서울데이터랩", ["c-minjun:company"]),
        // Every field.
        ("analytical", ["c-ada:company"]),
        ("donnees", ["c-zoe:department"]),
        ("programmer", ["c-ada:title"]),
        ("ada@analytical", ["c-ada:email"]),
        ("portfolio", ["c-jisoo:website"]),
        ("rue de la paix", ["c-jisoo:address"]),
        ("compilers", ["c-jisoo:bio"]),
        ("moth", ["c-grace:tmi"]),
        ("poetry", ["c-ada:tags"]),
        // Substrings inside Latin words, width-folded text.
        ("lace", ["c-ada:name"]),
        ("cto", ["c-yuki:title"]),
        ("ガス", ["c-yuki:company"]),
        // Phone digits, whatever the punctuation.
        ("5550-1234", ["c-minjun:phone"]),
        ("5550 1234", ["c-minjun:phone"]),
        ("55501234", ["c-minjun:phone"]),
        ("(10) 5550", ["c-minjun:phone"]),
    ])
    func findsInEveryField(_ text: String, _ expected: [String]) throws {
        let world = try CacheWorld()
        #expect(try hits(filled(world), text) == expected)
    }

    @Test func prefixesMatchAsYouType() throws {
        let world = try CacheWorld()
        let cache = try filled(world)
        #expect(try hits(cache, "z") == ["c-zoe:name"])
        #expect(try hits(cache, "zo") == ["c-zoe:name"])
        #expect(try hits(cache, "zoe") == ["c-zoe:name"])
        #expect(try hits(cache, "g") == ["c-zoe:company", "c-grace:name"])
        #expect(try hits(cache, "gr") == ["c-grace:name"])
        // Two characters of a script without spaces match anywhere in a word.
        #expect(try hits(cache, "민준") == ["c-minjun:name"])
        #expect(try hits(cache, "데") == ["c-minjun:company"])
        #expect(try hits(cache, "데이") == ["c-minjun:company"])
        #expect(try hits(cache, "ゆ") == ["c-yuki:name"])
        // One or two digits of a phone number, anywhere in it.
        #expect(try hits(cache, "34") == ["c-minjun:phone"])
        // Punctuation typed between the first digits does not lose the number.
        #expect(try hits(cache, "10-") == ["c-minjun:phone"])
        #expect(try hits(cache, "10-5") == ["c-minjun:phone"])
        // The first two keystrokes do not match inside Latin words; the third does.
        #expect(try hits(cache, "la").isEmpty == false)
        #expect(try hits(cache, "ov") == [])
        #expect(try hits(cache, "ove") == ["c-ada:name"])
    }

    @Test func theFirstMatchingFieldIsReported() throws {
        let world = try CacheWorld()
        let cache = try filled(world)
        // "ada" is in the name and the email: the name comes first.
        #expect(try cache.search("ada").hits == [CardSearchHit(cardID: "c-ada", field: .name)])
    }

    @Test func onlyTheFieldsAskedFor() throws {
        let world = try CacheWorld()
        let cache = try filled(world)
        let mailFields: [CardField] = [.name, .company, .title, .email]
        #expect(try cache.search("compilers", in: mailFields).total == 0)
        #expect(try cache.search("analytical", in: mailFields).hits.map(\.cardID) == ["c-ada"])
        #expect(try cache.search("5550", in: mailFields).total == 0)
        #expect(try cache.search("an", in: mailFields).hits.map(\.cardID) == ["c-ada"])
    }

    @Test func limitAndTotal() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        let cards = (0..<30).map { Cards.card("c\($0)", "Person \($0)") { $0.company = "Acme" } }
        try cache.storeList(cards.map(\.summary), confirmedAt: Cards.date)
        let result = try cache.search("acme", limit: 10)
        #expect(result.hits.map(\.cardID) == (0..<10).map { "c\($0)" })
        #expect(result.total == 30)
        #expect(try cache.search("acm", limit: nil).hits.count == 30)
        #expect(try cache.search("ac", limit: 5).total == 30)
    }

    @Test func cardsKnownOnlyFromTheListAreFoundByTheirSummary() throws {
        let world = try CacheWorld()
        let cache = try world.open()
        try cache.storeList(Cards.wallet.map(\.summary), confirmedAt: Cards.date)
        #expect(try hits(cache, "analytical") == ["c-ada:company"])
        #expect(try hits(cache, "compilers") == [], "the bio is not known yet")
        try cache.storeCard(Cards.wallet[3], confirmedAt: Cards.date)
        #expect(try hits(cache, "compilers") == ["c-jisoo:bio"])
    }

    @Test func changesAndRemovalsReachTheIndex() throws {
        let world = try CacheWorld()
        let cache = try filled(world)
        var renamed = Cards.wallet[0]
        renamed.fields.company = "Difference Engines"
        renamed.revision = CardRevision(2)
        try cache.storeCard(renamed, confirmedAt: Cards.date)
        #expect(try hits(cache, "analytical") == ["c-ada:email"])
        #expect(try hits(cache, "difference") == ["c-ada:company"])
        try cache.removeCard(id: "c-ada")
        #expect(try hits(cache, "difference") == [])
        // A newer name in the list is searched before the whole card is read again.
        var summary = Cards.wallet[1].summary
        summary.name = "Zoé Novák"
        summary.revision = CardRevision(2)
        try cache.storeList([summary], confirmedAt: Cards.date)
        #expect(try hits(cache, "novak") == ["c-zoe:name"])
        #expect(try hits(cache, "donnees") == ["c-zoe:department"], "the rest of the kept card still counts")
    }

    @Test(arguments: [
        "\"", "\"\"ada", "NEAR(a b)", "*", "a*", "(", "-ada", "ada\"", "{name}: ada", "^ada",
    ])
    func queryTextIsNeverSyntax(_ text: String) throws {
        let world = try CacheWorld()
        let cache = try filled(world)
        let result = try cache.search(text)
        #expect(result.total == result.hits.count)
        #expect(result.hits.allSatisfy { $0.cardID != "c-zoe" })
    }

    /// As FTS5 syntax, `ada OR zoe` would find Ada and Zoë; as text, no card says it.
    @Test func adaOrZoeIsTextNotAnOr() throws {
        let world = try CacheWorld()
        let cache = try filled(world)
        #expect(try cache.search("ada").hits.map(\.cardID).contains("c-ada"))
        #expect(try cache.search("zoe").hits.map(\.cardID).contains("c-zoe"))
        for text in ["ada OR zoe", "ada or zoe"] {
            #expect(try cache.search(text) == .empty, "\(text)")
        }
    }

    @Test func nothingToLookForFindsNothing() throws {
        let world = try CacheWorld()
        let cache = try filled(world)
        for text in ["", "   ", "-", "@@"] { #expect(try cache.search(text) == .empty, "\(text)") }
    }

    @Test func folding() {
        #expect(SearchText.fold("Zoë Dvořák") == "zoe dvorak")
        #expect(SearchText.fold("ＡＤＡ") == "ada")
        #expect(SearchText.fold("서울데이터랩") == "서울데이터랩")
        // Kana keep their voicing marks: が is not か.
        #expect(SearchText.fold("ガス") == "ガス")
        #expect(SearchText.fold("Łódź") == "łodz")
        #expect(SearchText.digits("+82 (10) 5550-1234") == "821055501234")
    }
}
