import CardModels
import Foundation
import Networking
import Testing
import TokenStore

@testable import CardAPI

/// What the client library makes of a hostile or broken server's answers (issue 13); the
/// end-to-end tests against a real hostile server are in `CardWalletCLITests`.
@Suite struct HostileAnswerTests {
    /// Pages of `size` cards with new ids from `offset`, claiming `total`.
    static func pages(size: Int = 200, total: Int = 1_000_000_000, repeating: Bool = false)
        -> @Sendable (Request) -> StubResponse?
    {
        { request in
            guard request.path == "/v1/cards" else { return nil }
            let offset =
                repeating
                ? 0
                : Int(
                    request.url.query()?.split(separator: "&")
                        .first { $0.hasPrefix("offset=") }?.dropFirst(7) ?? "0") ?? 0
            let cards = (offset..<offset + size).map { CardSummary(id: "c\($0)", name: "Card", updatedAt: Date()) }
            return FakeCardServer.success(APICardPage(cards: cards, total: total, offset: offset, limit: 200))
        }
    }

    @Test func endlessPagesStopAtTheCap() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            await harness.fake.set(cardOverride: Self.pages())
            let client = harness.client()
            await #expect {
                _ = try await client.allCards(maximumCards: 1_000)
            } throws: { error in
                (error as? CardAPIError)?.description.contains("it goes on past 1,000 cards, the most cardwallet lists")
                    == true
            }
            #expect(CardAPIClient.maximumListedCards == 100_000)
            #expect(harness.requests(to: "/cards").count == 5)  // 5 pages of 200
        }
    }

    @Test func aPageThatAddsNothingEndsTheList() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            await harness.fake.set(cardOverride: Self.pages(repeating: true))
            await #expect {
                _ = try await harness.client().allCards()
            } throws: { error in
                (error as? CardAPIError)?.description.contains("holds only cards already listed") == true
            }
            #expect(harness.requests(to: "/cards").count == 2)
        }
    }

    @Test(arguments: [
        (
            CardSummary(id: "c1", name: String(repeating: "n", count: 65), updatedAt: Date()),
            "has a name longer than 64"
        ),
        (
            CardSummary(id: "c1", name: "A", title: String(repeating: "t", count: 101), updatedAt: Date()),
            "has a title longer than 100"
        ),
        (
            CardSummary(id: "c1", name: "A", email: String(repeating: "e", count: 255), updatedAt: Date()),
            "has a email longer than 254"
        ),
        (CardSummary(id: "a/b", name: "A", updatedAt: Date()), "cannot be a card id"),
        (CardSummary(id: "", name: "A", updatedAt: Date()), "cannot be a card id"),
        (
            CardSummary(id: "c1", name: "A", updatedAt: Date(), revision: CardRevision(rawValue: "\"etag\"")),
            "has a version that is not a whole number"
        ),
    ])
    func cardsBreakingTheLimitsAreRefused(card: CardSummary, problem: String) {
        let check = PageCheck(request: "GET /v1/cards")
        #expect {
            try check.check(APICardPage(cards: [card], total: 1, offset: 0, limit: 50), asked: 50)
        } throws: { error in
            (error as? CardAPIError)?.description.contains(problem) == true
        }
        let fine = CardSummary(
            id: "c-1_A", name: String(repeating: "가", count: 64), email: "a@b.c", updatedAt: Date())
        #expect(throws: Never.self) {
            try check.check(APICardPage(cards: [fine], total: 1, offset: 0, limit: 50), asked: 1)
        }
    }

    @Test func aPageHoldingMoreThanAskedIsRefused() async throws {
        try await Harness.with { harness in
            try await harness.seedTokens()
            await harness.fake.set(cardOverride: Self.pages(size: 51, total: 51))
            await #expect {
                _ = try await harness.client().listCards()
            } throws: { error in
                (error as? CardAPIError)?.description.contains("it holds 51 cards, more than the 50 asked for") == true
            }
        }
    }

    @Test(arguments: [
        ("cwa_abc.DEF-123_~+/", true), ("abc==", true), ("a", true), ("cwa_abc\n", false), ("cwa abc", false),
        ("", false), ("=abc", false), ("ab=c", false), ("tök", false), ("a\u{1B}[2J", false),
        (String(repeating: "a", count: 4096), true), (String(repeating: "a", count: 4097), false),
    ])
    func tokensMustBeToken68(token: String, valid: Bool) {
        #expect(TokenSyntax.isValid(token) == valid)
    }

    @Test func aLoginGrantWithABadTokenIsRefusedAndNothingIsStored() async throws {
        try await Harness.with { harness in
            let grant = TokenGrant(
                accessToken: "cwa_CANARY\n", refreshToken: "cwr_fine", accessTokenExpiresAt: Date() + 60,
                refreshTokenExpiresAt: Date() + 600, user: User(id: "u", email: "a@b.c", name: "A"))
            await harness.fake.set(cardOverride: nil)
            let stub = StubTransport { _ in FakeCardServer.success(grant) }
            let client = CardAPIClient(
                configuration: CardAPIConfiguration(server: Harness.server, allowsInsecureHTTP: true),
                tokenStore: harness.store, transport: stub)
            await #expect {
                try await client.login(email: "a@b.c", password: "pw-long-enough")
            } throws: { error in
                let text = (error as? CardAPIError)?.description ?? ""
                return text.contains("its access token cannot be sent back in an HTTP header")
                    && !text.contains("CANARY")
            }
            let stored: [TokenItem] = try harness.store.items()
            #expect(stored.isEmpty)
        }
    }

    @Test func retryAfterReadsSecondsAndHTTPDates() throws {
        func response(_ headers: Headers) -> Response {
            Response(
                statusCode: 429, headers: headers, body: Data(),
                request: Request(method: .get, url: URL(string: "http://127.0.0.1:1/v1/cards")!))
        }
        let now = try #require(HTTPDate.parse("Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(ServerError.retryAfter(in: response(["Retry-After": "7"])) == .seconds(7))
        #expect(
            ServerError.retryAfter(in: response(["Retry-After": "Sun, 06 Nov 1994 08:49:40 GMT"]), now: now)
                == .seconds(3))
        // Measured from the answer's own Date, whatever the local clock says.
        #expect(
            ServerError.retryAfter(
                in: response(["Retry-After": "Sun, 06 Nov 1994 08:50:37 GMT", "Date": "Sun, 06 Nov 1994 08:49:37 GMT"]),
                now: Date()) == .seconds(60))
        #expect(
            ServerError.retryAfter(in: response(["Retry-After": "Sunday, 06-Nov-94 08:49:47 GMT"]), now: now)
                == .seconds(10))
        #expect(
            ServerError.retryAfter(in: response(["Retry-After": "Sun Nov  6 08:49:38 1994"]), now: now) == .seconds(1))
        #expect(
            ServerError.retryAfter(in: response(["Retry-After": "Sun, 06 Nov 1994 08:00:00 GMT"]), now: now) == .zero)
        #expect(ServerError.retryAfter(in: response(["Retry-After": "soon"])) == nil)
        #expect(ServerError.retryAfter(in: response([:])) == nil)
    }

    @Test func anUnknownCodeIsShownEscaped() {
        let error = ServerError(
            statusCode: 500, code: ErrorCode(rawValue: "E99\u{1B}]0;title\u{07}\u{202E}"), message: "m",
            request: "GET /v1/cards")
        #expect(error.description.contains("error code E99^[]0;title^G\\u{202E}"), "\(error.description)")
        #expect(!error.description.unicodeScalars.contains("\u{1B}"))
    }

    @Test func anOversizedAnswerIsTheServersFaultNotTheNetworks() {
        let request = Request(method: .get, url: URL(string: "http://127.0.0.1:1/v1/cards")!)
        let failure = TransportFailure(
            kind: .responseTooLarge, request: request, reason: "too big", underlying: nil, statusCode: 200)
        let error = ResponseJudge(server: "http://127.0.0.1:1/v1").error(from: .transport(failure))
        #expect(!error.isNetworkFailure)
        #expect(error.description.contains("GET /v1/cards (status 200)"))
        #expect(error.description.contains("larger than cardwallet accepts"))
    }
}

