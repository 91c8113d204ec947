import CardMockServer
import CardModels
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// `POST /card` with `Idempotency-Key` (docs/API.md): the same key and card within 24 hours
/// answer the first answer again, another card with the key is 422, keys are per account.
@Suite struct IdempotencyRouteTests {
    static let key = HTTPField.Name("Idempotency-Key")!
    static let replayed = HTTPField.Name("Idempotent-Replayed")!

    /// `POST /card` of `form` with `Idempotency-Key: value`.
    static func create(_ api: API, _ form: MultipartForm, key value: String?, token: String) async throws
        -> TestResponse
    {
        var headers: HTTPFields = [.contentType: form.contentType]
        if let value { headers[Self.key] = value }
        return try await api.send(.post, "/card", token: token, headers: headers, body: ByteBuffer(bytes: form.body))
    }

    static func count(_ api: API, token: String) async throws -> Int {
        try await api.send(.get, "/cards", token: token).data(APICardPage.self).total
    }

    @Test func theSameKeyAndCardAgainAnswerTheFirstAnswerAndMakeNoSecondCard() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            var form = MultipartForm(fields: CardFields(name: "Once", tags: ["a"]))
            form.addImage(TestImages.png)
            let first = try await Self.create(api, form, key: #""k-1""#, token: token)
            #expect(first.status == .created && first.headers[Self.replayed] == nil)
            let card = try first.data(APICard.self)
            // Edited since: the answer given again is still the first one.
            _ = try await api.sendJSON(
                .put, "/card/\(card.id)", CardFields(name: "Edited"), token: token, headers: [.ifMatch: #""1""#])

            // Sent again as a new form: another boundary, the same card.
            form.boundary = "another-boundary-for-the-same-card"
            let again = try await Self.create(api, form, key: #""k-1""#, token: token)
            #expect(again.status == .created)
            #expect(again.headers[Self.replayed] == "true")
            #expect(again.headers[.location] == first.headers[.location] && again.headers[.eTag] == #""1""#)
            #expect(try again.data(APICard.self) == card)
            #expect(try await Self.count(api, token: token) == Seeds.demoCardCount + 1)
        }
    }

    @Test func theSameKeyWithAnotherCardIs422AndMakesNothing() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let form = MultipartForm(fields: CardFields(name: "First"))
            #expect(try await Self.create(api, form, key: "k-2", token: token).status == .created)
            var withImage = form
            withImage.addImage(TestImages.png)
            for other in [MultipartForm(fields: CardFields(name: "Second")), withImage] {
                let refused = try await Self.create(api, other, key: "k-2", token: token)
                let envelope = try expectError(refused, .badRequest, status: 422)
                #expect(envelope.fields?["Idempotency-Key"] == "was used for another request")
            }
            #expect(try await Self.count(api, token: token) == Seeds.demoCardCount + 1)
        }
    }

    @Test func keysArePerAccount() async throws {
        try await withRouter { api, _ in
            let demo = try await api.login().accessToken
            let minji = try await api.login(Seeds.minjiEmail, Seeds.minjiPassword).accessToken
            let form = MultipartForm(fields: CardFields(name: "Shared key"))
            let mine = try await Self.create(api, form, key: "k-3", token: demo).data(APICard.self)
            let theirs = try await Self.create(api, form, key: "k-3", token: minji)
            #expect(theirs.status == .created && theirs.headers[Self.replayed] == nil)
            #expect(try theirs.data(APICard.self).id != mine.id)
            #expect(try await Self.count(api, token: minji) == Seeds.minjiCardCount + 1)
        }
    }

    @Test func aKeyIsForgottenAfter24Hours() async throws {
        let clock = ManualWallClock()
        try await withRouter(clock: clock) { api, _ in
            let token = try await api.login().accessToken
            let form = MultipartForm(fields: CardFields(name: "Daily"))
            let first = try await Self.create(api, form, key: "k-4", token: token).data(APICard.self)
            clock.advance(by: .seconds(24 * 3600 - 1))
            let token2 = try await api.login().accessToken
            let late = try await Self.create(api, form, key: "k-4", token: token2)
            #expect(late.headers[Self.replayed] == "true")
            #expect(try late.data(APICard.self) == first)
            clock.advance(by: .seconds(2))
            let token3 = try await api.login().accessToken
            let expired = try await Self.create(api, form, key: "k-4", token: token3)
            #expect(expired.status == .created && expired.headers[Self.replayed] == nil)
            #expect(try expired.data(APICard.self).id != first.id)
            #expect(try await Self.count(api, token: token3) == Seeds.demoCardCount + 2)
        }
    }

    @Test(arguments: ["", #""""#, "a b", #""a\"b""#, String(repeating: "k", count: 256), "ключ", #""k", "k""#])
    func aValueThatIsNotAKeyIs400AndMakesNothing(value: String) async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let response = try await Self.create(
                api, MultipartForm(fields: CardFields(name: "Bad key")), key: value, token: token)
            let envelope = try expectError(response, .badRequest)
            #expect(envelope.fields?["Idempotency-Key"] == "is not a key")
            #expect(try await Self.count(api, token: token) == Seeds.demoCardCount)
        }
    }

    @Test func twoKeyHeadersAre400() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let form = MultipartForm(fields: CardFields(name: "Two keys"))
            var headers: HTTPFields = [.contentType: form.contentType]
            headers.append(HTTPField(name: Self.key, value: "a"))
            headers.append(HTTPField(name: Self.key, value: "b"))
            let response = try await api.send(
                .post, "/card", token: token, headers: headers, body: ByteBuffer(bytes: form.body))
            try expectError(response, .badRequest)
        }
    }

    @Test func aRefusedRequestIsNotRememberedAndNoKeyMeansNoReplay() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let invalid = MultipartForm(fields: CardFields(name: ""))
            try expectError(try await Self.create(api, invalid, key: "k-5", token: token), .badRequest)
            let valid = MultipartForm(fields: CardFields(name: "Valid"))
            let made = try await Self.create(api, valid, key: "k-5", token: token)
            #expect(made.status == .created && made.headers[Self.replayed] == nil)
            // Without a key, each request is a card.
            #expect(try await Self.create(api, valid, key: nil, token: token).status == .created)
            #expect(try await Self.create(api, valid, key: nil, token: token).status == .created)
            #expect(try await Self.count(api, token: token) == Seeds.demoCardCount + 3)
        }
    }

    @Test func requestsWithTheSameKeyAtOnceMakeOneCard() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let form = MultipartForm(fields: CardFields(name: "Racing"))
            let ids = try await withThrowingTaskGroup(of: String.self) { group in
                for _ in 0..<8 {
                    group.addTask { try await Self.create(api, form, key: "k-6", token: token).data(APICard.self).id }
                }
                return try await group.reduce(into: [String]()) { $0.append($1) }
            }
            #expect(ids.count == 8 && Set(ids).count == 1)
            #expect(try await Self.count(api, token: token) == Seeds.demoCardCount + 1)
        }
    }
}
