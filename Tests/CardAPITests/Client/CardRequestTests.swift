import CardModels
import Foundation
import Networking
import Synchronization
import TestSupport
import Testing
import TokenStore

@testable import CardAPI

/// What each card call sends and returns, on the stub transport.
@Suite struct CardRequestTests {
    @Test func listSendsItsParametersAndDecodesThePage() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            let page = try await harness.client().listCards(offset: 10, limit: 20, query: "ada lovelace")
            #expect(page.total == 1)
            #expect(page.cards.first?.name == "Ada Lovelace")
            let request = try #require(harness.cardRequests.first)
            #expect(request.method == .get)
            #expect(request.url.absoluteString == "http://cards.test/v1/cards?limit=20&offset=10&q=ada%20lovelace")
            #expect(request.headers["Accept"] == "application/json")
        }
    }

    @Test func updateSendsIfMatchAndTheFieldsAsJSON() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            let fields = CardFields(name: "Ada", email: "ada@example.com")
            let card = try await harness.client().updateCard(id: "card_1", fields: fields, version: 3)
            #expect(card.version == 4)
            let request = try #require(harness.cardRequests.first)
            #expect(request.method == .put)
            #expect(request.path == "/v1/card/card_1")
            #expect(request.headers["If-Match"] == "\"3\"")
            #expect(request.headers["Content-Type"] == "application/json")
            let sent = try CardWalletJSON.decoder().decode(CardFields.self, from: try #require(request.body.data))
            #expect(sent == fields)
        }
    }

    @Test func deleteSendsIfMatchOnlyWithAVersion() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            let client = harness.client()
            try await client.deleteCard(id: "a")
            try await client.deleteCard(id: "b", version: 7)
            #expect(harness.cardRequests.map(\.method) == [.delete, .delete])
            #expect(harness.cardRequests.map { $0.headers["If-Match"] } == [nil, "\"7\""])
        }
    }

    @Test func reorderSendsTheWholeOrder() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            let order = try await harness.client().reorderCards(["c", "a", "b"])
            #expect(order == ["c", "a", "b"])
            let request = try #require(harness.cardRequests.first)
            #expect(request.method == .put && request.path == "/v1/cards")
            #expect(request.body.data == Data(#"{"order":["c","a","b"]}"#.utf8))
        }
    }

    @Test(arguments: ["../cards", "a/b", "x y", "", String(repeating: "a", count: 65), "%2e%2e", "ид"])
    func textThatCannotBeACardIDIsRefusedWithoutSending(id: String) async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            let client = harness.client()
            let error = await #expect(throws: CardAPIError.self) { _ = try await client.card(id: id) }
            #expect(error == .invalidCardID(id))
            #expect(error?.isNotFound == true)
            await #expect(throws: CardAPIError.invalidCardID(id)) { try await client.deleteCard(id: id) }
            #expect(harness.stub.requests.isEmpty)
        }
    }

    @Test func theImageComesBackWithItsType() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            let image = try await harness.client().cardImage(id: "card_1")
            #expect(image.data == Fixtures.png)
            #expect(image.contentType == "image/png")
            #expect(image.format == .png)
            #expect(image.version == 3)
            #expect(harness.cardRequests.first?.path == "/v1/card/card_1/image")
        }
    }

    @Test func anImageAnswerThatIsNoImageIsAnUnexpectedResponse() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            await harness.fake.set(cardOverride: { _ in
                StubResponse(statusCode: 200, headers: ["Content-Type": "text/html"], body: Data("<html>".utf8))
            })
            let error = await #expect(throws: CardAPIError.self) { _ = try await harness.client().cardImage(id: "x") }
            guard case .unexpectedResponse(let response)? = error else {
                Issue.record("expected an unexpected response, got \(String(describing: error))")
                return
            }
            #expect(response.expected == "image")
        }
    }

    @Test func createSendsMultipartWithTheFieldsAndTheImageFile() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            let imageURL = URL(fileURLWithPath: try harness.folder.write(Fixtures.png, to: "photo of me.png"))
            let fields = CardFields(name: "Ada", tags: ["math", "poetry"])
            let card = try await harness.client().createCard(fields, imageAt: imageURL)
            #expect(card.version == 1)

            let request = try #require(harness.cardRequests.first)
            #expect(request.method == .post && request.path == "/v1/card")
            let contentType = try #require(request.headers["Content-Type"])
            #expect(contentType.hasPrefix("multipart/form-data; boundary="))
            #expect(request.body.multipartPartCount == 5)  // name, two tags, defaultImage, image
            #expect(!request.body.isInMemory)  // the image is streamed from the file
            let body = String(decoding: try await request.body.collect(), as: UTF8.self)
            #expect(body.contains(#"name="card.name""#))
            #expect(body.contains(#"name="card.tags""#))
            #expect(body.contains(#"name="image"; filename="image.png""#))
            #expect(body.contains("Content-Type: image/png"))
            #expect(!body.contains("photo of me"))
        }
    }

    @Test func a401DuringAnUploadResendsTheSameBytesAfterTheRefresh() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            await harness.fake.expireAccessTokens()
            let imageURL = URL(fileURLWithPath: try harness.folder.write(Fixtures.jpeg, to: "a.jpg"))
            _ = try await harness.client().createCard(CardFields(name: "Ada"), imageAt: imageURL)

            let uploads = harness.requests(to: "/v1/card")
            #expect(uploads.count == 2)
            #expect(harness.refreshRequests.count == 1)
            let first = try await uploads[0].body.collect()
            let second = try await uploads[1].body.collect()
            #expect(first == second)
            #expect(first.count > Fixtures.jpeg.count)
            #expect(uploads[0].headers["Content-Type"] == uploads[1].headers["Content-Type"])
            #expect(bearer(uploads[0]) != bearer(uploads[1]))
        }
    }

    @Test func tooManyRequestsWaitsRetryAfterOnTheClockThenRetriesOnce() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            let limited = FakeCardServer.failure(
                "E10", status: 429, message: "Slow down.", headers: ["Retry-After": "2"])
            let answered = Counter()
            await harness.fake.set(cardOverride: { _ in answered.next() == 1 ? limited : nil })
            let client = harness.client()
            let call = Task { try await client.card(id: "card_1") }
            try await waitUntil("the wait on the clock") { harness.clock.sleeperCount == 1 }
            #expect(harness.clock.sleepRequests == [.seconds(2)])
            #expect(harness.cardRequests.count == 1)
            harness.clock.advance(by: .seconds(2))
            #expect(try await call.value.id == "card_1")
            #expect(harness.cardRequests.count == 2)
        }
    }

    @Test func tooManyRequestsTwiceGivesTheErrorWithItsWait() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            let limited = FakeCardServer.failure(
                "E10", status: 429, message: "Slow down.", headers: ["Retry-After": "1"])
            await harness.fake.set(cardOverride: { _ in limited })
            let client = harness.client()
            let call = Task { try await client.card(id: "card_1") }
            try await waitUntil("the wait on the clock") { harness.clock.sleeperCount == 1 }
            harness.clock.advance(by: .seconds(1))
            let error = await #expect(throws: CardAPIError.self) { try await call.value }
            #expect(error?.errorCode == .tooManyRequests)
            #expect(error?.retryAfter == .seconds(1))
            #expect(harness.cardRequests.count == 2)
        }
    }

    @Test func aRetryAfterBeyondTheLimitFailsAtOnce() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            let limited = FakeCardServer.failure("E10", status: 429, message: "Later.", headers: ["Retry-After": "120"])
            await harness.fake.set(cardOverride: { _ in limited })
            let error = await #expect(throws: CardAPIError.self) { _ = try await harness.client().card(id: "card_1") }
            #expect(error?.retryAfter == .seconds(120))
            #expect(error?.description.contains("Try again in 120 s") == true)
            #expect(harness.clock.sleepRequests.isEmpty)
            #expect(harness.cardRequests.count == 1)
        }
    }
}

/// Counts calls from any task.
final class Counter: Sendable {
    private let value = Synchronization.Mutex(0)
    /// The next number, from 1.
    func next() -> Int {
        value.withLock {
            $0 += 1
            return $0
        }
    }
}
