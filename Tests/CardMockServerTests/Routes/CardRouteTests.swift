import CardMockServer
import CardModels
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite struct CardRouteTests {
    @Test func listPagesThroughTheWalletInOrder() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let all = try await api.send(.get, "/cards", token: token).data(APICardPage.self)
            #expect(all.total == Seeds.demoCardCount)
            #expect(all.offset == 0 && all.limit == CardPaging.defaultLimit)
            #expect(all.cards.map(\.id) == (1...12).map { String(format: "demo-%02d", $0) })
            let page = try await api.send(.get, "/cards?offset=10&limit=5", token: token).data(APICardPage.self)
            #expect(page.cards.map(\.id) == ["demo-11", "demo-12"])
            #expect(page.total == 12 && page.offset == 10 && page.limit == 5)
        }
    }

    @Test(arguments: [
        ("%EF%BC%A1DA", ["demo-01"]),  // fullwidth Ａ
        ("ada", ["demo-01"]), ("%EA%B9%80%EB%AF%BC", ["demo-02"]),  // 김민
        ("sakura", ["demo-03"]), ("ROCKET", ["demo-12"]), ("nobody-matches", []),
    ])
    func searchMatchesNameCompanyTitleAndEmail(query: String, ids: [String]) async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let page = try await api.send(.get, "/cards?q=\(query)", token: token).data(APICardPage.self)
            #expect(page.cards.map(\.id) == ids)
            #expect(page.total == ids.count)
        }
    }

    @Test(arguments: ["offset=-1", "offset=x", "limit=0", "limit=201", "limit=1e3", "offset=99999999999999999999"])
    func badPagingIsE01NamingTheParameter(query: String) async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let envelope = try expectError(try await api.send(.get, "/cards?\(query)", token: token), .badRequest)
            let name = String(query.prefix { $0 != "=" })
            #expect(envelope.fields?[name] != nil)
        }
    }

    @Test func emptyPagingParametersMeanTheDefaults() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let page = try await api.send(.get, "/cards?offset=&limit=&q=", token: token).data(APICardPage.self)
            #expect(page.offset == 0 && page.limit == CardPaging.defaultLimit && page.total == Seeds.demoCardCount)
        }
    }

    @Test func hugeOrNULSearchTextIsE01() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let long = String(repeating: "a", count: 201)
            #expect(
                try expectError(try await api.send(.get, "/cards?q=\(long)", token: token), .badRequest).fields?["q"]
                    != nil)
            try expectError(try await api.send(.get, "/cards?q=a%00b", token: token), .badRequest)
        }
    }

    @Test func getReturnsTheCardWithItsETag() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let response = try await api.send(.get, "/card/demo-01", token: token)
            #expect(response.headers[.eTag] == #""1""#)
            let card = try response.data(APICard.self)
            #expect(card.id == "demo-01")
            #expect(card.fields.name == "Ada Lovelace")
            #expect(card.hasImage)
            #expect(card.image?.contentType == "image/png")
            #expect(card.version == 1)
        }
    }

    @Test func imageEndpointServesTheBytesWithTheirType() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let png = try await api.send(.get, "/card/demo-01/image", token: token)
            #expect(png.status == .ok)
            #expect(png.headers[.contentType] == "image/png")
            #expect(CardImageFormat(sniffing: Array(png.body.readableBytesView)) == .png)
            let jpeg = try await api.send(.get, "/card/demo-06/image", token: token)
            #expect(jpeg.headers[.contentType] == "image/jpeg")
            #expect(jpeg.body.readableBytes == MockServerConfiguration.demoCards[5].image?.data.count)
            try expectError(try await api.send(.get, "/card/demo-10/image", token: token), .cardNotFound)
            try expectError(try await api.send(.get, "/card/nope/image", token: token), .cardNotFound)
        }
    }

    @Test func putReplacesEveryEditableFieldWithIfMatch() async throws {
        let clock = ManualWallClock()
        try await withRouter(clock: clock) { api, _ in
            let token = try await api.login().accessToken
            let before = try await api.send(.get, "/card/demo-01", token: token).data(APICard.self)
            clock.advance(by: .seconds(30))
            // Only name and email: every other field is cleared (a full replacement).
            let response = try await api.sendJSON(
                .put, "/card/demo-01", CardFields(name: "  Ada King  ", email: "ada@king.example"), token: token,
                headers: [.ifMatch: #""1""#])
            #expect(response.status == .ok)
            #expect(response.headers[.eTag] == #""2""#)
            let card = try response.data(APICard.self)
            #expect(card.fields == CardFields(name: "Ada King", email: "ada@king.example"))
            #expect(card.version == 2)
            #expect(card.updatedAt == clock.now)
            #expect(card.createdAt == before.createdAt)
            #expect(card.hasImage, "the image is kept")
            let listed = try await api.send(.get, "/cards?q=king", token: token).data(APICardPage.self)
            #expect(listed.cards.map(\.revision) == [CardRevision(2)])
        }
    }

    @Test func staleIfMatchIsE07AndChangesNothing() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            _ = try await api.sendJSON(
                .put, "/card/demo-02", CardFields(name: "First"), token: token, headers: [.ifMatch: #""1""#])
            let stale = try await api.sendJSON(
                .put, "/card/demo-02", CardFields(name: "Second"), token: token, headers: [.ifMatch: #""1""#])
            try expectError(stale, .versionConflict)
            #expect(stale.headers[.eTag] == #""2""#)
            let weak = try await api.sendJSON(
                .put, "/card/demo-02", CardFields(name: "Weak"), token: token, headers: [.ifMatch: #"W/"2""#])
            try expectError(weak, .versionConflict)
            let card = try await api.send(.get, "/card/demo-02", token: token).data(APICard.self)
            #expect(card.fields.name == "First")
            #expect(card.version == 2)
            // `*` means any version.
            let any = try await api.sendJSON(
                .put, "/card/demo-02", CardFields(name: "Any"), token: token, headers: [.ifMatch: "*"])
            #expect(try any.data(APICard.self).version == 3)
        }
    }

    @Test func putWithoutIfMatchIs428E01() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let missing = try await api.sendJSON(.put, "/card/demo-01", CardFields(name: "X"), token: token)
            #expect(try expectError(missing, .badRequest, status: 428).fields == ["If-Match": "is required"])
            let malformed = try await api.sendJSON(
                .put, "/card/demo-01", CardFields(name: "X"), token: token, headers: [.ifMatch: "7"])
            #expect(try expectError(malformed, .badRequest).fields?["If-Match"] != nil)
        }
    }

    @Test func putValidatesLikeTheClientForms() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let headers: HTTPFields = [.ifMatch: #""1""#]
            let invalid = CardFields(
                name: " ", email: "not-an-email", website: "ftp://x", bio: String(repeating: "b", count: 501),
                birthday: "2023-02-29", funFacts: ["a", "b", "c", "d"], defaultImage: 9)
            let response = try await api.sendJSON(.put, "/card/demo-01", invalid, token: token, headers: headers)
            let fields = try #require(try expectError(response, .badRequest).fields)
            #expect(Set(fields.keys) == ["name", "email", "website", "bio", "birthday", "tmi", "defaultImage"])
            #expect(fields == invalid.normalized().validate())

            let unknown = try await api.sendRaw(
                .put, "/card/demo-01", #"{"name": "A", "nickname": "B", "id": "ignored", "version": 9}"#, token: token,
                headers: headers)
            #expect(try expectError(unknown, .badRequest).fields == ["nickname": "is not a card field"])
            let noName = try await api.sendRaw(
                .put, "/card/demo-01", #"{"title": "T"}"#, token: token, headers: headers)
            #expect(try expectError(noName, .badRequest).fields == ["name": "is required"])
            let nul = try await api.sendJSON(
                .put, "/card/demo-01", CardFields(name: "A\u{0}B"), token: token, headers: headers)
            #expect(try expectError(nul, .badRequest).fields?["name"]?.contains("NUL") == true)
            let wrongType = try await api.sendRaw(
                .put, "/card/demo-01", #"{"name": "A", "tags": "x"}"#, token: token, headers: headers)
            #expect(try expectError(wrongType, .badRequest).fields == ["tags": "must be a list"])
            let xml = try await api.sendRaw(
                .put, "/card/demo-01", "<card/>", contentType: "application/xml", token: token, headers: headers)
            try expectError(xml, .unsupportedMediaType)
            // Nothing of that changed the card.
            #expect(try await api.send(.get, "/card/demo-01", token: token).data(APICard.self).version == 1)
        }
    }

    @Test func oversizedJSONIsE08() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            // Past the card body limit (64 KiB plus the allowance for kept vCard lines).
            let limit = MockServerConfiguration.testing.limits.maxCardJSONBytes
            let huge = CardFields(name: "A", bio: String(repeating: "x", count: limit + 1))
            let response = try await api.sendJSON(
                .put, "/card/demo-01", huge, token: token, headers: [.ifMatch: #""1""#])
            try expectError(response, .payloadTooLarge)
        }
    }

    @Test func deleteThenEveryOperationAnswersE05() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let stale = try await api.send(.delete, "/card/demo-01", token: token, headers: [.ifMatch: #""5""#])
            try expectError(stale, .versionConflict)
            let deleted = try await api.send(.delete, "/card/demo-01", token: token)
            #expect(deleted.status == .ok)
            _ = try deleted.data(EmptyPayload.self)

            try expectError(try await api.send(.get, "/card/demo-01", token: token), .cardNotFound)
            try expectError(try await api.send(.get, "/card/demo-01/image", token: token), .cardNotFound)
            try expectError(try await api.send(.delete, "/card/demo-01", token: token), .cardNotFound)
            try expectError(
                try await api.sendJSON(
                    .put, "/card/demo-01", CardFields(name: "Back"), token: token, headers: [.ifMatch: #""1""#]),
                .cardNotFound)
            try expectError(
                try await api.sendJSON(.put, "/card/demo-01", CardFields(name: "Back"), token: token), .cardNotFound)
            let page = try await api.send(.get, "/cards", token: token).data(APICardPage.self)
            #expect(page.total == 11)
            #expect(!page.cards.contains { $0.id == "demo-01" })
            let order = (2...12).map { String(format: "demo-%02d", $0) }
            let withDeleted = try await api.sendJSON(
                .put, "/cards", ReorderRequest(order: ["demo-01"] + order), token: token)
            try expectError(withDeleted, .badRequest)
        }
    }

    @Test func reorderChangesTheListAndRefusesIncompleteOrders() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let ids = (1...12).map { String(format: "demo-%02d", $0) }
            let reversed = Array(ids.reversed())
            let response = try await api.sendJSON(.put, "/cards", ReorderRequest(order: reversed), token: token)
            #expect(try response.data(ReorderRequest.self).order == reversed)
            #expect(
                try await api.send(.get, "/cards?limit=3", token: token).data(APICardPage.self).cards.map(\.id)
                    == Array(reversed.prefix(3)))

            let missing = try await api.sendJSON(
                .put, "/cards", ReorderRequest(order: Array(reversed.dropLast())), token: token)
            #expect(
                try expectError(missing, .badRequest).fields?["order"]?.contains(
                    "leaves out cards of your wallet: demo-01") == true)
            let twice = try await api.sendJSON(
                .put, "/cards", ReorderRequest(order: reversed + ["demo-01"]), token: token)
            #expect(try expectError(twice, .badRequest).fields?["order"]?.contains("more than once") == true)
            let foreign = try await api.sendJSON(
                .put, "/cards", ReorderRequest(order: reversed + ["minji-01"]), token: token)
            #expect(
                try expectError(foreign, .badRequest).fields?["order"]?.contains("not in your wallet: minji-01") == true
            )
            try expectError(try await api.sendRaw(.put, "/cards", #"{"order": "demo-01"}"#, token: token), .badRequest)
            try expectError(try await api.sendRaw(.put, "/cards", #"{}"#, token: token), .badRequest)
            #expect(
                try await api.send(.get, "/cards?limit=1", token: token).data(APICardPage.self).cards.map(\.id) == [
                    "demo-12"
                ])
        }
    }

    @Test func createViaTheRouterReturns201WithLocation() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            var form = MultipartForm(
                fields: CardFields(
                    name: "새 카드", company: "Hangang", funFacts: ["one", "two"], tags: ["a"], defaultImage: 3))
            form.addImage(TestImages.png)
            let response = try await api.createCard(form, token: token)
            #expect(response.status == .created)
            let card = try response.data(APICard.self)
            #expect(response.headers[.location] == "/v1/card/\(card.id)")
            #expect(response.headers[.eTag] == #""1""#)
            #expect(
                card.fields
                    == CardFields(
                        name: "새 카드", company: "Hangang", funFacts: ["one", "two"], tags: ["a"], defaultImage: 3))
            #expect(card.image == CardImageInfo(contentType: "image/png", size: TestImages.png.count))
            let page = try await api.send(.get, "/cards", token: token).data(APICardPage.self)
            #expect(page.cards.last?.id == card.id, "new cards go to the end of the wallet")
            let image = try await api.send(.get, "/card/\(card.id)/image", token: token)
            #expect(Data(image.body.readableBytesView) == TestImages.png)
        }
    }
}
