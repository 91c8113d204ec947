import AsyncHTTPClient
import CardMockServer
import CardModels
import Foundation
import NIOCore
import NIOHTTP1
import TestSupport
import Testing

@Suite struct LiveServerTests {
    static var smallLimits: MockServerConfiguration {
        var configuration = MockServerConfiguration.testing
        configuration.limits.maxImageBytes = 64 * 1024
        configuration.limits.maxJSONBytes = 8 * 1024
        return configuration
    }

    @Test func startsOnAFreePortAndStopsCleanly() async throws {
        let live = try await LiveServer.start()
        #expect(live.server.port > 0)
        #expect(live.server.baseURLString == "http://127.0.0.1:\(live.server.port)/v1")
        #expect(live.server.baseURL.absoluteString == live.server.baseURLString)
        let banner = await live.server.banner()
        #expect(banner.first == "listening on http://127.0.0.1:\(live.server.port)/v1")
        #expect(banner.contains { $0.contains("demo@cardwallet.dev / demo1234") && $0.contains("12 cards") })
        #expect(banner.contains { $0.contains("minji@cardwallet.dev / minji1234") && $0.contains("3 cards") })
        _ = try await live.login()
        await live.server.stop()
        await live.server.stop()
    }

    /// On a port the test holds (never free for another suite's server in between): once
    /// stopped, the server refuses connections and a new server can take its port.
    @Test func aStoppedServerLetsItsPortGo() async throws {
        var configuration = MockServerConfiguration.testing
        configuration.port = try RefusingPort.reserveForRestarts()
        let live = try await LiveServer.start(configuration)
        _ = try await live.login()
        await live.server.stop()
        // HTTP clients retry refused connections until their deadline, so keep it short here.
        await #expect(throws: (any Error).self) { _ = try await live.send(.GET, "/cards", timeout: .seconds(1)) }
        let again = try await MockServer.start(configuration: configuration)
        #expect(again.port == configuration.port)
        await again.stop()
    }