/// The server address rules: no user info, plain http only to this computer.
@Suite struct ServerAddressTests {
    @Test(arguments: ["http://ada:S3cret@127.0.0.1:8080/v1", "https://S3cret@cards.example/v1", "http://:S3cret@h/v1"])
    func userInfoIsRefusedAndNeverEchoed(text: String) {
        #expect {
            _ = try CardAPIConfiguration.serverURL(text, allowingInsecureHTTP: true)
        } throws: { error in
            guard case .invalidServerURL(let shown) = error as? CardAPIError else { return false }
            let description = (error as? CardAPIError)?.description ?? ""
            return !shown.contains("S3cret") && !description.contains("S3cret")
                && description.contains("holds a user name or password")
        }
    }

    @Test(arguments: [
        ("localhost", true), ("LOCALHOST.", true), ("127.0.0.1", true), ("127.255.0.9", true), ("::1", true),
        ("[::1]", true), ("::ffff:127.0.0.1", true), ("0:0:0:0:0:0:0:1", true), ("128.0.0.1", false),
        ("192.0.2.7", false), ("cards.example", false), ("localhost.example", false), ("::2", false), ("", false),
    ])
    func loopbackHosts(host: String, loopback: Bool) {
        #expect(ServerAddress.isLoopback(host: host) == loopback)
    }

    @Test func plainHTTPToAnotherComputerNeedsPermission() throws {
        #expect(throws: CardAPIError.insecureServer("http://192.0.2.7:8080/v1")) {
            _ = try CardAPIConfiguration.serverURL("http://192.0.2.7:8080/v1")
        }
        #expect(
            try CardAPIConfiguration.serverURL("http://192.0.2.7:8080/v1", allowingInsecureHTTP: true).host()
                == "192.0.2.7")
        #expect(try CardAPIConfiguration.serverURL("https://192.0.2.7/v1").scheme == "https")
        #expect(try CardAPIConfiguration.serverURL("http://[::1]:9/v1").port == 9)
        #expect(CardAPIError.insecureServer("http://h/v1").description.contains("unencrypted"))
    }

    /// A configuration built by hand is held to the same rule before anything is sent.
    @Test func aClientRefusesPlainHTTPToAnotherComputerBeforeSending() async throws {
        try await Harness.with { harness in
            let client = CardAPIClient(
                configuration: CardAPIConfiguration(server: Harness.server), tokenStore: harness.store,
                transport: harness.stub)
            await #expect(throws: CardAPIError.insecureServer(Harness.server.absoluteString)) {
                try await client.login(email: "a@b.c", password: "secret-password")
            }
            await #expect(throws: CardAPIError.insecureServer(Harness.server.absoluteString)) {
                _ = try await client.listCards()
            }
            #expect(harness.stub.requests.isEmpty)
        }
    }
}
