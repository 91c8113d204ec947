import CardAPI
import CardModels
import Foundation
import Testing
import TokenStore

@testable import CardWalletLive
@testable import CardWalletUI

/// `CardAPIError` → `UIFailure`: the error code decides the kind, for every kind the UI knows.
struct ErrorMappingTests {
    static func server(_ code: ErrorCode?, status: Int, fields: [String: String] = [:], retryAfter: Duration? = nil)
        -> CardAPIError
    {
        .server(
            ServerError(
                statusCode: status, code: code, message: "server text", fields: fields, retryAfter: retryAfter,
                request: "GET /v1/cards"))
    }

    static let card = Card(
        id: "demo-01", fields: CardFields(name: "Ada"), createdAt: Date(timeIntervalSince1970: 0),
        updatedAt: Date(timeIntervalSince1970: 0), revision: CardRevision(3))

    static let cases: [(CardAPIError, UIFailure.Kind)] = [
        (
            server(.badRequest, status: 400, fields: ["email": "is not an email"]),
            .validation(fields: ["email": "is not an email"])
        ),
        (server(.loginFailed, status: 401), .loginFailed),
        (server(.accessTokenInvalid, status: 401), .mustLogIn),
        (server(.accessTokenExpired, status: 401), .mustLogIn),
        (server(.refreshTokenExpired, status: 401), .mustLogIn),
        (.sessionExpired(server: "http://a.test/v1", account: "demo@cardwallet.dev"), .mustLogIn),
        (.notLoggedIn(server: "http://a.test/v1", account: nil), .mustLogIn),
        (.multipleAccounts(server: "http://a.test/v1", accounts: ["a@x.dev", "b@x.dev"]), .mustLogIn),
        (server(.cardNotFound, status: 404), .notFound),
        (.invalidCardID("../cards"), .notFound),
        (server(.versionConflict, status: 412), .conflict(current: nil)),
        (server(.payloadTooLarge, status: 413), .tooLarge),
        // Checked before sending: never a server code.
        (
            .invalidImage(path: "/big.png", problem: .tooLarge(bytes: 3_000_000, limit: 2_097_152)),
            .localImage(problem: "it is 2.9 MiB, more than the 2.0 MiB a card image may be")
        ),
        (server(.unsupportedMediaType, status: 415), .unsupportedMedia),
        (
            .invalidImage(path: "/a.txt", problem: .notPNGOrJPEG),
            .localImage(problem: "it is not a PNG or JPEG image (its first bytes say so, whatever its name)")
        ),
        (.invalidImage(path: "/none.png", problem: .missing), .localImage(problem: "there is no such file")),
        (server(.tooManyRequests, status: 429, retryAfter: .seconds(42)), .rateLimited(retryAfterSeconds: 42)),
        (server(.tooManyRequests, status: 429), .rateLimited(retryAfterSeconds: nil)),
        (
            .cannotConnect(server: "http://127.0.0.1:1/v1", endpoint: "127.0.0.1:1", reason: "connection refused"),
            .cannotConnect(url: "http://127.0.0.1:1/v1")
        ),
        // No such endpoint is the address's fault, not the fields': the message says so.
        (server(.badRequest, status: 404), .wrongAddress),
        (server(.internalError, status: 503, retryAfter: .seconds(1)), .server(status: 503)),
        (server(ErrorCode(rawValue: "E42"), status: 418), .server(status: 418)),
        (server(nil, status: 502), .server(status: 502)),
        (
            .unexpectedResponse(
                UnexpectedResponse(statusCode: 200, request: "GET /v1/cards", expected: "CardPage", detail: "")),
            .server(status: 200)
        ),
        (.timedOut(url: "http://a.test/v1/cards", reason: "read timeout"), .server(status: nil)),
        (.connectionFailed(url: "http://a.test/v1/cards", reason: "connection reset"), .server(status: nil)),
        (.excessiveRefresh(count: 6, window: .seconds(30)), .other),
        (.tokenStore(.noStateLocation), .other),
        (.invalidServerURL("ftp://x"), .other),
        (.insecureServer("http://192.0.2.7/v1"), .other),
        (.invalidRequest("the upload changed size"), .other),
        (.cancelled, .other),
    ]

    @Test("Each CardAPI error maps to its UIFailure kind", arguments: cases.indices)
    func kinds(index: Int) {
        let (error, kind) = Self.cases[index]
        let failure = UIFailure(error)
        #expect(failure.kind == kind, "\(error)")
        #expect(!failure.message.isEmpty)
    }

