import CardAPI
import CardMockServer
import CardModels
import Foundation
import Networking
import TestSupport
import Testing
import TokenStore

@testable import CardWalletLive
@testable import CardWalletUI

/// `NetworkEvent` → `LogLine`, and the whole chain (client → plugin → lines → pane and file)
/// with the real tokens as canaries.
struct LogLineTests {
    static let time = Date(timeIntervalSince1970: 1_700_000_000)

    static func event(
        _ kind: NetworkEvent.Kind, _ method: Networking.HTTPMethod = "GET", path: String = "/v1/cards",
        query: String = "", status: Int? = nil, tag: String? = nil, attempt: Int = 1, error: String? = nil,
        headers: Headers = Headers(), bytes: Int64? = nil, delay: Duration? = nil
    ) -> NetworkEvent {
        NetworkEvent(
            requestID: Networking.RequestID(rawValue: 7), kind: kind, timestamp: time, attempt: attempt, method: method,
            url: "http://127.0.0.1:8080\(path)\(query)", path: path, statusCode: status,
            duration: kind == .received || kind == .failed ? .milliseconds(12) : nil, byteCount: bytes,
            headers: headers, errorDescription: error, tag: tag, retryDelay: delay)
    }

    @Test("A sent request is a request line with its path and query; created events are skipped")
    func requestLine() throws {
        let maker = LogLineMaker()
        #expect(maker.line(for: Self.event(.created)) == nil)
        let line = try #require(
            maker.line(for: Self.event(.sent, query: "?offset=0&limit=100", headers: ["Authorization": "<private>"])))
        #expect(line.kind == .request)
        #expect(line.method == "GET")
        #expect(line.path == "/v1/cards?offset=0&limit=100")
        #expect(line.time == Self.time)
        #expect(line.text == "")
        #expect(line.detail.contains("  Authorization: <private>"))
        #expect(line.detail.first?.hasPrefix("URL: http://127.0.0.1:8080/v1/cards") == true)
        let retry = try #require(maker.line(for: Self.event(.sent, attempt: 2)))
        #expect(retry.text == "attempt 2")
        #expect(retry.id > line.id)
    }

    @Test(
        "The query shown is URLComponents' percent-encoded query",
        arguments: [
            "http://127.0.0.1:8080/v1/cards", "http://h/v1/cards?offset=0&limit=100", "http://h/p?", "http://h/p?#",
            "http://h/p?a=1#frag", "http://h/p#frag?not=query", "http://h/p?a=%20b&c=%3F?d",
            "http://user@h:8080/p/q?x=y&z#a#b", "https://h/caf%C3%A9?na%C3%AFve=1", "http://h/p??double",
        ])
    func queryMatchesURLComponents(url: String) throws {
        let expected = try #require(URLComponents(string: url)).percentEncodedQuery ?? ""
        #expect(LogLineMaker.query(of: url) == expected[...])
    }

    @Test("A value the plugin hid reads <private> in the path, not percent-encoded")
    func redactedQueryIsReadable() throws {
        let line = try #require(LogLineMaker().line(for: Self.event(.sent, query: "?token=<private>&limit=5")))
        #expect(line.path == "/v1/cards?token=<private>&limit=5")
    }

    @Test("A response line keeps status, code, time and size; failures are marked")
    func responseLines() throws {
        let maker = LogLineMaker()
        let ok = try #require(maker.line(for: Self.event(.received, status: 200, bytes: 4_200)))
        #expect(ok.kind == .response)
        #expect(ok.status == 200)
        #expect(ok.duration == .milliseconds(12))
        #expect(ok.bytes == 4_200)
        #expect(!ok.isFailure)
        #expect(ok.errorCode == nil)

        let notFound = try #require(maker.line(for: Self.event(.received, path: "/v1/card/x", status: 404, tag: "E05")))
        #expect(notFound.isFailure)
        #expect(notFound.errorCode == "E05")
        #expect(notFound.text == "no such card")

        let expired = try #require(
            maker.line(for: Self.event(.received, "POST", path: "/v1/auth/refresh", status: 401, tag: "E06")))
        #expect(expired.errorCode == "E06")
        #expect(expired.isFailure)
        #expect(expired.text == "session over: log in again")
        #expect(LogFormat.summary(expired, utcOffsetSeconds: 0).contains("POST /v1/auth/refresh 401 E06"))
    }

    @Test("Refreshes, logins and logouts are labelled")
    func authLabels() throws {
        let maker = LogLineMaker()
        #expect(
            maker.line(for: Self.event(.sent, "POST", path: "/v1/auth/refresh"))?.text == "refreshing the access token")
        #expect(
            maker.line(for: Self.event(.received, "POST", path: "/v1/auth/refresh", status: 200))?.text
                == "access token refreshed")
        #expect(maker.line(for: Self.event(.sent, "POST", path: "/v1/auth/login"))?.text == "logging in")
        #expect(
            maker.line(for: Self.event(.received, "POST", path: "/v1/auth/login", status: 200))?.text == "logged in")
        #expect(
            maker.line(for: Self.event(.received, "POST", path: "/v1/auth/login", status: 401, tag: "E02"))?.text
                == "wrong email or password")
        #expect(
            maker.line(for: Self.event(.received, "POST", path: "/v1/auth/logout", status: 200))?.text == "logged out")
    }

    @Test("Failures and retries; control characters from outside are escaped")
    func failuresAndRetries() throws {
        let maker = LogLineMaker()
        let failed = try #require(maker.line(for: Self.event(.failed, error: "Could not connect\u{1B}[2J: refused")))
        #expect(failed.kind == .failure)
        #expect(failed.isFailure)
        #expect(failed.text == "Could not connect^[[2J: refused")

        let retry = try #require(maker.line(for: Self.event(.retrying, status: 401, attempt: 1, delay: .zero)))
        #expect(retry.kind == .session)
        #expect(retry.text == "retrying after 401: attempt 2 now")
        let later = try #require(maker.line(for: Self.event(.retrying, status: 429, delay: .seconds(2))))
        #expect(later.text == "retrying after 429: attempt 2 in 2.0 s")

        let hostile = try #require(maker.line(for: Self.event(.sent, path: "/v1/card/\u{202E}x\u{7}")))
        #expect(hostile.path == "/v1/card/\\u{202E}x^G")
        #expect(maker.note("server \u{1B}]52;c;x\u{7}").text == "server ^[]52;c;x^G")
    }

    @Test("Through the real chain no token or password reaches a line or the log file", .timeLimit(.minutes(2)))
    func canaryTokens() async throws {
        try await GlueHarness.with { harness in
            let directory = StateDirectory(path: harness.folder.path("state"))
            let file = try LogFileWriter(directory: directory)
            harness.sink.writeLines(to: file)
            let performer = harness.performer()

            try await harness.logIn(performer)
            var secrets = Set<String>([GlueHarness.password])
            for item in try harness.store.items() { secrets.formUnion([item.accessToken, item.refreshToken]) }
            _ = await performer.perform(.loadCards(offset: 0, limit: 100, query: nil))
            // Expired access tokens: the next call refreshes (a refresh token on the wire).
            try await harness.server.expireAccessTokens(email: GlueHarness.email)
            _ = await performer.perform(.loadCard(id: "demo-01"))
            for item in try harness.store.items() { secrets.formUnion([item.accessToken, item.refreshToken]) }
            // Then E06: the refresh token is revoked and the access token expired.
            try await harness.server.revokeRefreshTokens(email: GlueHarness.email)
            try await harness.server.expireAccessTokens(email: GlueHarness.email)
            _ = await performer.perform(.loadCards(offset: 0, limit: 100, query: nil))
            #expect(secrets.count == 5)

            // Everything reached the one channel before the calls returned.
            let all = harness.actions.compactMap(\.line)
            #expect(all.contains { $0.errorCode == "E06" })
            #expect(all.contains { $0.text.contains("session expired") })
            let texts = all.map { LogFormat.summary($0, utcOffsetSeconds: 0) } + all.flatMap(\.detail)
            for secret in secrets {
                #expect(!texts.contains { $0.contains(secret) }, "a secret reached the pane")
            }
            #expect(texts.contains { $0.contains("Authorization: <private>") })
            #expect(
                texts.contains { $0.contains("POST /v1/auth/refresh 200") && $0.contains("access token refreshed") })
            #expect(texts.contains { $0.contains("GET /v1/cards?") })

            file.close()
            let written = try String(contentsOfFile: file.path, encoding: .utf8)
            for secret in secrets { #expect(!written.contains(secret), "a secret reached the log file") }
            #expect(written.contains("→ POST /v1/auth/login"))
            #expect(written.contains("POST /v1/auth/refresh 401 E06"))
            #expect(written.contains("session expired"))
            #expect(written.split(separator: "\n").count >= all.count)
        }
    }
}

extension AppAction {
    /// The log line of a `.log` action.
    var line: LogLine? {
        if case .log(let line) = self { return line }
        return nil
    }
}
