import CardMockServer
import CardModels
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

@Suite struct AuthRouteTests {
    @Test func loginReturnsATokenPairThatIsNeverCached() async throws {
        let clock = ManualWallClock()
        try await withRouter(clock: clock) { api, _ in
            let response = try await api.sendJSON(
                .post, "/auth/login", LoginRequest(email: "Demo@CardWallet.dev ", password: "demo1234"))
            #expect(response.status == .ok)
            #expect(response.headers[.cacheControl] == "no-store")
            let grant = try response.data(TokenGrant.self)
            #expect(grant.user == User(id: "user-demo", email: "demo@cardwallet.dev", name: "Demo User"))
            #expect(grant.accessTokenExpiresAt == clock.now.addingTimeInterval(300))
            #expect(grant.refreshTokenExpiresAt == clock.now.addingTimeInterval(86_400))
            #expect(grant.accessToken != grant.refreshToken)
        }
    }

    @Test func wrongPasswordAndUnknownEmailAnswerTheSameE02() async throws {
        try await withRouter { api, _ in
            let wrong = try await api.sendJSON(
                .post, "/auth/login", LoginRequest(email: Seeds.demoEmail, password: "nope"))
            let unknown = try await api.sendJSON(
                .post, "/auth/login", LoginRequest(email: "ghost@cardwallet.dev", password: "nope"))
            let first = try expectError(wrong, .loginFailed)
            let second = try expectError(unknown, .loginFailed)
            #expect(first.message == second.message)
            // bcrypt stops at NUL and reads 72 bytes: such passwords never match.
            let nul = try await api.sendJSON(
                .post, "/auth/login", LoginRequest(email: Seeds.demoEmail, password: "demo1234\u{0}x"))
            try expectError(nul, .loginFailed)
            let long = try await api.sendJSON(
                .post, "/auth/login",
                LoginRequest(email: Seeds.demoEmail, password: "demo1234" + String(repeating: "x", count: 100)))
            try expectError(long, .loginFailed)
        }
    }