    @Test("Every UIFailure kind is reached by some error")
    func everyKindIsCovered() {
        let names = Set(Self.cases.map { Self.name(of: $0.1) })
        #expect(
            names == [
                "validation", "loginFailed", "mustLogIn", "notFound", "conflict", "tooLarge",
                "unsupportedMedia", "rateLimited", "cannotConnect", "wrongAddress", "localImage", "server", "other",
            ])
    }

    @Test("A conflict carries the card it was given")
    func conflictCarriesCard() {
        let failure = UIFailure(Self.server(.versionConflict, status: 412), current: Self.card)
        #expect(failure.kind == .conflict(current: Self.card))
        // The card is only for conflicts.
        #expect(UIFailure(Self.server(.cardNotFound, status: 404), current: Self.card).kind == .notFound)
    }

    @Test("Messages are CardAPI's sentences; cannot-connect leaves the URL to the UI")
    func messages() {
        let refused = UIFailure(
            CardAPIError.cannotConnect(
                server: "http://127.0.0.1:1/v1", endpoint: "127.0.0.1:1", reason: "connection refused"))
        #expect(refused.message == "connection refused; is the server running?")
        let unknownHost = UIFailure(
            CardAPIError.cannotConnect(
                server: "http://nowhere.test/v1", endpoint: "nowhere.test:80", reason: "unknown host\u{1B}[2J"))
        #expect(unknownHost.message == "unknown host^[[2J; check the address and the network")
        let e02 = UIFailure(Self.server(.loginFailed, status: 401))
        #expect(e02.message.contains("E02"))
        #expect(UIFailure(CardAPIError.invalidServerURL("ftp://x")).message.contains("not a server address"))
        let noSuchEndpoint = UIFailure(Self.server(.badRequest, status: 404))
        #expect(noSuchEndpoint.message.contains("no such endpoint as GET /v1/cards (404 E01)"))
        #expect(noSuchEndpoint.message.contains("usually ends in /v1, e.g. http://127.0.0.1:8080/v1"))
    }

    private static func name(of kind: UIFailure.Kind) -> String {
        switch kind {
        case .validation: "validation"
        case .loginFailed: "loginFailed"
        case .mustLogIn: "mustLogIn"
        case .notFound: "notFound"
        case .conflict: "conflict"
        case .tooLarge: "tooLarge"
        case .unsupportedMedia: "unsupportedMedia"
        case .rateLimited: "rateLimited"
        case .cannotConnect: "cannotConnect"
        case .wrongAddress: "wrongAddress"
        case .localImage: "localImage"
        case .server: "server"
        case .cancelled: "cancelled"
        case .fileExists: "fileExists"
        case .other: "other"
        }
    }
}

/// `SessionState` → `SessionStatus`, and the session lines of the log pane.
struct SessionMappingTests {
    static let account = SessionAccount(server: "http://a.test/v1", email: "demo@cardwallet.dev", name: "Demo")

    @Test("Each session state maps to the status bar's status")
    func statuses() {
        #expect(SessionStatus(.loggedOut(server: "http://a.test/v1")) == .loggedOut)
        #expect(
            SessionStatus(.loggedIn(Self.account))
                == .loggedIn(email: "demo@cardwallet.dev", server: "http://a.test/v1"))
        #expect(
            SessionStatus(.refreshing(Self.account))
                == .refreshing(email: "demo@cardwallet.dev", server: "http://a.test/v1"))
        #expect(
            SessionStatus(.expired(server: "http://a.test/v1", account: Self.account))
                == .expired(email: "demo@cardwallet.dev", server: "http://a.test/v1"))
        #expect(
            SessionStatus(.expired(server: "http://a.test/v1", account: nil))
                == .expired(email: nil, server: "http://a.test/v1"))
    }

    @Test("Refreshes and E06 get a log line; logins and logouts show as exchanges")
    func sessionLines() {
        let maker = LogLineMaker(now: { Date(timeIntervalSince1970: 1_000) })
        let time = Date(timeIntervalSince1970: 2_000)
        let refreshing = maker.line(for: .refreshing(Self.account), at: time)
        #expect(refreshing?.text == "refreshing the access token of demo@cardwallet.dev")
        #expect(refreshing?.kind == .session)
        #expect(refreshing?.time == time)
        let expired = maker.line(for: .expired(server: "http://a.test/v1", account: Self.account), at: time)
        #expect(expired?.text == "session expired for demo@cardwallet.dev: log in again")
        #expect(expired?.isFailure == true)
        let anonymous = maker.line(for: .expired(server: "http://a.test/v1", account: nil), at: time)
        #expect(anonymous?.text == "session expired at http://a.test/v1: log in again")
        #expect(maker.line(for: .loggedIn(Self.account), at: time) == nil)
        #expect(maker.line(for: .loggedOut(server: "http://a.test/v1"), at: time) == nil)
    }

    @Test("The sink sends a session change's line before the status it explains, in the order written")
    func sessionFeed() {
        let inbox = ActionInbox()
        let sink = LiveEventSink(inbox: inbox)
        sink.restored(Self.account)
        sink.sessionChanged(.refreshing(Self.account))
        sink.sessionChanged(.loggedIn(Self.account))
        sink.sessionChanged(.expired(server: "http://a.test/v1", account: Self.account))
        let actions = inbox.drain()
        let shape = actions.map { action -> String in
            switch action {
            case .log(let line): "log: \(line.text)"
            case .session(let status): "session: \(status)"
            default: "other"
            }
        }
        #expect(
            shape == [
                "log: restored the session of demo@cardwallet.dev at http://a.test/v1",
                "log: refreshing the access token of demo@cardwallet.dev",
                "session: refreshing(email: \"demo@cardwallet.dev\", server: \"http://a.test/v1\")",
                "session: loggedIn(email: \"demo@cardwallet.dev\", server: \"http://a.test/v1\")",
                "log: session expired for demo@cardwallet.dev: log in again",
                "session: expired(email: Optional(\"demo@cardwallet.dev\"), server: Optional(\"http://a.test/v1\"))",
            ])
        // Ids increase in the order the lines were made.
        let ids = actions.compactMap { if case .log(let line) = $0 { line.id } else { nil } }
        #expect(ids == ids.sorted())
        #expect(inbox.isEmpty)
    }
}
