import CardModels
import Foundation
import Logging
import Networking
import TestSupport
import Testing
import TokenStore

@testable import CardAPI

/// A canary token and password never show up in any description, state, status or log line.
@Suite struct CanaryTests {
    static let canary = "CANARY"

    @Test func noTokenOrPasswordInErrorsStatesStatusOrLogs() async throws {
        try await Harness.with(tokenPrefix: Self.canary) { harness in
            await harness.fake.set(echoesSecrets: true)
            let sink = LogSink()
            let log = LoggerPlugin(
                configuration: .init(tagExtractor: .jsonField("errorCode")),
                logger: sink.logger(label: "network"))
            let client = harness.client(plugins: [log], logger: sink.logger(label: "session"))
            let states = StateRecorder(client)
            var texts: [String] = []
            func record(_ error: CardAPIError?) {
                guard let error else { return }
                texts += [error.description, String(reflecting: error), error.localizedDescription, "\(error)"]
            }

            // A wrong password the server echoes back.
            record(
                await #expect(throws: CardAPIError.self) {
                    try await client.login(email: "demo@cardwallet.dev", password: "\(Self.canary)-password")
                })
            try await client.login(email: "demo@cardwallet.dev", password: FakeCardServer.password)
            _ = try await client.card(id: "card_1")

            // A 401 whose message repeats the token, then a refresh.
            await harness.fake.expireAccessTokens()
            _ = try await client.listCards()

            // A call rejected with a message repeating the token, not retried.
            await harness.fake.set(cardOverride: { request in
                FakeCardServer.failure(
                    "E01", status: 400, message: "bad \(request.headers["Authorization"] ?? "")",
                    fields: ["x": request.headers["Authorization"] ?? ""])
            })
            record(await #expect(throws: CardAPIError.self) { _ = try await client.card(id: "card_1") })
            await harness.fake.set(cardOverride: nil)

            texts.append((await client.status()).description)

            // The session ends with E06 from the refresh.
            await harness.fake.revokeRefreshToken()
            harness.wallClock.advance(by: .seconds(600))
            record(await #expect(throws: CardAPIError.self) { _ = try await client.listCards() })
            record(await #expect(throws: CardAPIError.self) { _ = try await client.listCards() })

            try await waitUntil("the expiry to be published") { states.states.last?.isExpired == true }
            texts += states.states.map { "\($0) \(String(reflecting: $0))" }
            let formatter = NetworkEventFormatter()
            texts += log.recent().flatMap { [formatter.line($0), formatter.detail($0), "\($0)"] }
            texts += sink.all
            texts.append(
                String(
                    describing: AuthService(
                        server: Harness.server, endpoint: .refresh(refreshToken: "cwr_\(Self.canary)"))))
            texts.append(
                String(reflecting: AuthService.Endpoint.login(LoginRequest(email: "a", password: Self.canary))))

            #expect(log.recent().contains { $0.tag == "E06" })
            #expect(sink.all.contains { $0.contains("E06") })
            #expect(texts.count > 30)
            let leaks = texts.filter { $0.contains(Self.canary) || $0.contains(FakeCardServer.password) }
            #expect(leaks.isEmpty, "leaked: \(leaks.prefix(3))")
        }
    }
}
