import CardAPI
import CardBackend
import CardMockServer
import CardModels
import CardWalletLive
import CardWalletUI
import Foundation
import LiveTestSupport
import Logging
import Networking
import TestSupport
import Testing

@testable import CardWalletLive
@testable import CardWalletUI

/// The one ordered channel, through the real session and logger plugin against the real mock
/// server: what a refresh logs reaches the inbox before the session news the refresh caused.
@Suite struct OrderingTests {
    static let rounds = 1_000
    static let concurrentCalls = 4

    @Test(
        "1,000 refreshes under concurrent calls: each refresh's log lines come before the news it caused",
        .timeLimit(.minutes(10)))
    func everyRefreshIsLoggedBeforeItsNews() async throws {
        var configuration = MockServerConfiguration.testing
        configuration.limits.refreshesPerMinute = 0
        let server = try await MockServer.start(configuration: configuration)
        let folder = try TemporaryFolder("live")
        let transport = LiveTransport()
        let sink = LiveEventSink(inbox: ActionInbox())
        let logger = LoggerPlugin(
            configuration: LiveBackends.loggerConfiguration(
                for: .defaults, recordsCreated: LiveBackends.terminalRecordsCreated, recentCapacity: 0),
            sink: sink)
        // The loop guard is not what this test is about: let every refresh through.
        let policy = SessionPolicy(maximumRejectedRefreshes: Int.max)
        let tokenStore = folder.tokenStore
        let backend = CardAPIBackend(
            client: CardAPIClient(
                configuration: CardAPIConfiguration(server: server.baseURL, session: policy), tokenStore: tokenStore,
                transport: transport, plugins: [logger]))
        let performer = CallPerformer(
            accounts: WalletAccounts(
                backend: backend, sessionSink: sink, cacheEnvironment: nil, logger: Logger(label: "test.ordering")
            ) { _ in backend })
        do {
            let login = await performer.perform(
                .logIn(server: server.baseURLString, email: GlueHarness.email, password: GlueHarness.password))
            #expect(login == .success(.loggedIn(email: GlueHarness.email, server: server.baseURLString)))
            var failures = 0
            var collected: [AppAction] = []
            for round in 0..<Self.rounds {
                // Only the server knows: every call of the round is rejected, one refresh follows.
                _ = try await server.expireAccessTokens(email: GlueHarness.email)
                let outcomes = await withTaskGroup(of: CallOutcome.self) { group in
                    for call in 0..<Self.concurrentCalls {
                        group.addTask {
                            await performer.perform(
                                call.isMultiple(of: 2)
                                    ? .loadCard(id: "demo-0\(1 + call % 3)")
                                    : .loadCards(offset: 0, limit: 5, query: nil))
                        }
                    }
                    return await group.reduce(into: [CallOutcome]()) { $0.append($1) }
                }
                failures += outcomes.filter { if case .failure = $0 { true } else { false } }.count
                // Drain as the main loop does, now and then, while calls are still being made.
                if round.isMultiple(of: 7) { collected += sink.inbox.drain() }
            }
            collected += sink.inbox.drain()
            #expect(failures == 0)

            var refreshes = 0
            var open: (request: Bool, response: Bool)?
            for action in collected {
                switch action {
                case .session(.refreshing):
                    #expect(open == nil, "a refresh started inside another")
                    open = (false, false)
                case .log(let line) where line.path?.hasSuffix("/auth/refresh") == true:
                    #expect(open != nil, "a refresh was logged outside its news: \(line.text)")
                    if line.kind == .request { open?.request = true }
                    if line.kind == .response, line.status == 200 { open?.response = true }
                case .session(.loggedIn):
                    guard let logged = open else { continue }
                    #expect(
                        logged.request && logged.response, "the news of refresh \(refreshes + 1) came before its lines")
                    refreshes += 1
                    open = nil
                default:
                    break
                }
            }
            #expect(refreshes == Self.rounds)
            #expect(open == nil)
            let ids = collected.compactMap { if case .log(let line) = $0 { line.id } else { nil } }
            #expect(ids == ids.sorted())
        } catch {
            Issue.record("\(error)")
        }
        try? await transport.shutdown()
        await server.stop()
        folder.remove()
    }
}
