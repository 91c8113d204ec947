import CardModels
import Foundation
import Networking
import Testing
import TokenStore

@testable import CardAPI

/// Envelope decoding and the one place that turns failures into `CardAPIError`s.
@Suite struct ResponseJudgeTests {
    let judge = ResponseJudge(server: "http://cards.test/v1")

    func response(
        status: Int, body: String, headers: Headers = ["Content-Type": "application/json"],
        authorization: String? = nil
    ) -> Response {
        var request = Request(method: .get, url: URL(string: "http://cards.test/v1/card/abc")!)
        if let authorization { request.headers["Authorization"] = authorization }
        return Response(statusCode: status, headers: headers, body: Data(body.utf8), request: request)
    }

    func failure(_ code: ErrorCode, status: Int, message: String = "Something.", fields: [String: String]? = nil)
        -> Response
    {
        let envelope = ErrorEnvelope(status: status, errorCode: code, message: message, fields: fields)
        let body = String(decoding: (try? CardWalletJSON.encoder().encode(envelope)) ?? Data(), as: UTF8.self)
        return response(status: status, body: body, headers: ["Content-Type": "application/json", "Retry-After": "3"])
    }

    @Test func aSuccessEnvelopeGivesItsData() throws {
        let card = FakeCardServer.card(id: "abc", at: Date(timeIntervalSince1970: 1_800_000_000))
        let body = String(decoding: try CardWalletJSON.encoder().encode(SuccessEnvelope(data: card)), as: UTF8.self)
        #expect(try judge.data(APICard.self, from: response(status: 200, body: body)) == card)
    }

    @Test(arguments: ErrorCode.allKnown)
    func everyKnownCodeKeepsStatusCodeMessageFieldsAndRetryAfter(code: ErrorCode) {
        let status = code.httpStatus ?? 400
        let fields = code == .badRequest ? ["name": "is required"] : nil
        let error = judge.error(
            from: .unacceptableStatus(failure(code, status: status, message: "Said so.", fields: fields)))
        guard case .server(let server) = error else {
            Issue.record("expected a server error, got \(error)")
            return
        }
        #expect(server.statusCode == status)
        #expect(server.code == code)
        #expect(server.message == "Said so.")
        #expect(server.fields == (fields ?? [:]))
        #expect(server.retryAfter == .seconds(3))
        #expect(server.request == "GET /v1/card/abc")
        #expect(error.statusCode == status && error.errorCode == code)
        #expect(error.description.contains(code.rawValue))
        #expect(error.description.contains("Said so."))
        #expect(error.description.hasSuffix(".") || error.description.hasSuffix("”"))
    }

