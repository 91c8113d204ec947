import CardAPIContract
import CardModels
import Testing

@Suite struct CardValidationTests {
    @Test func aMinimalCardIsValid() {
        #expect(CardFields(name: "Ada").validate().isEmpty)
    }

    @Test func nameIsRequiredAndBounded() {
        #expect(CardFields(name: "   ").validate()["name"] == "is required")
        #expect(CardFields(name: String(repeating: "가", count: 64)).validate().isEmpty)
        #expect(
            CardFields(name: String(repeating: "가", count: 65)).validate()["name"] == "must be at most 64 characters")
    }

    @Test func aMegabyteStringIsRejectedNotCrashedOn() {
        let huge = String(repeating: "x", count: 1_000_000)
        let problems = CardFields(name: huge, bio: huge).validate()
        #expect(problems["name"] != nil)
        #expect(problems["bio"] == "must be at most 500 characters")
    }

    @Test(arguments: [
        ("email", "not-an-email"), ("email", "a@b"), ("email", "a b@c.de"),
        ("phone", "call me"), ("phone", "12"),
        ("website", "ftp://example.com"), ("website", "example.com"), ("website", "https://"),
        ("birthday", "2023-02-29"), ("birthday", "1990-13-01"), ("birthday", "90-01-01"),
        ("defaultImage", "8"), ("defaultImage", "x"),
    ])
    func badFormatsAreNamed(field: String, value: String) throws {
        var fields = CardFields(name: "Ada")
        fields[try #require(CardField(rawValue: field))] = value
        #expect(fields.validate()[field] != nil, "\(field)=\(value) should be rejected")
    }

    @Test(arguments: [
        ("email", "ada@example.com"), ("phone", "+82 (10) 1234-5678"), ("website", "https://ada.dev/about"),
        ("birthday", "2024-02-29"), ("defaultImage", "7"), ("tmi", "a; b; c"), ("tags", "x, y"),
    ])
    func goodFormatsPass(field: String, value: String) throws {
        var fields = CardFields(name: "Ada")
        fields[try #require(CardField(rawValue: field))] = value
        #expect(fields.validate().isEmpty)
    }

    @Test func listsAreBounded() {
        #expect(CardFields(name: "A", funFacts: ["1", "2", "3", "4"]).validate()["tmi"] == "may hold at most 3 facts")
        #expect(CardFields(name: "A", tags: Array(repeating: "t", count: 11)).validate()["tags"] != nil)
    }

    @Test func nulBytesAreRejected() {
        #expect(CardFields(name: "A\u{0}B").validate()["name"] == "must not contain NUL characters")
    }

    @Test func textSubscriptTrimsAndSplitsLists() {
        var fields = CardFields(name: "A")
        fields[.funFacts] = " likes tea ;; runs marathons; "
        fields[.tags] = "work, , friends"
        fields[.company] = "   "
        #expect(fields.funFacts == ["likes tea", "runs marathons"])
        #expect(fields.tags == ["work", "friends"])
        #expect(fields.company == nil)
        #expect(fields[.funFacts] == "likes tea; runs marathons")
    }

    @Test func normalizedTrimsEverything() {
        let fields = CardFields(name: "  Ada ", title: "", email: " ada@example.com ", tags: [" x ", ""])
        #expect(fields.normalized() == CardFields(name: "Ada", email: "ada@example.com", tags: ["x"]))
    }

    @Test func formPartsRoundTrip() {
        let fields = CardFields(name: "Ada", company: "Acme", funFacts: ["a", "b"], tags: ["t"], defaultImage: 5)
        let parts = CardForm.parts(for: fields)
        #expect(
            parts.map(\.name) == [
                "card.name", "card.company", "card.tmi", "card.tmi", "card.tags", "card.defaultImage",
            ])
        let (decoded, problems) = CardForm.fields(from: parts + [("image", "ignored")])
        #expect(problems.isEmpty)
        #expect(decoded == fields)
        let (_, unknown) = CardForm.fields(from: [
            ("card.name", "A"), ("card.colour", "red"), ("card.defaultImage", "x"),
        ])
        #expect(unknown == ["card.colour": "is not a card field", "defaultImage": "must be a number from 0 to 7"])
    }
}