    @Test func malformedLoginBodiesAreE01OrE09() async throws {
        try await withRouter { api, _ in
            let missing = try await api.sendRaw(.post, "/auth/login", #"{"email": "demo@cardwallet.dev"}"#)
            #expect(try expectError(missing, .badRequest).fields == ["password": "is required"])
            let wrongType = try await api.sendRaw(.post, "/auth/login", #"{"email": 5, "password": "x"}"#)
            #expect(try expectError(wrongType, .badRequest).fields == ["email": "must be a string"])
            try expectError(try await api.sendRaw(.post, "/auth/login", "{nope"), .badRequest)
            try expectError(try await api.sendRaw(.post, "/auth/login", "[1, 2]"), .badRequest)
            try expectError(try await api.sendRaw(.post, "/auth/login", ""), .badRequest)
            let form = try await api.sendRaw(
                .post, "/auth/login", "email=a&password=b", contentType: "application/x-www-form-urlencoded")
            try expectError(form, .unsupportedMediaType)
            try expectError(try await api.sendRaw(.post, "/auth/login", "{}", contentType: nil), .unsupportedMediaType)
        }
    }

    @Test func theFullRotationAndReuseStory() async throws {
        let clock = ManualWallClock()
        try await withRouter(clock: clock) { api, _ in
            let first = try await api.login()
            #expect(try await api.send(.get, "/cards", token: first.accessToken).status == .ok)

            // The access token expires: E04, then a refresh gives a new pair.
            clock.advance(by: .seconds(301))
            try expectError(try await api.send(.get, "/cards", token: first.accessToken), .accessTokenExpired)
            let refreshed = try await api.refresh(first.refreshToken)
            #expect(refreshed.status == .ok)
            #expect(refreshed.headers[.cacheControl] == "no-store")
            let second = try refreshed.data(TokenGrant.self)
            #expect(second.refreshToken != first.refreshToken)
            #expect(second.user.email == Seeds.demoEmail)
            #expect(try await api.send(.get, "/cards", token: second.accessToken).status == .ok)

            // And again: rotation every time.
            let third = try await api.refresh(second.refreshToken).data(TokenGrant.self)

            // An attacker replays the first (rotated) refresh token: E06, and the whole family dies.
            let replay = try expectError(try await api.refresh(first.refreshToken), .refreshTokenExpired)
            #expect(replay.message.contains("already used"))
            try expectError(try await api.refresh(third.refreshToken), .refreshTokenExpired)
            try expectError(try await api.send(.get, "/cards", token: third.accessToken), .accessTokenInvalid)

            // A new login starts a new family and works.
            let fresh = try await api.login()
            #expect(try await api.send(.get, "/cards", token: fresh.accessToken).status == .ok)
        }
    }

    @Test func refreshTokensExpireToo() async throws {
        let clock = ManualWallClock()
        var configuration = MockServerConfiguration.testing
        configuration.refreshTokenTTL = .hours(1)
        try await withRouter(configuration, clock: clock) { api, _ in
            let grant = try await api.login()
            clock.advance(by: .seconds(3601))
            let expired = try expectError(try await api.refresh(grant.refreshToken), .refreshTokenExpired)
            #expect(expired.message.contains("expired"))
        }
    }

    @Test func refreshHeaderProblems() async throws {
        try await withRouter { api, _ in
            let missing = try await api.send(.post, "/auth/refresh")
            #expect(try expectError(missing, .badRequest).fields == ["refreshToken": "is required"])
            try expectError(
                try await api.send(.post, "/auth/refresh", headers: [.refreshTokenHeader: "Basic abc"]),
                .refreshTokenExpired)
            try expectError(try await api.refresh("cwr_bogus.token"), .refreshTokenExpired)
            let grant = try await api.login()
            // An access token is not a refresh token.
            try expectError(try await api.refresh(grant.accessToken), .refreshTokenExpired)
        }
    }

    @Test func accessTokenProblemsAreE03() async throws {
        try await withRouter { api, _ in
            let grant = try await api.login()
            try expectError(try await api.send(.get, "/cards"), .accessTokenInvalid)
            try expectError(
                try await api.send(.get, "/cards", headers: [.authorization: "Basic ZGVtbzpkZW1v"]), .accessTokenInvalid
            )
            try expectError(
                try await api.send(.get, "/cards", headers: [.authorization: "Bearer"]), .accessTokenInvalid)
            try expectError(try await api.send(.get, "/cards", token: "cwa_nope.nope"), .accessTokenInvalid)
            try expectError(try await api.send(.get, "/cards", token: grant.refreshToken), .accessTokenInvalid)
            try expectError(
                try await api.send(.get, "/cards", token: String(repeating: "a", count: 100_000)), .accessTokenInvalid)
            // The scheme is case-insensitive.
            #expect(
                try await api.send(.get, "/cards", headers: [.authorization: "bearer \(grant.accessToken)"]).status
                    == .ok)
        }
    }

    @Test func logoutRevokesThePair() async throws {
        let clock = ManualWallClock()
        try await withRouter(clock: clock) { api, _ in
            let grant = try await api.login()
            let response = try await api.send(.post, "/auth/logout", token: grant.accessToken)
            #expect(response.status == .ok)
            _ = try response.data(EmptyPayload.self)
            try expectError(try await api.send(.get, "/cards", token: grant.accessToken), .accessTokenInvalid)
            try expectError(try await api.refresh(grant.refreshToken), .refreshTokenExpired)
            try expectError(try await api.send(.post, "/auth/logout", token: grant.accessToken), .accessTokenInvalid)
            try expectError(try await api.send(.post, "/auth/logout"), .accessTokenInvalid)

            // Logging out with only the refresh token, or with an expired access token, works too.
            let second = try await api.login()
            #expect(
                try await api.send(
                    .post, "/auth/logout", headers: [.refreshTokenHeader: "Bearer \(second.refreshToken)"]
                ).status == .ok)
            let third = try await api.login()
            clock.advance(by: .seconds(600))
            #expect(try await api.send(.post, "/auth/logout", token: third.accessToken).status == .ok)
            try expectError(try await api.refresh(third.refreshToken), .refreshTokenExpired)
        }
    }