    @Test func validationProblemsAreListedByField() {
        let error = judge.error(
            from: .unacceptableStatus(
                failure(
                    .badRequest, status: 400, message: "Invalid.",
                    fields: ["name": "is required", "email": "is not an email"])))
        #expect(error.fieldProblems == ["name": "is required", "email": "is not an email"])
        #expect(
            error.description
                == "The server refused GET /v1/card/abc as invalid (E01). Problems: email is not an email; name is required. "
                + "The server said: “Invalid.”")
    }

    /// 404 E01 is "no such endpoint": the address is not the API's base URL, and the text
    /// says what a base URL usually looks like. 404 E01 with field problems, or 400 E01, is not.
    @Test func noSuchEndpointSaysTheBaseURLUsuallyEndsInV1() {
        let error = judge.error(
            from: .unacceptableStatus(failure(.badRequest, status: 404, message: "There is no such endpoint.")))
        #expect(error.isUnknownEndpoint)
        #expect(
            error.description
                == "The server has no such endpoint as GET /v1/card/abc (404 E01), so the server address is probably "
                + "not the card API's base URL: it usually ends in /v1, e.g. http://127.0.0.1:8080/v1. "
                + "The server said: “There is no such endpoint.”")

        let noSuchUser = judge.error(
            from: .unacceptableStatus(failure(.badRequest, status: 404, fields: ["email": "is no user's"])))
        #expect(!noSuchUser.isUnknownEndpoint)
        #expect(!judge.error(from: .unacceptableStatus(failure(.badRequest, status: 400))).isUnknownEndpoint)
        #expect(!judge.error(from: .unacceptableStatus(failure(.cardNotFound, status: 404))).isUnknownEndpoint)
    }

    @Test func anUnknownCodeIsKeptAndSaidToBeUnknown() {
        let error = judge.error(from: .unacceptableStatus(failure(ErrorCode(rawValue: "E42"), status: 418)))
        #expect(error.errorCode == ErrorCode(rawValue: "E42"))
        #expect(error.statusCode == 418)
        #expect(error.description.contains("error code E42, which this cardwallet does not know"))
    }

    @Test(arguments: [
        ("<html><body>Bad gateway</body></html>", 502),
        ("", 500),
        ("{\"unexpected\": true}", 404),
    ])
    func aBodyThatIsNotAnEnvelopeStillGivesAClearError(body: String, status: Int) {
        let error = judge.error(
            from: .unacceptableStatus(response(status: status, body: body, headers: ["Content-Type": "text/html"])))
        guard case .server(let server) = error else {
            Issue.record("expected a server error, got \(error)")
            return
        }
        #expect(server.code == nil)
        #expect(server.statusCode == status)
        #expect(error.description.contains("The server answered \(status)"))
        #expect(error.description.contains("not the card API's JSON"))
    }

    @Test func aSuccessBodyThatDoesNotDecodeIsAnUnexpectedResponse() {
        let body = #"{"status":200,"success":true,"message":"OK","data":{"id":"abc"}}"#
        #expect {
            _ = try judge.data(Card.self, from: response(status: 200, body: body))
        } throws: { error in
            guard case .unexpectedResponse(let unexpected) = error as? CardAPIError else { return false }
            return unexpected.expected == "Card" && unexpected.statusCode == 200
                && unexpected.detail.contains("the key is missing")
                && (error as? CardAPIError)?.description.contains("Check the server address") == true
        }
    }

    @Test(arguments: ["", "not json at all"])
    func anEmptyOrNonJSONSuccessBodyIsAnUnexpectedResponse(body: String) {
        #expect {
            _ = try judge.data(APICardPage.self, from: response(status: 200, body: body))
        } throws: { error in
            guard case .unexpectedResponse(let unexpected) = error as? CardAPIError else { return false }
            return unexpected.expected == "CardPage"
        }
    }

    @Test func transportFailuresNameTheServer() {
        let request = Request(method: .get, url: URL(string: "http://127.0.0.1:9/v1/cards")!)
        let refused = judge.error(
            from: .transport(
                TransportFailure(kind: .cannotConnect, request: request, reason: "connection refused", underlying: nil))
        )
        #expect(
            refused
                == .cannotConnect(server: "http://cards.test/v1", endpoint: "127.0.0.1:9", reason: "connection refused")
        )
        #expect(refused.isNetworkFailure)
        #expect(
            refused.description
                == "Could not connect to the card server at http://cards.test/v1 (127.0.0.1:9): connection refused. "
                + "Is the server running, and is the address right?")
        let slow = judge.error(
            from: .transport(
                TransportFailure(kind: .timedOut, request: request, reason: "no answer for 30 s", underlying: nil)))
        #expect(slow == .timedOut(url: "http://127.0.0.1:9/v1/cards", reason: "no answer for 30 s"))
        #expect(slow.description.contains("did not answer"))
        let lost = judge.error(
            from: .transport(
                TransportFailure(kind: .connectionLost, request: request, reason: "reset", underlying: nil)))
        #expect(lost.isNetworkFailure)
    }

    @Test func interceptorErrorsComeBackUnchanged() {
        #expect(
            judge.error(from: .interceptor(CardAPIError.excessiveRefresh(count: 5, window: .seconds(30))))
                == .excessiveRefresh(count: 5, window: .seconds(30)))
        #expect(judge.error(from: .interceptor(TokenStoreError.noStateLocation)) == .tokenStore(.noStateLocation))
        #expect(judge.error(from: .interceptor(CancellationError())) == .cancelled)
        #expect(judge.error(from: .cancelled) == .cancelled)
    }

    @Test func serverTextIsEscapedAndTokensItEchoesAreHidden() {
        let token = "cwa_secret_token_value"
        let hostile = failure(.accessTokenInvalid, status: 401, message: "\u{1B}[2J bad token \(token)")
        let response = Response(
            statusCode: hostile.statusCode, headers: hostile.headers, body: hostile.body,
            request: {
                var request = hostile.request
                request.headers["Authorization"] = "Bearer \(token)"
                return request
            }())
        let error = judge.error(from: .unacceptableStatus(response))
        #expect(!error.description.contains(token))
        #expect(!error.description.contains("\u{1B}"))
        #expect(error.description.contains("<private>"))
        #expect(error.description.contains("^[[2J"))
    }

    @Test func descriptionsOfTheClientSideCasesAreSentences() {
        let cases: [CardAPIError] = [
            .notLoggedIn(server: "http://h/v1", account: "a@b.c"),
            .multipleAccounts(server: "http://h/v1", accounts: ["a@b.c", "d@e.f"]),
            .sessionExpired(server: "http://h/v1", account: "a@b.c"),
            .excessiveRefresh(count: 5, window: .seconds(30)),
            .tokenStore(.noStateLocation),
            .invalidImage(path: "/tmp/x.gif", problem: .notPNGOrJPEG),
            .invalidServerURL("ftp://x"),
            .invalidCardID("../x"),
            .cancelled,
        ]
        for error in cases {
            #expect(error.description.count > 20, "\(error)")
            #expect(error.localizedDescription == error.description)
        }
        #expect(
            CardAPIError.sessionExpired(server: "http://h/v1", account: "a@b.c").description.contains("Log in again"))
    }
}
