import CardMockServer
import CardModels
import Foundation
import TestSupport
import Testing

extension EndToEndTests {
    static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]

    /// Every command — successes, failures, `-v`, every `--log-level`, a refresh, the end of a
    /// session — and neither a stored token nor a password ever shows in stdout or stderr.
    @Test func noTokenOrPasswordAppearsInAnyOutputAtAnyLogLevel() async throws {
        try await CLIWorld.with { world in
            var results: [CLIResult] = []
            var tokens = Set<String>()
            let wrongPassword = "Canary-Wrong-Pa55word-7Q"
            func run(_ arguments: [String], input: String? = nil) async throws {
                results.append(try await world.run(arguments, input: input))
                tokens.formUnion(try world.storedTokens())
            }
            let loud = ["-v", "--log-level", "trace"]

            try await run(["login", "--email", CLIWorld.email, "--password-stdin"] + loud, input: wrongPassword + "\n")
            try await run(
                ["login", "--email", CLIWorld.email, "--password-stdin"] + loud, input: CLIWorld.password + "\n")
            #expect(results.last?.status == 0)
            #expect(tokens.count == 2)

            let image = try world.folder.write(Fixtures.png, to: "canary.png")
            try await run(["add", "--name", "Canary", "--image", image, "--json"] + loud)
            let id = try #require(
                try? CardWalletJSON.decoder().decode(Card.self, from: Data(results.last!.stdout.utf8)).id)

            for level in Self.logLevels {
                for verbose in [[], ["-v"]] {
                    let options = verbose + ["--log-level", level]
                    try await run(["list"] + options)
                    try await run(["show", "card_missing"] + options)
                }
            }
            for arguments in [
                ["list", "--json"], ["list", "--query", "can"], ["show", id], ["show", id, "--json"], ["status"],
                ["status", "--json"], ["edit", id, "--image", image], ["edit", id, "--remove-image"],
                ["edit", id, "--title", "Bird"], ["edit", id, "--title", "Stale", "--if-version", "1"],
                ["reorder", id], ["rm", id], ["edit", "../x", "--title", "x"],
            ] {
                try await run(arguments + loud)
            }
            // A refresh on the wire (the access token expired on the server's clock).
            world.clock.advance(by: .seconds(6 * 60))
            try await run(["list"] + loud)
            #expect(world.refreshes == 1)
            try await run(["rm", id, "--yes"] + loud)
            for command in ["login", "logout", "status", "list", "show", "add", "edit", "rm", "reorder"] {
                try await run([command, "--help"])
                #expect(results.last?.status == 0)
            }
            try await run(["--help"])
            try await run(["logout"] + loud)
            // The end of a session: E06 from the refresh, after a fresh login.
            try await run(
                ["login", "--email", CLIWorld.email, "--password-stdin"] + loud, input: CLIWorld.password + "\n")
            _ = try await world.server.revokeRefreshTokens(email: CLIWorld.email)
            _ = try await world.server.expireAccessTokens(email: CLIWorld.email)
            try await run(["list"] + loud)
            #expect(results.last?.status == 3)

            #expect(tokens.count >= 6)
            #expect(results.count > 50)
            let secrets = tokens.union([CLIWorld.password, wrongPassword])
            for result in results {
                for secret in secrets {
                    #expect(!result.allOutput.contains(secret), "a secret in the output of \(result.arguments)")
                }
            }
            // -v really printed the exchanges (so the check above looked at them).
            #expect(results.contains { $0.stderr.contains("POST /v1/auth/refresh") })
            #expect(results.contains { $0.stderr.contains("← 200 GET /v1/cards") })
        }
    }
}
