import CardMockServer
import CardModels
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// `vcardProperties`, the kept lines of an imported vCard, through every card route.
@Suite struct KeptPropertiesRouteTests {
    static let kept = [
        "TEL;TYPE=FAX:+1 555 0100",
        "item1.X-ABLabel:_$!<HomePage>!$_",
        "BDAY;X-APPLE-OMIT-YEAR=1604:1604-04-17",
        "X-SOCIALPROFILE;TYPE=github:https://github.com/minji",
        "NOTE;CHARSET=UTF-8:서울 \\, 한강 \\; 두 줄\\n끝",
        "  leading and trailing spaces are kept  ",
    ]

    @Test func theyRoundTripThroughMultipartPostAndGet() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let fields = CardFields(name: "김민지", email: "minji@example.com", vcardProperties: Self.kept)
            let created = try await api.createCard(MultipartForm(fields: fields), token: token)
            #expect(created.status == .created)
            let card = try created.data(APICard.self)
            #expect(card.fields.vcardProperties == Self.kept, "in order, byte for byte, untrimmed")
            let fetched = try await api.send(.get, "/card/\(card.id)", token: token)
            #expect(try fetched.data(APICard.self) == card)
            #expect(fetched.text.contains(#""vcardProperties":["#))
            // Not part of the list's summaries.
            let page = try await api.send(.get, "/cards", token: token)
            #expect(!page.text.contains("vcardProperties"))
        }
    }

    @Test func putReplacesThemAndLeavingThemOutClearsThem() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let before = try await api.send(.get, "/card/demo-01", token: token)
            #expect(!before.text.contains("vcardProperties"), "cards without kept lines look as they always did")
            var fields = try before.data(APICard.self).fields
            fields.vcardProperties = Self.kept
            let saved = try await api.sendJSON(
                .put, "/card/demo-01", fields, token: token, headers: [.ifMatch: #""1""#])
            #expect(try saved.data(APICard.self).fields.vcardProperties == Self.kept)
            #expect(
                try await api.send(.get, "/card/demo-01", token: token).data(APICard.self).fields.vcardProperties
                    == Self.kept)

            // The same fields again change nothing; other lines are a change.
            let same = try await api.sendJSON(.put, "/card/demo-01", fields, token: token, headers: [.ifMatch: #""2""#])
            #expect(try same.data(APICard.self).version == 2)
            fields.vcardProperties = Array(Self.kept.reversed())
            let reordered = try await api.sendJSON(
                .put, "/card/demo-01", fields, token: token, headers: [.ifMatch: #""2""#])
            #expect(try reordered.data(APICard.self).fields.vcardProperties == Array(Self.kept.reversed()))

            // A card sent back as it came (read-only keys and all) keeps them.
            let whole = try await api.send(.get, "/card/demo-01", token: token).data(APICard.self)
            let echoed = try await api.sendJSON(
                .put, "/card/demo-01", whole, token: token, headers: [.ifMatch: #""3""#])
            #expect(try echoed.data(APICard.self) == whole)

            // PUT replaces every field: without the key (or with null or []), they are gone.
            let cleared = try await api.sendRaw(
                .put, "/card/demo-01", #"{"name": "Ada", "vcardProperties": null}"#, token: token,
                headers: [.ifMatch: #""3""#])
            #expect(try cleared.data(APICard.self).fields.vcardProperties.isEmpty)
            #expect(!(try await api.send(.get, "/card/demo-01", token: token).text.contains("vcardProperties")))
        }
    }

    static let overTheLimits: [(lines: [String], problem: String)] = [
        (Array(repeating: "X-A:b", count: CardLimits.vcardPropertiesMaxCount + 1), "at most 200 lines"),
        (["X-A:" + String(repeating: "é", count: CardLimits.vcardPropertyMaxLength - 3)], "at most 32000 characters"),
        (Array(repeating: "X-A:" + String(repeating: "é", count: 29_996), count: 14), "400000 characters in all"),
        (["TEL:1", ""], "empty lines"),
        (["NOTE:one\r\n two"], "without NUL, CR or LF"),
        (["NOTE:a\u{0}b"], "without NUL, CR or LF"),
    ]

    @Test(arguments: overTheLimits)
    func overTheLimitsIsE01NamingVcardProperties(lines: [String], problem: String) async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let fields = CardFields(name: "Over", vcardProperties: lines)
            let put = try await api.sendJSON(.put, "/card/demo-01", fields, token: token, headers: [.ifMatch: #""1""#])
            let putFields = try #require(try expectError(put, .badRequest).fields)
            #expect(Array(putFields.keys) == [CardLimits.vcardPropertiesKey])
            #expect(putFields[CardLimits.vcardPropertiesKey]?.contains(problem) == true, "\(putFields)")

            let post = try await api.createCard(MultipartForm(fields: fields), token: token)
            let postFields = try #require(try expectError(post, .badRequest).fields)
            #expect(Array(postFields.keys) == [CardLimits.vcardPropertiesKey])
            #expect(postFields[CardLimits.vcardPropertiesKey]?.contains(problem) == true, "\(postFields)")

            // Nothing was stored.
            #expect(try await api.send(.get, "/card/demo-01", token: token).data(APICard.self).version == 1)
            #expect(
                try await api.send(.get, "/cards", token: token).data(APICardPage.self).total == Seeds.demoCardCount)
        }
    }

    @Test func aPartThatIsNotUTF8IsE01NamingVcardProperties() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            var form = MultipartForm(fields: CardFields(name: "Bytes"))
            form.parts.append((CardForm.vcardPropertiesPartName, nil, nil, Data([0x58, 0x3A, 0xFF, 0xFE])))
            let response = try await api.createCard(form, token: token)
            #expect(
                try expectError(response, .badRequest).fields == [
                    CardLimits.vcardPropertiesKey: "is not valid UTF-8 text"
                ])
        }
    }

    /// The largest card validation allows — 200 lines of 400,000 four-byte characters in all,
    /// 1.6 MB — fits both card routes: a valid card is never refused for its size.
    @Test func aCardAtTheLimitsIsAcceptedByPostAndPut() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let each = CardLimits.vcardPropertiesMaxTotalLength / CardLimits.vcardPropertiesMaxCount
            let lines = (0..<CardLimits.vcardPropertiesMaxCount).map { number in
                let head = "X-LINE\(number):"
                return head + String(repeating: "😀", count: each - head.count)
            }
            #expect(lines.reduce(0) { $0 + $1.count } == CardLimits.vcardPropertiesMaxTotalLength)
            let fields = CardFields(
                name: "Full", title: "T", company: "C", department: "D", funFacts: ["1", "2", "3"],
                tags: (1...10).map { "tag\($0)" }, vcardProperties: lines)
            #expect(fields.validate().isEmpty)
            var form = MultipartForm(fields: fields)
            form.addImage(TestImages.png)
            let created = try await api.createCard(form, token: token)
            #expect(created.status == .created, "\(created.text.prefix(300))")
            let card = try created.data(APICard.self)
            #expect(card.fields.vcardProperties == lines && card.hasImage)

            let put = try await api.sendJSON(.put, "/card/\(card.id)", fields, token: token, headers: [.ifMatch: "*"])
            #expect(put.status == .ok, "\(put.text.prefix(300))")
            let changed = CardFields(name: "Full", vcardProperties: Array(lines.reversed()))
            let reversed = try await api.sendJSON(
                .put, "/card/\(card.id)", changed, token: token, headers: [.ifMatch: "*"])
            #expect(try reversed.data(APICard.self).fields.vcardProperties == Array(lines.reversed()))
        }
    }

    @Test func aFormWithMorePartsThanAnyValidCardIsE01() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let lines = (1...256).map { "X-N:\($0)" }
            let response = try await api.createCard(
                MultipartForm(fields: CardFields(name: "Parts", vcardProperties: lines)), token: token)
            #expect(try expectError(response, .badRequest).message.contains("more than 256 parts"))
        }
    }

    @Test func aBodyPastTheCardAllowanceIsStillE08() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let limit = MockServerConfiguration.testing.limits.maxCardJSONBytes
            let huge = CardFields(name: "A", vcardProperties: [String(repeating: "x", count: limit)])
            let response = try await api.sendJSON(
                .put, "/card/demo-01", huge, token: token, headers: [.ifMatch: #""1""#])
            try expectError(response, .payloadTooLarge)
            // Deep nesting as large as the allowance is E01, never a crash.
            let nested = #"{"name": "A", "vcardProperties": "# + String(repeating: "[", count: limit / 2 - 40)
            let deep = try await api.sendRaw(.put, "/card/demo-01", nested, token: token, headers: [.ifMatch: #""1""#])
            try expectError(deep, .badRequest)
        }
    }
}
