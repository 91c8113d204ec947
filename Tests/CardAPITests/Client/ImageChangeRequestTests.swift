import CardModels
import Foundation
import Networking
import TestSupport
import Testing

@testable import CardAPI

/// What `replaceImage` and `removeImage` send, on the stub transport.
@Suite struct ImageChangeRequestTests {
    @Test func replaceStreamsTheFileAsTheBodyWithIfMatchAndItsSniffedType() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            // Named .png, but a JPEG by its bytes: the bytes decide the Content-Type.
            let imageURL = URL(fileURLWithPath: try harness.folder.write(Fixtures.jpeg, to: "holiday.png"))
            let card = try await harness.client().replaceImage(id: "card_1", version: 3, imageAt: imageURL)
            #expect(card.id == "card_1" && card.version == 4 && card.hasImage)

            let request = try #require(harness.cardRequests.first)
            #expect(request.method == .put)
            #expect(request.path == "/v1/card/card_1/image")
            #expect(request.headers["If-Match"] == "\"3\"")
            #expect(request.headers["Content-Type"] == "image/jpeg")
            #expect(request.headers["Accept"] == "application/json")
            #expect(!request.body.isInMemory, "the image is streamed from the file")
            #expect(try await request.body.collect() == Fixtures.jpeg, "the raw bytes, not a form")
        }
    }

    @Test func removeSendsIfMatchAndNoBody() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            let card = try await harness.client().removeImage(id: "card_1", version: 7)
            #expect(card.version == 8 && !card.hasImage)
            let request = try #require(harness.cardRequests.first)
            #expect(request.method == .delete)
            #expect(request.path == "/v1/card/card_1/image")
            #expect(request.headers["If-Match"] == "\"7\"")
            #expect(try await request.body.collect().isEmpty)
        }
    }

    @Test func aFileThatCannotBeAnImageIsRefusedWithoutSending() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            let client = CardAPIClient(
                configuration: CardAPIConfiguration(
                    server: Harness.server, maximumImageBytes: 1000, allowsInsecureHTTP: true),
                tokenStore: harness.store, transport: harness.stub, wallClock: harness.wallClock, clock: harness.clock)
            let text = URL(fileURLWithPath: try harness.folder.write(Data("not a picture at all".utf8), to: "fake.png"))
            let empty = URL(fileURLWithPath: try harness.folder.write(Data(), to: "empty.jpg"))
            // 2008 bytes, over the 1000-byte limit of this test.
            let big = URL(fileURLWithPath: try harness.folder.write(Fixtures.png, to: "big.png"))
            let missing = harness.folder.url("missing.png")
            let cases: [(URL, ImageProblem)] = [
                (text, .notPNGOrJPEG), (empty, .empty), (big, .tooLarge(bytes: Fixtures.png.count, limit: 1000)),
                (missing, .missing), (harness.folder.url, .notAFile),
            ]
            for (url, problem) in cases {
                let error = await #expect(throws: CardAPIError.self) {
                    _ = try await client.replaceImage(id: "card_1", version: 1, imageAt: url)
                }
                #expect(error == .invalidImage(path: url.path(percentEncoded: false), problem: problem))
                #expect(error?.description.contains(problem.description) == true)
            }
            await #expect(throws: CardAPIError.invalidCardID("../cards")) {
                _ = try await client.removeImage(id: "../cards", version: 1)
            }
            let image = try ImageFile(
                validating: URL(fileURLWithPath: harness.folder.write(Fixtures.png, to: "ok.png")))
            await #expect(throws: CardAPIError.invalidCardID("a/b")) {
                _ = try await client.replaceImage(id: "a/b", version: 1, image: image)
            }
            #expect(harness.stub.requests.isEmpty)
        }
    }

    @Test func a401DuringTheUploadResendsTheSameBytesAfterTheRefresh() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            await harness.fake.expireAccessTokens()
            let imageURL = URL(fileURLWithPath: try harness.folder.write(Fixtures.png, to: "a.png"))
            _ = try await harness.client().replaceImage(id: "card_1", version: 3, imageAt: imageURL)

            let uploads = harness.requests(to: "/v1/card/card_1/image")
            #expect(uploads.count == 2)
            #expect(harness.refreshRequests.count == 1)
            #expect(try await uploads[0].body.collect() == Fixtures.png)
            #expect(try await uploads[1].body.collect() == Fixtures.png)
            #expect(uploads.map { $0.headers["If-Match"] } == ["\"3\"", "\"3\""])
            #expect(bearer(uploads[0]) != bearer(uploads[1]))
        }
    }

    @Test func theTargetDescribesItselfWithoutTheImage() throws {
        let folder = try TemporaryFolder("cardapi")
        defer { folder.remove() }
        let image = try ImageFile(validating: URL(fileURLWithPath: folder.write(Fixtures.png, to: "secret-name.png")))
        let server = try #require(URL(string: "http://cards.test/v1"))
        let replace = CardService(server: server, endpoint: .replaceImage(id: "card_1", image: image, version: 2))
        #expect(replace.description == "PUT /card/card_1/image")
        let remove = CardService(server: server, endpoint: .removeImage(id: "card_1", version: 2))
        #expect(remove.description == "DELETE /card/card_1/image")
        #expect(remove.authorizationType == .bearer)
    }
}
