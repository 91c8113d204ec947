import CardAPI
import CardMockServer
import CardModels
import Foundation
import LiveTestSupport
import Networking
import TestSupport
import Testing
import TokenStore

/// The whole client against the real mock server, in-process on port 0.
@Suite struct EndToEndTests {
    static let email = "demo@cardwallet.dev"
    static let password = "demo1234"

    @Test func aCardsWholeLifeRefreshOnceThenRevokeEndsTheSession() async throws {
        try await LiveHarness.with { live in
            let client = live.client()
            let user = try await client.login(email: Self.email, password: Self.password)
            #expect(user.email == Self.email)
            #expect(try live.store.items().count == 1)
            let before = try await client.allCards()

            // Create with an image, fetch it back.
            let imageURL = URL(fileURLWithPath: try live.folder.write(Fixtures.png, to: "ada.png"))
            let fields = CardFields(name: "Zelda Quixote", company: "Analytical Engines", email: "zelda@example.com")
            let created = try await client.createCard(fields, imageAt: imageURL)
            #expect(created.version == 1)
            #expect(created.hasImage)
            #expect(created.image == CardImageInfo(contentType: "image/png", size: Fixtures.png.count))
            let image = try await client.cardImage(id: created.id)
            #expect(image.data == Fixtures.png && image.format == .png)

            // List and show.
            let all = try await client.allCards()
            #expect(all.map(\.id) == before.map(\.id) + [created.id])
            #expect(try await client.listCards(query: "QUIXOTE").cards.map(\.id) == [created.id])
            let shown = try await client.card(id: created.id)
            #expect(shown == created)

            // Edit, then a conflicting edit based on the old version.
            var edited = shown.fields
            edited.title = "Countess"
            let saved = try await client.updateCard(id: created.id, fields: edited, version: shown.version)
            #expect(saved.version == 2 && saved.fields.title == "Countess")
            var conflicting = shown.fields
            conflicting.title = "Mathematician"
            let conflict = await #expect(throws: CardAPIError.self) {
                _ = try await client.updateCard(id: created.id, fields: conflicting, version: shown.version)
            }
            #expect(
                conflict?.errorCode == .versionConflict && conflict?.statusCode == 412 && conflict?.isConflict == true)
            #expect(try await client.card(id: created.id) == saved)

            // Reorder the whole wallet.
            let reversed = Array(all.map(\.id).reversed())
            #expect(try await client.reorderCards(reversed) == reversed)
            #expect(try await client.allCards().map(\.id) == reversed)

            // Delete: the card is gone (E05).
            try await client.deleteCard(id: created.id, version: saved.version)
            let gone = await #expect(throws: CardAPIError.self) { _ = try await client.card(id: created.id) }
            #expect(gone?.errorCode == .cardNotFound && gone?.isNotFound == true)

            // Past the access token's expiry: one refresh, and everything keeps working.
            #expect(live.refreshAttempts == 0)
            live.clock.advance(by: .seconds(6 * 60))
            _ = try await client.allCards()
            _ = try await client.card(id: try #require(reversed.first { $0 != created.id }))
            #expect(live.refreshes == 1)
            #expect(live.refreshAttempts == 1)

            // Revoked on the server: the next refresh gets E06, the tokens are gone.
            try await live.server.revokeRefreshTokens(email: Self.email)
            live.clock.advance(by: .seconds(6 * 60))
            let ended = await #expect(throws: CardAPIError.self) { _ = try await client.listCards() }
            #expect(ended?.isSessionExpired == true)
            #expect(try live.store.items().isEmpty)
            #expect(client.session.state.isExpired)
            let requestsSoFar = live.server.statistics.total
            await #expect(throws: CardAPIError.self) { _ = try await client.listCards() }
            #expect(live.server.statistics.total == requestsSoFar)

            // The log saw the refreshes, E06 included.
            let refreshEvents = live.log.recent().filter { $0.kind == .received && $0.path == "/v1/auth/refresh" }
            #expect(refreshEvents.map(\.statusCode) == [200, 401])
            #expect(refreshEvents.last?.tag == "E06")
        }
    }

    @Test func anImageBehindASymbolicLinkIsUploadedWhole() async throws {
        try await LiveHarness.with { live in
            let client = live.client()
            try await client.login(email: Self.email, password: Self.password)
            let real = URL(fileURLWithPath: try live.folder.write(Fixtures.png, to: "real.png"))
            let link = live.folder.url("photo.png")
            try FileManager.default.createSymbolicLink(at: link, withDestinationURL: real)
            let card = try await client.createCard(CardFields(name: "Linked Image"), imageAt: link)
            #expect(card.image == CardImageInfo(contentType: "image/png", size: Fixtures.png.count))
            #expect(try await client.cardImage(id: card.id).data == Fixtures.png)
        }
    }

    @Test func anAccessTokenTheServerExpiredEarlyIsRefreshedAfterThe401() async throws {
        try await LiveHarness.with { live in
            let client = live.client()
            try await client.login(email: Self.email, password: Self.password)
            try await live.server.expireAccessTokens(email: Self.email)
            let page = try await client.listCards()
            #expect(page.total > 0)
            #expect(live.server.statistics.count("GET /cards", status: 401) == 1)
            #expect(live.refreshes == 1)
        }
    }

    @Test func aMultipartUploadThatGetsA401IsSentAgainAndStoredOnce() async throws {
        try await LiveHarness.with { live in
            let client = live.client()
            try await client.login(email: Self.email, password: Self.password)
            let before = try await client.listCards().total
            try await live.server.expireAccessTokens(email: Self.email)
            let imageURL = URL(fileURLWithPath: try live.folder.write(Fixtures.jpeg, to: "a.jpg"))
            let card = try await client.createCard(CardFields(name: "Grace Hopper"), imageAt: imageURL)
            #expect(card.image?.contentType == "image/jpeg")
            #expect(live.server.statistics.count("POST /card", status: 401) == 1)
            #expect(live.server.statistics.count("POST /card", status: 201) == 1)
            #expect(try await client.listCards().total == before + 1)
        }
    }

    @Test func wrongPasswordAndServerDownAreClear() async throws {
        try await LiveHarness.with { live in
            let client = live.client()
            let wrong = await #expect(throws: CardAPIError.self) {
                try await client.login(email: Self.email, password: "not-the-password")
            }
            #expect(wrong?.errorCode == .loginFailed)
            #expect(wrong?.description.contains("not-the-password") == false)
        }
        // A port nobody listens on.
        let folder = try TemporaryFolder("cardapi")
        defer { folder.remove() }
        try await LiveTransport.withTransport { transport in
            let client = CardAPIClient(
                configuration: CardAPIConfiguration(
                    server: try CardAPIConfiguration.serverURL("http://127.0.0.1:9/v1")),
                tokenStore: folder.tokenStore, transport: transport)
            let error = await #expect(throws: CardAPIError.self) {
                try await client.login(email: Self.email, password: Self.password)
            }
            #expect(error?.isNetworkFailure == true)
            #expect(error?.description.contains("http://127.0.0.1:9/v1") == true)
        }
    }
}
