import CardAPI
import CardMockServer
import CardModels
import Foundation
import LiveTestSupport
import Networking
import TestSupport
import Testing
import TokenStore

/// Creates carry an `Idempotency-Key` (docs/API.md): a create whose answer is lost and that is
/// sent again with its key makes one card.
@Suite struct IdempotentCreateTests {
    static let email = "demo@cardwallet.dev"
    static let password = "demo1234"

    /// A client whose transport delivers every request to the live server but drops the answer
    /// to the first `POST /card`, as a connection broken after the server answered would.
    static func lossyClient(_ harness: LiveHarness) -> CardAPIClient {
        CardAPIClient(
            configuration: CardAPIConfiguration(server: harness.server.baseURL), tokenStore: harness.store,
            transport: AnswerDroppingTransport.droppingCreates(through: harness.transport))
    }

    @Test func aCreateWhoseAnswerWasLostIsSentAgainWithItsKeyAndMakesOneCard() async throws {
        try await LiveHarness.with { harness in
            let client = Self.lossyClient(harness)
            _ = try await client.login(email: Self.email, password: Self.password)
            let fields = CardFields(name: "Lost Answer", company: "Broken Pipes")
            let key = IdempotencyKey()
            let lost = await #expect(throws: CardAPIError.self) {
                try await client.createCard(fields, idempotencyKey: key)
            }
            #expect(lost?.isNetworkFailure == true, "\(String(describing: lost))")

            let card = try await client.createCard(fields, idempotencyKey: key)
            #expect(card.fields == fields && card.version == 1)
            #expect(try await client.allCards().filter { $0.name == fields.name }.map(\.id) == [card.id])
            #expect(harness.server.statistics.count("POST /card", status: 201) == 2, "both reached the server")
        }
    }

    /// The same loss without the key: the second attempt is a second card. What the key prevents.
    @Test func withAFreshKeyTheSameRetryMakesASecondCard() async throws {
        try await LiveHarness.with { harness in
            let client = Self.lossyClient(harness)
            _ = try await client.login(email: Self.email, password: Self.password)
            let fields = CardFields(name: "Lost Twice")
            await #expect(throws: CardAPIError.self) { try await client.createCard(fields) }
            _ = try await client.createCard(fields)
            #expect(try await client.allCards().filter { $0.name == fields.name }.count == 2)
        }
    }

    @Test func everyCreateCarriesItsOwnKeyAndTheProvidersRetryReusesIt() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            // The server rejects the first attempt's token: the provider refreshes and sends again.
            await harness.fake.expireAccessTokens()
            let client = harness.client()
            _ = try await client.createCard(CardFields(name: "One"))
            _ = try await client.createCard(CardFields(name: "Two"))
            let keys = harness.cardRequests.filter { $0.method == .post }.map { $0.headers["Idempotency-Key"] }
            #expect(keys.count == 3, "the first create twice (before and after the refresh), the second once")
            #expect(keys[0] != nil && keys[0] == keys[1])
            #expect(keys[2] != nil && keys[2] != keys[0])
            for value in keys.compactMap({ $0 }) {
                #expect(IdempotencyKey(headerValue: value) != nil && value.hasPrefix("\""), "\(value)")
            }
        }
    }
}
