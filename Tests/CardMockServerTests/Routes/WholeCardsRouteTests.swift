import CardAPIContract
import CardMockServer
import CardModels
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// `GET /cards/whole?ids=…`: whole cards by id in one request, for the client's batched reads.
@Suite struct WholeCardsRouteTests {
    @Test func wholeCardsComeInTheOrderAskedAndTheRestAreMissing() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let answer = try await api.send(.get, "/cards/whole?ids=demo-03,no-such-card,demo-01,demo-03", token: token)
                .data(APIWholeCards.self)
            #expect(answer.cards.map(\.id) == ["demo-03", "demo-01"], "in the order asked, once each")
            #expect(answer.missing == ["no-such-card"])
            let one = try await api.send(.get, "/card/demo-01", token: token).data(APICard.self)
            #expect(answer.cards.last == one, "the same whole card as GET /card/{id}")
        }
    }

    @Test func anotherUsersCardsAreMissingLikeCardsThatNeverWere() async throws {
        try await withRouter { api, _ in
            let minji = try await api.login(Seeds.minjiEmail, Seeds.minjiPassword).accessToken
            let answer = try await api.send(.get, "/cards/whole?ids=demo-01,demo-02", token: minji)
                .data(APIWholeCards.self)
            #expect(answer.cards.isEmpty)
            #expect(answer.missing == ["demo-01", "demo-02"])
        }
    }

    @Test(arguments: [
        "", "ids=", "ids=demo-01,,demo-02", "ids=a%2Fb",
        "ids=" + Array(repeating: "demo-01", count: 101).joined(separator: ","),
    ])
    func badIDsAreE01NamingTheParameter(query: String) async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let envelope = try expectError(try await api.send(.get, "/cards/whole?\(query)", token: token), .badRequest)
            #expect(envelope.fields?["ids"] != nil)
        }
    }

    @Test func withoutATokenItIsRefused() async throws {
        try await withRouter { api, _ in
            try expectError(try await api.send(.get, "/cards/whole?ids=demo-01"), .accessTokenInvalid)
        }
    }
}
