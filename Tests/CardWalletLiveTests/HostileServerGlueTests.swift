import CardAPI
import CardMockServer
import CardWalletLive
import CardWalletUI
import Foundation
import TestSupport
import Testing
import TokenStore

/// The interface's glue against what a hostile server leaves behind (issue 13): a token no
/// header can carry, and a login form pointed at plain http on another computer.
@Suite struct HostileServerGlueTests {
    /// A stored token with a line break makes AsyncHTTPClient refuse the request with an error
    /// that quotes it escaped; neither the pane, the failure shown nor `cardwallet.log` has it.
    @Test(.timeLimit(.minutes(2))) func aTokenNoHeaderCanCarryReachesNoLineAndNoLogFile() async throws {
        try await GlueHarness.with { harness in
            let directory = StateDirectory(path: harness.folder.path("state"))
            let file = try LogFileWriter(directory: directory)
            harness.sink.writeLines(to: file)
            let now = Date()
            try await harness.store.save(
                TokenItem(
                    server: harness.url, account: GlueHarness.email, accessToken: "cwa_CANARYpane0123456789\n",
                    accessTokenExpiresAt: now + 600, refreshToken: "cwr_CANARYpane0123456789\u{1B}[2J",
                    refreshTokenExpiresAt: now + 86_400))
            let outcome = await harness.performer().perform(.loadCards(offset: 0, limit: 50, query: nil))
            guard case .failure(let failure) = outcome else {
                Issue.record("expected a failure, got \(outcome)")
                return
            }
            #expect(failure.message.contains("a request header holds characters HTTP does not allow"))
            let lines = harness.actions.compactMap(\.line)
            #expect(lines.contains { $0.isFailure })
            let texts =
                [failure.message] + lines.map { LogFormat.summary($0, utcOffsetSeconds: 0) } + lines.flatMap(\.detail)
            #expect(!texts.contains { $0.contains("CANARYpane") })
            file.close()
            let written = try String(contentsOfFile: file.path, encoding: .utf8)
            #expect(!written.isEmpty)
            #expect(!written.contains("CANARYpane"))
        }
    }

    /// The login form refuses plain http to another computer as the command line does, with
    /// how to allow it, before anything is sent.
    @Test func theLoginFormRefusesPlainHTTPToAnotherComputer() async throws {
        try await GlueHarness.with { harness in
            let outcome = await harness.performer().perform(
                .logIn(server: "http://192.0.2.7:8080/v1", email: GlueHarness.email, password: GlueHarness.password))
            guard case .failure(let failure) = outcome else {
                Issue.record("expected a refusal, got \(outcome)")
                return
            }
            #expect(failure.message.contains("Refusing to send your password and tokens to http://192.0.2.7:8080/v1"))
            #expect(failure.message.contains("--allow-insecure-http"))
            let password = await harness.performer().perform(
                .logIn(server: "http://ada:S3cretCanary@127.0.0.1:1/v1", email: GlueHarness.email, password: "x"))
            guard case .failure(let refused) = password else {
                Issue.record("expected a refusal, got \(password)")
                return
            }
            #expect(refused.message.contains("holds a user name or password"))
            #expect(!refused.message.contains("S3cretCanary"))
            #expect(harness.server.statistics.total == 0)
        }
    }
}
