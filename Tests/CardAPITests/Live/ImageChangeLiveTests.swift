import CardAPI
import CardMockServer
import CardModels
import Foundation
import Networking
import TestSupport
import Testing

/// Replacing and removing images, and kept vCard lines, through the client against the real
/// mock server, in-process on port 0.
@Suite struct ImageChangeLiveTests {
    static let email = "demo@cardwallet.dev"
    static let password = "demo1234"

    @Test func anImageIsAddedReplacedAndRemovedAfterTheCardWasMade() async throws {
        try await LiveHarness.with { live in
            let client = live.client()
            try await client.login(email: Self.email, password: Self.password)
            let created = try await client.createCard(CardFields(name: "Photo Later"))
            #expect(!created.hasImage)

            let png = URL(fileURLWithPath: try live.folder.write(Fixtures.png, to: "first.png"))
            let withPNG = try await client.replaceImage(id: created.id, version: created.version, imageAt: png)
            #expect(withPNG.version == 2 && withPNG.hasImage)
            #expect(withPNG.image == CardImageInfo(contentType: "image/png", size: Fixtures.png.count))
            #expect(withPNG.fields == created.fields)
            let first = try await client.cardImage(id: created.id)
            #expect(first.data == Fixtures.png && first.format == .png && first.version == 2)

            let jpeg = URL(fileURLWithPath: try live.folder.write(Fixtures.jpeg, to: "second.jpg"))
            let withJPEG = try await client.replaceImage(id: created.id, version: withPNG.version, imageAt: jpeg)
            #expect(withJPEG.version == 3 && withJPEG.image?.contentType == "image/jpeg")
            let second = try await client.cardImage(id: created.id)
            #expect(second.data == Fixtures.jpeg && second.format == .jpeg && second.version == 3)
            #expect(try await client.card(id: created.id) == withJPEG)

            let removed = try await client.removeImage(id: created.id, version: withJPEG.version)
            #expect(removed.version == 4 && !removed.hasImage && removed.image == nil)
            let gone = await #expect(throws: CardAPIError.self) { _ = try await client.cardImage(id: created.id) }
            #expect(gone?.isNotFound == true)
            // Removing it again is fine and changes nothing.
            #expect(try await client.removeImage(id: created.id, version: removed.version) == removed)
            #expect(live.server.statistics.count("PUT /card/{cardId}/image", status: 200) == 2)
            #expect(live.server.statistics.count("DELETE /card/{cardId}/image", status: 200) == 2)
        }
    }

    @Test func aStaleVersionIsTheE07ConflictAndChangesNothing() async throws {
        try await LiveHarness.with { live in
            let client = live.client()
            try await client.login(email: Self.email, password: Self.password)
            let card = try await client.card(id: "demo-01")
            let before = try await client.cardImage(id: card.id)
            _ = try await client.updateCard(
                id: card.id, fields: CardFields(name: "Ada, edited elsewhere"), version: card.version)

            let jpeg = URL(fileURLWithPath: try live.folder.write(Fixtures.jpeg, to: "new.jpg"))
            let replace = await #expect(throws: CardAPIError.self) {
                _ = try await client.replaceImage(id: card.id, version: card.version, imageAt: jpeg)
            }
            #expect(replace?.isConflict == true && replace?.statusCode == 412 && replace?.errorCode == .versionConflict)
            let remove = await #expect(throws: CardAPIError.self) {
                _ = try await client.removeImage(id: card.id, version: card.version)
            }
            #expect(remove?.isConflict == true)
            #expect(try await client.cardImage(id: card.id).data == before.data)
            #expect(try await client.card(id: card.id).version == card.version + 1)

            let missing = await #expect(throws: CardAPIError.self) {
                _ = try await client.replaceImage(id: "no-such-card", version: 1, imageAt: jpeg)
            }
            #expect(missing?.isNotFound == true)
        }
    }

    @Test func anImageOverTheServersLimitIsE08FromTheServer() async throws {
        var configuration = MockServerConfiguration.testing
        configuration.limits.maxImageBytes = 1024
        try await LiveHarness.with(configuration) { live in
            // The client's own limit is the default 2 MiB, so only the server can refuse it.
            let client = live.client()
            try await client.login(email: Self.email, password: Self.password)
            let big = URL(fileURLWithPath: try live.folder.write(Fixtures.png, to: "big.png"))
            let error = await #expect(throws: CardAPIError.self) {
                _ = try await client.replaceImage(id: "demo-10", version: 1, imageAt: big)
            }
            #expect(error?.errorCode == .payloadTooLarge && error?.statusCode == 413)
            #expect(try await client.card(id: "demo-10").hasImage == false)
        }
    }

    @Test func anUploadThatGetsA401IsSentAgainAndStoredOnce() async throws {
        try await LiveHarness.with { live in
            let client = live.client()
            try await client.login(email: Self.email, password: Self.password)
            try await live.server.expireAccessTokens(email: Self.email)
            let png = URL(fileURLWithPath: try live.folder.write(Fixtures.png, to: "a.png"))
            let card = try await client.replaceImage(id: "demo-10", version: 1, imageAt: png)
            #expect(card.version == 2 && card.image?.size == Fixtures.png.count)
            #expect(live.server.statistics.count("PUT /card/{cardId}/image", status: 401) == 1)
            #expect(live.server.statistics.count("PUT /card/{cardId}/image", status: 200) == 1)
            #expect(try await client.cardImage(id: "demo-10").data == Fixtures.png)
        }
    }

    @Test func keptVCardLinesTravelThroughCreateEditAndShow() async throws {
        try await LiveHarness.with { live in
            let client = live.client()
            try await client.login(email: Self.email, password: Self.password)
            let kept = ["TEL;TYPE=FAX:+1 555 0100", "X-ABLabel:집", "UID:urn:uuid:4fbe8971-0bc3-424c-9c26-36c3e1eff6b1"]
            let created = try await client.createCard(CardFields(name: "Imported", vcardProperties: kept))
            #expect(created.fields.vcardProperties == kept)
            var fields = created.fields
            fields.title = "Edited"
            let saved = try await client.updateCard(id: created.id, fields: fields, version: created.version)
            #expect(saved.fields.vcardProperties == kept)
            #expect(try await client.card(id: created.id) == saved)
            let refused = await #expect(throws: CardAPIError.self) {
                _ = try await client.createCard(CardFields(name: "Bad", vcardProperties: ["TEL:1", ""]))
            }
            #expect(refused?.fieldProblems.keys.sorted() == [CardLimits.vcardPropertiesKey])
        }
    }
}