    @Test func failedLoginsAreLimitedPerAccountWithRetryAfter() async throws {
        let clock = ManualWallClock()
        try await withRouter(clock: clock) { api, _ in
            for _ in 0..<10 {
                try expectError(
                    try await api.sendJSON(
                        .post, "/auth/login", LoginRequest(email: Seeds.demoEmail, password: "wrong")), .loginFailed)
            }
            let limited = try await api.sendJSON(
                .post, "/auth/login", LoginRequest(email: Seeds.demoEmail, password: "demo1234"))
            try expectError(limited, .tooManyRequests)
            let retryAfter = try #require(limited.headers[.retryAfter].flatMap { Int($0) })
            #expect((1...60).contains(retryAfter))
            // Another account from the same address is not affected.
            _ = try await api.login(Seeds.minjiEmail, Seeds.minjiPassword)
            // After the window the right password works again.
            clock.advance(by: .seconds(61))
            _ = try await api.login()
        }
    }

    @Test func parallelGuessesCannotSlipPastTheLimit() async throws {
        try await withRouter { api, _ in
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for attempt in 0..<30 {
                    group.addTask {
                        let body = LoginRequest(email: Seeds.demoEmail, password: "guess-\(attempt)")
                        return Int(try await api.sendJSON(.post, "/auth/login", body).status.code)
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses.filter { $0 == 401 }.count == 10)
            #expect(statuses.filter { $0 == 429 }.count == 20)
        }
    }

    @Test func aWellBehavedClientIsNeverBlocked() async throws {
        try await withRouter { api, _ in
            for round in 0..<4 {
                for _ in 0..<9 {
                    try expectError(
                        try await api.sendJSON(
                            .post, "/auth/login", LoginRequest(email: Seeds.demoEmail, password: "typo\(round)")),
                        .loginFailed)
                }
                // A success resets the count, and successes are never counted.
                _ = try await api.login()
                _ = try await api.login()
            }
        }
    }

    @Test func parallelLoginsWithTheRightPasswordAreNeverRefused() async throws {
        try await withRouter { api, _ in
            // Nine typos: one more failure would reach the limit of ten.
            for _ in 0..<9 {
                try expectError(
                    try await api.sendJSON(
                        .post, "/auth/login", LoginRequest(email: Seeds.demoEmail, password: "typo")),
                    .loginFailed)
            }
            // Twenty logins with the right password at once (more than the limit): each one
            // waits for those in flight instead of being refused, and all succeed.
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<20 {
                    group.addTask {
                        let body = LoginRequest(email: Seeds.demoEmail, password: Seeds.demoPassword)
                        return Int(try await api.sendJSON(.post, "/auth/login", body).status.code)
                    }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            #expect(statuses == Array(repeating: 200, count: 20))
        }
    }

    @Test func concurrentRefreshesWithOneTokenRotateOnceAndEndTheSession() async throws {
        try await withRouter { api, controls in
            let grant = try await api.login()
            let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
                for _ in 0..<8 {
                    group.addTask { Int(try await api.refresh(grant.refreshToken).status.code) }
                }
                return try await group.reduce(into: [Int]()) { $0.append($1) }
            }
            // One wins the rotation; the others present a rotated token: reuse, E06.
            #expect(statuses.sorted() == [200] + Array(repeating: 401, count: 7))
            #expect(controls.statistics.count("POST /auth/refresh", status: 401) == 7)
        }
    }

    @Test func refreshesAreLimitedPerClient() async throws {
        var configuration = MockServerConfiguration.testing
        configuration.limits.refreshesPerMinute = 3
        let clock = ManualWallClock()
        try await withRouter(configuration, clock: clock) { api, controls in
            var grant = try await api.login()
            for _ in 0..<3 {
                grant = try await api.refresh(grant.refreshToken).data(TokenGrant.self)
            }
            let limited = try await api.refresh(grant.refreshToken)
            try expectError(limited, .tooManyRequests)
            #expect(limited.headers[.retryAfter] == "60")
            clock.advance(by: .seconds(60))
            // The limited request did not rotate the token: it still works.
            #expect(try await api.refresh(grant.refreshToken).status == .ok)
            #expect(controls.statistics.count("POST /auth/refresh", status: 429) == 1)
            #expect(controls.statistics.count("POST /auth/refresh", status: 200) == 4)
        }
    }
}
