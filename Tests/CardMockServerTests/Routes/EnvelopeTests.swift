import CardMockServer
import CardModels
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Every response is an envelope: unknown routes, wrong methods, bad input, injected faults.
@Suite struct EnvelopeTests {
    @Test(arguments: ["/nope", "/v2", "/cards/extra/segments", "/card/a/b/c", "/_admin/stats"])
    func unknownRoutesAre404Envelopes(path: String) async throws {
        try await withRouter(.init(port: 0, passwordHashCost: 4)) { api, _ in
            let envelope = try expectError(try await api.send(.get, path), .badRequest, status: 404)
            #expect(envelope.message.contains("no such endpoint"))
        }
        try await withRouter { api, _ in
            let outside = try await api.client.executeRequest(uri: "/", method: .get, headers: [:], body: nil)
            try expectError(outside, .badRequest, status: 404)
        }
    }

    @Test func wrongMethodsAre405WithAllow() async throws {
        try await withRouter { api, _ in
            let patch = try await api.send(.patch, "/card/demo-01")
            try expectError(patch, .badRequest, status: 405)
            #expect(patch.headers[.allow] == "GET, PUT, DELETE")
            let getLogin = try await api.send(.get, "/auth/login")
            try expectError(getLogin, .badRequest, status: 405)
            #expect(getLogin.headers[.allow] == "POST")
        }
    }

    @Test(arguments: [
        "..%2F..%2Fetc%2Fpasswd", "%2E%2E", "a%00b", "%FF%FE", String(repeating: "x", count: 5000), "d%C3%A9mo",
    ])
    func strangeIdsAreSimplyNotFound(id: String) async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            let response = try await api.send(.get, "/card/\(id)", token: token)
            #expect(response.status == .notFound)
            #expect(try response.failure().errorCode == .badRequest || response.failure().errorCode == .cardNotFound)
            let image = try await api.send(.get, "/card/\(id)/image", token: token)
            #expect(image.status.code < 500)
        }
    }

    @Test func parentPathSegmentsNeverEscapeTheAPI() async throws {
        try await withRouter { api, _ in
            let token = try await api.login().accessToken
            for path in ["/card/../cards", "/card/..", "/../v1/cards", "/card/%2e%2e/image"] {
                let response = try await api.send(.get, path, token: token)
                #expect(response.status.code < 500, "\(path)")
                #expect((try? response.failure()) != nil || response.status == .ok, "\(path)")
            }
        }
    }

    @Test func failRateAnswers503OnCardRoutesOnly() async throws {
        var configuration = MockServerConfiguration.testing
        configuration.failRate = 1
        try await withRouter(configuration) { api, controls in
            let grant = try await api.login()
            let failed = try await api.send(.get, "/cards", token: grant.accessToken)
            try expectError(failed, .internalError, status: 503)
            #expect(failed.headers[.retryAfter] == "1")
            try expectError(
                try await api.send(.get, "/card/demo-01", token: grant.accessToken), .internalError, status: 503)
            // Auth and admin routes never fail.
            #expect(try await api.refresh(grant.refreshToken).status == .ok)
            #expect(try await api.send(.get, "/_admin/stats").status == .ok)
            #expect(controls.statistics.count("GET /cards", status: 503) == 1)
        }
    }

    @Test func requestsAreCountedByRouteAndStatus() async throws {
        try await withRouter { api, controls in
            let grant = try await api.login()
            _ = try await api.refresh(grant.refreshToken)
            _ = try await api.refresh(grant.refreshToken)
            _ = try await api.send(.get, "/card/demo-01", token: grant.accessToken)
            _ = try await api.send(.get, "/nowhere")
            let stats = controls.statistics
            #expect(stats.count("POST /auth/login", status: 200) == 1)
            #expect(stats.count("POST /auth/refresh", status: 200) == 1)
            #expect(stats.count("POST /auth/refresh", status: 401) == 1)
            #expect(stats.count("GET /card/{cardId}") == 1)
            #expect(stats.count(RequestStatistics.unmatchedRoute, status: 404) == 1)
            #expect(stats.total == 5)
            let served = try await api.send(.get, "/_admin/stats").data(RequestStatistics.self)
            #expect(served == stats)
            controls.resetStatistics()
            #expect(controls.statistics.total == 0)
        }
    }
}

@Suite struct AdminRouteTests {
    @Test func expireMakesTheNextRequestE04AndRefreshStillWorks() async throws {
        try await withRouter { api, _ in
            let grant = try await api.login()
            let other = try await api.login(Seeds.minjiEmail, Seeds.minjiPassword)
            let response = try await api.send(.post, "/_admin/expire?email=demo%40cardwallet.dev")
            #expect(
                try response.data(ExpireResult.self) == ExpireResult(email: Seeds.demoEmail, expiredAccessTokens: 1))
            try expectError(try await api.send(.get, "/cards", token: grant.accessToken), .accessTokenExpired)
            #expect(try await api.send(.get, "/cards", token: other.accessToken).status == .ok)
            let refreshed = try await api.refresh(grant.refreshToken).data(TokenGrant.self)
            #expect(try await api.send(.get, "/cards", token: refreshed.accessToken).status == .ok)
        }
    }

    @Test func revokeMakesTheNextRefreshE06() async throws {
        try await withRouter { api, controls in
            let grant = try await api.login()
            let response = try await api.send(.post, "/_admin/revoke?email=\(Seeds.demoEmail)")
            #expect(try response.data(RevokeResult.self).revokedRefreshTokens == 1)
            try expectError(try await api.refresh(grant.refreshToken), .refreshTokenExpired)
            // Without HTTP, too.
            let second = try await api.login()
            #expect(try await controls.revokeRefreshTokens(email: Seeds.demoEmail) == 1)
            // Both logins' access tokens are still live: revoking refresh tokens leaves them be.
            #expect(try await controls.expireAccessTokens(email: Seeds.demoEmail) == 2)
            try expectError(try await api.send(.get, "/cards", token: second.accessToken), .accessTokenExpired)
            try expectError(try await api.refresh(second.refreshToken), .refreshTokenExpired)
            #expect(try await controls.expireAccessTokens(email: "ghost@nowhere.dev") == nil)
        }
    }

    @Test func adminNeedsAKnownEmail() async throws {
        try await withRouter { api, _ in
            #expect(
                try expectError(try await api.send(.post, "/_admin/expire"), .badRequest).fields == [
                    "email": "is required"
                ])
            let ghost = try expectError(
                try await api.send(.post, "/_admin/revoke?email=ghost%40x.dev"), .badRequest, status: 404)
            #expect(ghost.fields == ["email": "is not a user"])
            try expectError(try await api.send(.get, "/_admin/expire?email=a"), .badRequest, status: 405)
        }
    }

    @Test func withoutAdminTheEndpointsDoNotExist() async throws {
        var configuration = MockServerConfiguration.testing
        configuration.admin = false
        try await withRouter(configuration) { api, _ in
            for (method, path) in [
                (HTTPRequest.Method.post, "/_admin/expire?email=demo%40cardwallet.dev"),
                (.post, "/_admin/revoke?email=x"), (.get, "/_admin/stats"),
            ] {
                try expectError(try await api.send(method, path), .badRequest, status: 404)
            }
        }
    }

    struct ExpireResult: Codable, Sendable, Equatable {
        var email: String
        var expiredAccessTokens: Int
    }

    struct RevokeResult: Codable, Sendable, Equatable {
        var email: String
        var revokedRefreshTokens: Int
    }
}
