import CardBackend
import CardDAV
import Foundation
import NIOHTTP1
import Networking
import OAuthTestSupport
import SessionCore
import TestSupport
import Testing
import TokenStore

@testable import OAuth

/// The OAuth pieces on their own: PKCE, where metadata is, reading token answers and
/// challenges, the loopback listener's pages, what the log hides, Google's discovery shape.
@Suite struct OAuthUnitTests {
    @Test func pkceMatchesRFC7636sExampleAndFreshValuesDiffer() {
        // RFC 7636, Appendix B.
        let pkce = PKCE(verifier: "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk", state: "s")
        #expect(pkce.challenge == "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM")
        let one = PKCE()
        let two = PKCE()
        #expect(one.verifier.count == 43)
        #expect(one.verifier != two.verifier)
        #expect(one.state != two.state)
        #expect(one.verifier.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" })
    }

    @Test func metadataIsLookedForAtRFC8414sAddressThenOpenIDConnects() throws {
        let addresses = AuthorizationServerMetadata.addresses(
            for: try #require(URL(string: "https://id.example.com/realms/a/")))
        #expect(
            addresses.map(\.absoluteString) == [
                "https://id.example.com/.well-known/oauth-authorization-server/realms/a",
                "https://id.example.com/realms/a/.well-known/openid-configuration",
            ])
        let root = AuthorizationServerMetadata.addresses(for: try #require(URL(string: "https://accounts.google.com")))
        #expect(root.last?.absoluteString == "https://accounts.google.com/.well-known/openid-configuration")
    }

    @Test func issuersAreNamedByPresetOrByASafeAddress() throws {
        #expect(try OAuthIssuer.named("google") == .google)
        #expect(
            try OAuthIssuer.named(" Google ").cardDAVServer?.absoluteString
                == "https://www.googleapis.com/.well-known/carddav")
        #expect(try OAuthIssuer.named("https://id.example.com/").url.absoluteString == "https://id.example.com")
        #expect(try OAuthIssuer.named("http://127.0.0.1:9000").url.port == 9000)
        #expect(throws: OAuthError.insecureServer("http://id.example.com")) {
            try OAuthIssuer.named("http://id.example.com")
        }
        #expect(throws: OAuthError.invalidIssuer("ftp://id.example.com")) {
            try OAuthIssuer.named("ftp://id.example.com")
        }
        #expect(throws: OAuthError.invalidIssuer("https://u:p@id.example.com")) {
            try OAuthIssuer.named("https://u:p@id.example.com")
        }
    }

    @Test func bearerChallengesSayWhetherTheTokenWasRejected() throws {
        #expect(
            BearerChallenge(["Bearer realm=\"x\", error=\"invalid_token\", error_description=\"expired\""]).error
                == "invalid_token")
        #expect(BearerChallenge(["Basic realm=\"x\""]).isBearer == false)
        #expect(
            BearerChallenge(["Basic realm=\"x\"", "Bearer error=insufficient_scope"]).error == "insufficient_scope")
        let exchange = Self.exchange()
        let url = try #require(URL(string: "https://dav.example.com/book/"))
        func answer(_ status: Int, _ challenge: String?) -> Response {
            var headers = Headers()
            if let challenge { headers["WWW-Authenticate"] = challenge }
            return Response(statusCode: status, headers: headers, request: Request(method: .get, url: url))
        }
        #expect(exchange.verdict(on: answer(401, "Bearer error=\"invalid_token\"")) == .accessRejected)
        #expect(exchange.verdict(on: answer(401, nil)) == .accessRejected)
        #expect(exchange.verdict(on: answer(401, "Bearer error=\"insufficient_scope\"")) == .none)
        #expect(exchange.verdict(on: answer(403, nil)) == .none)
        #expect(exchange.verdict(on: answer(200, nil)) == .none)
        #expect(exchange.endsSession(.grantRefused(description: nil)))
        #expect(!exchange.endsSession(.tokenServerFailure(status: 500, detail: "")))
    }

    @Test func tokenAnswersAreCheckedAndTheirErrorsScrubbed() throws {
        let url = try #require(URL(string: "https://id.example.com/token"))
        func read(_ status: Int, _ json: String, secrets: [String] = []) throws(OAuthError) -> OAuthTokenAnswer {
            try OAuthTokenAnswer.read(
                Response(statusCode: status, body: Data(json.utf8), request: Request(method: .post, url: url)),
                secrets: secrets)
        }
        let good = try read(
            200, #"{"access_token":"abc.DEF-123","token_type":"bearer","expires_in":"3600","refresh_token":"r1"}"#)
        #expect(good.expiresIn == 3600)
        #expect(good.refreshToken == "r1")
        #expect(throws: OAuthError.grantRefused(description: "refresh token <private> is revoked")) {
            try read(
                400, #"{"error":"invalid_grant","error_description":"refresh token r-secret-token-9 is revoked"}"#,
                secrets: ["r-secret-token-9"])
        }
        #expect(throws: OAuthError.self) { try read(200, #"{"access_token":"a\nb","token_type":"Bearer"}"#) }
        #expect(throws: OAuthError.badTokenAnswer("its token_type is “mac”, not Bearer")) {
            try read(200, #"{"access_token":"abc","token_type":"mac"}"#)
        }
        do {
            _ = try read(503, "<html>down</html>")
            Issue.record("a 503 was read as tokens")
        } catch {
            #expect(error == .tokenServerFailure(status: 503, detail: "<html>down</html>"))
        }
    }

    @Test func idTokensNameTheUserAndMustBeForThisLogin() throws {
        func token(_ claims: [String: Any]) throws -> String {
            let payload = PKCE.base64URL(try JSONSerialization.data(withJSONObject: claims))
            return "e30.\(payload).c2ln"
        }
        let claims = try IDTokenClaims.read(
            token(["iss": "https://id.example.com/", "aud": ["cw"], "email": "ann@example.com", "sub": "7"]),
            issuer: "https://id.example.com", clientID: "cw")
        #expect(claims?.user == "ann@example.com")
        #expect(throws: OAuthError.self) {
            try IDTokenClaims.read(
                token(["iss": "https://evil.example", "aud": "cw"]), issuer: "https://id.example.com", clientID: "cw")
        }
        #expect(throws: OAuthError.self) {
            try IDTokenClaims.read(
                token(["iss": "https://id.example.com", "aud": "other"]), issuer: "https://id.example.com",
                clientID: "cw")
        }
        #expect(try IDTokenClaims.read("not a jwt", issuer: "x", clientID: "y") == nil)
    }

    @Test func theLogHidesTheCodeAndTheVerifierButNotTheCardAPIsErrorCodes() throws {
        let url = try #require(URL(string: "http://127.0.0.1/cb?code=abcdef123456&state=s1&code_verifier=v123456789"))
        let shown = Redaction.default.redact(url: url)
        #expect(shown == "http://127.0.0.1/cb?code=<private>&state=s1&code_verifier=<private>")
        #expect(Redaction.default.isSensitive(name: "code") == false)
        #expect(Redaction.default.isSensitive(formName: "CODE"))
        #expect(Redaction.default.isSensitive(name: "client_secret"))
    }

    @Test func theLoopbackListenerAnswersOnlyTheRedirectAndDeliversItOnce() async throws {
        let receiver = try await LoopbackReceiver.start(expectedState: "s1")
        defer { receiver.close() }
        #expect(receiver.redirectURI.host == "127.0.0.1")
        let favicon = try await TestHTTP.request(receiver.redirectURI.appending(path: "favicon.ico"))
        #expect(favicon.status == 404)
        let landed = try await TestHTTP.request(
            try #require(URL(string: receiver.redirectURI.absoluteString + "?state=s1&code=c%3C1")))
        #expect(landed.status == 200)
        let query = try await receiver.answer(within: .seconds(10))
        #expect(query == ["state": "s1", "code": "c<1"])
        // A second redirect (a replay, a forgery) changes nothing.
        _ = try? await TestHTTP.request(
            try #require(URL(string: receiver.redirectURI.absoluteString + "?state=x&code=y")))
        let pages = LoopbackReceiver.page(
            for: .init(version: .http1_1, method: .GET, uri: "/?state=zz&error=access_denied"), expectedState: "s1")
        #expect(pages.0 == .badRequest)
        // The query is form-encoded (RFC 6749 §4.1.2): `+` is a space, `%2B` a plus.
        let denied = LoopbackReceiver.page(
            for: .init(
                version: .http1_1, method: .GET,
                uri: "/?state=s1&error=access_denied&error_description=The+user+said+no%2Bthanks"),
            expectedState: "s1")
        #expect(denied.2?["error_description"] == "The user said no+thanks")
    }

    @Test func aListenerThatHearsNothingEndsAtItsDeadline() async throws {
        let receiver = try await LoopbackReceiver.start(expectedState: "s")
        defer { receiver.close() }
        await #expect(throws: OAuthError.redirectTimedOut(after: .milliseconds(200))) {
            _ = try await receiver.answer(within: .milliseconds(200))
        }
    }

    @Test func googlesDiscoveryShapeEndsOnTheRedirectTarget() throws {
        let start = try #require(URL(string: "https://www.googleapis.com/.well-known/carddav"))
        let target = try #require(
            URL(string: "https://www.googleapis.com/carddav/v1/principals/ann@example.com/lists/default/"))
        let principal = try #require(URL(string: "https://www.googleapis.com/carddav/v1/principals/ann@example.com/"))
        var machine = DiscoveryMachine(start: start)
        #expect(machine.begin() == .inspect(start))
        #expect(machine.receive(.redirected(to: target)) == .inspect(target))
        #expect(machine.receive(.inspected(.init(principal: principal))) == .inspect(principal))
        guard case .finish(let account) = machine.receive(.missing(status: 404)) else {
            Issue.record("discovery did not finish on the redirect target")
            return
        }
        #expect(account.selected?.url == target)
        #expect(account.books.count == 1)

        // A well-known redirect to the root that answers nothing useful is no book.
        let root = try #require(URL(string: "https://dav.example.com/"))
        var other = DiscoveryMachine(start: root)
        _ = other.begin()
        let wellKnown = try #require(URL(string: "https://dav.example.com/.well-known/carddav"))
        #expect(other.receive(.missing(status: 404)) == .inspect(wellKnown))
        #expect(other.receive(.redirected(to: root)) == .fail(.notCardDAV(server: "https://dav.example.com")))
    }

    @Test func anAccountsOAuthSettingsReadBackAndOlderRecordsReadWithout() async throws {
        let folder = try TemporaryFolder("oauth-record")
        defer { folder.remove() }
        let store = TokenStore(path: folder.path("tokens.json"))
        let record = AccountRecord(
            name: "g", kind: "cardDAV", server: "https://www.googleapis.com/.well-known/carddav",
            user: "ann@example.com",
            secret: .keyring,
            oauth: AccountOAuth(
                issuer: "google", clientID: "id.apps.googleusercontent.com",
                tokenEndpoint: "https://oauth2.googleapis.com/token", basicClientAuthentication: true,
                scope: "openid email"))
        try await store.saveAccount(record, makeDefault: true)
        #expect(try store.accountRecord(named: "g") == record)
        let text = try String(contentsOfFile: folder.path("tokens.json"), encoding: .utf8)
        #expect(text.contains("\"clientID\" : \"id.apps.googleusercontent.com\""))
        let plain = AccountRecord(name: "p", kind: "cardDAV", server: "https://dav.example.com", user: "bob")
        let decoded = try JSONDecoder().decode(AccountRecord.self, from: try JSONEncoder().encode(plain))
        #expect(decoded.oauth == nil)
    }

    static func exchange() -> OAuthTokenExchange {
        OAuthTokenExchange(
            tokenEndpoint: URL(string: "https://id.example.com/token")!, clientID: "cw",
            basicClientAuthentication: true,
            transport: StubTransport { _ in StubResponse(statusCode: 500) }, plugins: [], timeout: .seconds(5),
            allowsInsecureHTTP: false, readSecret: { nil }, keepSecret: { _ in })
    }
}