    @Test func aTakenPortIsAClearError() async throws {
        try await LiveServer.with { first in
            var configuration = MockServerConfiguration.testing
            configuration.port = first.server.port
            let error = await #expect(throws: MockServerError.self) {
                _ = try await MockServer.start(configuration: configuration)
            }
            #expect(error?.description.contains("already in use") == true)
        }
    }

    @Test func multipartUploadWithAnImageRoundTrips() async throws {
        try await LiveServer.with { live in
            let token = try await live.login().accessToken
            var form = MultipartForm(fields: CardFields(name: "이미지 카드", email: "img@example.com", tags: ["x", "y"]))
            let image = TestImages.png(size: 40_000)
            form.addImage(image, filename: "face.png", contentType: "application/octet-stream")
            let created = try await live.upload(form, token: token)
            #expect(created.status == 201)
            let card = try created.data(APICard.self)
            #expect(card.image == CardImageInfo(contentType: "image/png", size: image.count))
            let fetched = try await live.send(.GET, "/card/\(card.id)/image", token: token)
            #expect(fetched.status == 200)
            #expect(fetched.headers["content-type"] == "image/png")
            #expect(fetched.body == image)

            // The same upload streamed without a Content-Length works too.
            let streamed = try await live.upload(form, token: token, declaredLength: false)
            #expect(streamed.status == 201)
            // A JPEG; and an empty image part means no image.
            var jpeg = MultipartForm(fields: CardFields(name: "JPEG"))
            jpeg.addImage(TestImages.jpeg, filename: "a.jpg", contentType: "image/jpeg")
            #expect(try await live.upload(jpeg, token: token).data(APICard.self).image?.contentType == "image/jpeg")
            var empty = MultipartForm(fields: CardFields(name: "No image"))
            empty.addImage(Data(), filename: "")
            #expect(try await live.upload(empty, token: token).data(APICard.self).hasImage == false)
        }
    }

    @Test func oversizedUploadsAreE08WhetherDeclaredOrStreamed() async throws {
        try await LiveServer.with(Self.smallLimits) { live in
            let token = try await live.login().accessToken
            var form = MultipartForm(fields: CardFields(name: "Big"))
            form.addImage(TestImages.png(size: 3 * 1024 * 1024))
            let declared = try await live.upload(form, token: token)
            #expect(declared.status == 413)
            #expect(try declared.failure().errorCode == .payloadTooLarge)
            let streamed = try await live.upload(form, token: token, declaredLength: false)
            #expect(streamed.status == 413)
            #expect(try streamed.failure().errorCode == .payloadTooLarge)

            // An image just over its own limit, in a body under the overall limit.
            var justOver = MultipartForm(fields: CardFields(name: "Just over"))
            justOver.addImage(TestImages.png(size: 64 * 1024 + 1))
            let imageTooLarge = try await live.upload(justOver, token: token)
            #expect(imageTooLarge.status == 413)
            #expect(try imageTooLarge.failure().message.contains("image"))
            var atLimit = MultipartForm(fields: CardFields(name: "At limit"))
            atLimit.addImage(TestImages.png(size: 64 * 1024))
            #expect(try await live.upload(atLimit, token: token).status == 201)

            // The connection is still usable afterwards, and nothing was created by the refusals.
            let page = try await live.send(.GET, "/cards?q=big", token: token).data(APICardPage.self)
            #expect(page.total == 0)
        }
    }

    @Test func imageReplacementsAreJudgedOnTheWireWhetherDeclaredOrStreamed() async throws {
        try await LiveServer.with(Self.smallLimits) { live in
            let token = try await live.login().accessToken
            func put(_ image: Data, ifMatch: String = #""1""#, declaredLength: Bool = true) async throws
                -> LiveServer.Reply
            {
                let body: HTTPClientRequest.Body =
                    declaredLength
                    ? .bytes(ByteBuffer(bytes: image)) : .stream(ChunkedBytes(data: image), length: .unknown)
                return try await live.send(
                    .PUT, "/card/\(Seeds.demoCardWithImage)/image", token: token,
                    headers: ["Content-Type": "image/png", "If-Match": ifMatch], body: body)
            }
            let huge = TestImages.png(size: 3 * 1024 * 1024)
            #expect(try await put(huge).status == 413)
            #expect(try await put(huge, declaredLength: false).status == 413)
            // A stale version is refused without waiting for the 60 KB body.
            let stale = try await put(TestImages.png(size: 60_000), ifMatch: #""7""#)
            #expect(stale.status == 412 && stale.headers["etag"] == #""1""#)
            // The server carries on, and a streamed image at the limit is stored whole.
            let atLimit = TestImages.png(size: 64 * 1024)
            let stored = try await put(atLimit, declaredLength: false)
            #expect(stored.status == 200)
            #expect(try stored.data(APICard.self).image == CardImageInfo(contentType: "image/png", size: atLimit.count))
            let fetched = try await live.send(.GET, "/card/\(Seeds.demoCardWithImage)/image", token: token)
            #expect(fetched.body == atLimit && fetched.headers["etag"] == #""2""#)
        }
    }

    @Test func notAnImageIsE09() async throws {
        try await LiveServer.with { live in
            let token = try await live.login().accessToken
            var gif = MultipartForm(fields: CardFields(name: "GIF"))
            gif.addImage(TestImages.gif, filename: "a.png", contentType: "image/png")
            let reply = try await live.upload(gif, token: token)
            #expect(reply.status == 415)
            #expect(try reply.failure().errorCode == .unsupportedMediaType)
            var text = MultipartForm(fields: CardFields(name: "Text"))
            text.addImage(Data("hello, I am not a picture at all".utf8))
            #expect(try await live.upload(text, token: token).status == 415)
            let json = try await live.send(
                .POST, "/card", token: token, headers: ["Content-Type": "application/json"],
                body: .bytes(ByteBuffer(string: #"{"name": "x"}"#)))
            #expect(json.status == 415)
        }
    }

    @Test func brokenFormsAreE01AndNeverCrash() async throws {
        try await LiveServer.with(Self.smallLimits) { live in
            let token = try await live.login().accessToken
            let form = MultipartForm(fields: CardFields(name: "Truncated", company: "Cut Off Ltd"))
            let body = form.body
            for cut in [body.count - 3, body.count / 2, 10, 0] {
                let reply = try await live.send(
                    .POST, "/card", token: token, headers: ["Content-Type": form.contentType],
                    body: .bytes(ByteBuffer(bytes: body.prefix(cut))))
                #expect(reply.status == 400, "cut at \(cut)")
                #expect(try reply.failure().errorCode == .badRequest)
            }
            let noBoundary = try await live.send(
                .POST, "/card", token: token, headers: ["Content-Type": "multipart/form-data"],
                body: .bytes(ByteBuffer(bytes: body)))
            #expect(noBoundary.status == 400)

            var bad = MultipartForm()
            bad.add("card.name", "")
            bad.add("card.nickname", "N")
            bad.add("other", "x")
            bad.add("card.defaultImage", "seven")
            bad.add("card.bio", String(repeating: "가", count: 2000))
            bad.add("card.email", "a@b.co")
            bad.add("card.email", "c@d.co")
            let reply = try await live.upload(bad, token: token)
            #expect(reply.status == 400)
            let fields = try #require(try reply.failure().fields)
            #expect(fields["name"] == "is required")
            #expect(fields["card.nickname"] == "is not a card field")
            #expect(fields["other"] == "is not a known part")
            #expect(fields["defaultImage"] != nil)
            #expect(fields["bio"] == "must be at most 500 characters")
            #expect(fields["email"] == "is given more than once")

            var invalidUTF8 = MultipartForm()
            invalidUTF8.parts.append(("card.name", nil, nil, Data([0xFF, 0xFE, 0x41])))
            #expect(
                try await live.upload(invalidUTF8, token: token).failure().fields?["name"] == "is not valid UTF-8 text")
            #expect(try await live.send(.GET, "/cards", token: token).data(APICardPage.self).total == 12)
        }
    }

    @Test func aMegabyteOfTextInEveryFieldIsRefusedPolitely() async throws {
        try await LiveServer.with { live in
            let token = try await live.login().accessToken
            var form = MultipartForm()
            let megabyte = String(repeating: "A\u{0}", count: 500_000)
            form.add("card.name", megabyte)
            form.add("card.title", megabyte)
            let reply = try await live.upload(form, token: token)
            #expect(reply.status == 400 || reply.status == 413)
            let put = try await live.send(
                .PUT, "/card/demo-01", token: token,
                headers: ["Content-Type": "application/json", "If-Match": #""1""#],
                body: .bytes(ByteBuffer(string: #"{"name": ""# + String(repeating: "\\u0000", count: 400_000) + #""}"#))
            )
            #expect(put.status == 413)
            let login = try await live.send(
                .POST, "/auth/login", headers: ["Content-Type": "application/json"],
                body: .bytes(
                    ByteBuffer(
                        string: #"{"email": "\u0000", "password": ""# + String(repeating: "p", count: 60_000) + #""}"#))
            )
            #expect(login.status == 401)
        }
    }

    @Test func latencyAndStatisticsWorkOnALiveServer() async throws {
        var configuration = MockServerConfiguration.testing
        configuration.latency = .milliseconds(300)
        try await LiveServer.with(configuration) { live in
            let grant = try await live.login()
            let clock = ContinuousClock()
            let start = clock.now
            _ = try await live.send(.GET, "/cards", token: grant.accessToken)
            // A lower bound only: the answer waited the latency (how much more is the machine's).
            #expect(clock.now - start >= .milliseconds(300))
            #expect(live.server.statistics.count("GET /cards", status: 200) == 1)
            #expect(live.server.statistics.count("POST /auth/login", status: 200) == 1)
        }
    }

    @Test func tokensExpireOnTheInjectedClock() async throws {
        let clock = ManualWallClock()
        try await LiveServer.with(.testing, clock: clock) { live in
            let grant = try await live.login()
            clock.advance(by: .seconds(360))
            let reply = try await live.send(.GET, "/cards", token: grant.accessToken)
            #expect(reply.status == 401)
            #expect(reply.headers["www-authenticate"] == #"Bearer error="invalid_token""#)
            #expect(try reply.failure().errorCode == .accessTokenExpired)
        }
    }
}
