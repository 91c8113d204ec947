import CardMockServer
import CardModels
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// User B (Minji) against user A's (the demo user's) ids on every card route: each answers
/// exactly as for a card that does not exist, and nothing of A's changes.
@Suite struct CrossUserTests {
    enum Route: String, CaseIterable, Sendable {
        case get, image, put, delete, deleteWithIfMatch, putWithoutIfMatch
    }

    func send(_ route: Route, id: String, api: API, token: String) async throws -> TestResponse {
        switch route {
        case .get: try await api.send(.get, "/card/\(id)", token: token)
        case .image: try await api.send(.get, "/card/\(id)/image", token: token)
        case .put:
            try await api.sendJSON(
                .put, "/card/\(id)", CardFields(name: "Mine now"), token: token, headers: [.ifMatch: #""1""#])
        case .putWithoutIfMatch: try await api.sendJSON(.put, "/card/\(id)", CardFields(name: "Mine now"), token: token)
        case .delete: try await api.send(.delete, "/card/\(id)", token: token)
        case .deleteWithIfMatch: try await api.send(.delete, "/card/\(id)", token: token, headers: [.ifMatch: #""1""#])
        }
    }

    @Test(arguments: Route.allCases)
    func anotherUsersCardIsIndistinguishableFromAMissingOne(route: Route) async throws {
        try await withRouter { api, _ in
            let minji = try await api.login(Seeds.minjiEmail, Seeds.minjiPassword).accessToken
            let demo = try await api.login().accessToken
            for id in [Seeds.demoCardWithImage, Seeds.demoCardWithoutImage] {
                let foreign = try expectError(try await send(route, id: id, api: api, token: minji), .cardNotFound)
                let missing = try expectError(
                    try await send(route, id: "no-such-card", api: api, token: minji), .cardNotFound)
                #expect(foreign == missing)
            }
            // The demo user's cards are untouched.
            let card = try await api.send(.get, "/card/\(Seeds.demoCardWithImage)", token: demo).data(APICard.self)
            #expect(card.version == 1 && card.fields.name == "Ada Lovelace")
            let page = try await api.send(.get, "/cards", token: demo).data(APICardPage.self)
            #expect(page.total == Seeds.demoCardCount)
        }
    }

    @Test func listsAndReordersStayWithinTheirOwnWallet() async throws {
        try await withRouter { api, _ in
            let minji = try await api.login(Seeds.minjiEmail, Seeds.minjiPassword).accessToken
            let page = try await api.send(.get, "/cards?q=ada", token: minji).data(APICardPage.self)
            #expect(page.total == 0)
            let all = try await api.send(.get, "/cards", token: minji).data(APICardPage.self)
            #expect(all.cards.map(\.id) == ["minji-01", "minji-02", "minji-03"])
            let stealing = ReorderRequest(order: ["minji-01", "minji-02", "minji-03", "demo-01"])
            #expect(
                try expectError(try await api.sendJSON(.put, "/cards", stealing, token: minji), .badRequest).fields?[
                    "order"] != nil)
        }
    }

    @Test func theOwnerCanStillDoEverything() async throws {
        try await withRouter { api, _ in
            let demo = try await api.login().accessToken
            for route in [Route.get, .image, .put] {
                let response = try await send(route, id: Seeds.demoCardWithImage, api: api, token: demo)
                #expect(response.status == .ok, "\(route)")
            }
            #expect(try await send(.delete, id: Seeds.demoCardWithImage, api: api, token: demo).status == .ok)
        }
    }
}
