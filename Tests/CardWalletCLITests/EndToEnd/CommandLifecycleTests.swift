import CardMockServer
import CardModels
import Foundation
import TestSupport
import Testing

/// Spawns the built `cardwallet` against the mock server in-process: every command, its output
/// and its exit status.
extension EndToEndTests {
    @Test func aWholeSessionFromLoginToLogout() async throws {
        try await CLIWorld.with { world in
            let before = try await world.run("list")
            #expect(before.status == 3, "\(before)")
            #expect(before.stderr.contains("Not logged in"))
            #expect(try await world.run("status").status == 3)

            try await world.login()
            let status = try await world.run("status")
            #expect(status.status == 0, "\(status)")
            #expect(status.stdout.contains("logged in as demo@cardwallet.dev"))
            #expect(status.stdout.contains("plain file, mode 0600, not encrypted"))
            #expect(status.stdout.contains("(from CARDWALLET_SERVER)"))

            let image = try world.folder.write(Fixtures.png, to: "ada.png")
            let added = try await world.run(
                "add", "--name", "Ada Lovelace", "--company", "Analytical Engines", "--email", "ada@example.com",
                "--tag", "math", "--tag", "ai, history", "--tmi", "First programmer", "--avatar", "3",
                "--image", image)
            #expect(added.status == 0, "\(added)")
            let id = added.stdout.trimmingCharacters(in: .whitespacesAndNewlines)
            #expect(!id.isEmpty)

            let table = try await world.run("list")
            #expect(table.status == 0, "\(table)")
            let row = try #require(table.stdout.split(separator: "\n").first { $0.hasPrefix(id + " ") })
            #expect(row.contains("Ada Lovelace"))
            #expect(row.contains("ada@example.com"))
            #expect(table.stdout.hasPrefix("ID "))

            let summaries = try Self.decode([CardSummary].self, from: try await world.run("list", "--json"))
            #expect(summaries.count == 13)
            #expect(summaries.last?.id == id)
            #expect(summaries.last?.hasImage == true)

            let detail = try await world.run("show", id)
            #expect(detail.status == 0, "\(detail)")
            #expect(detail.stdout.contains("Image:      image/png, \(Fixtures.png.count) bytes"))
            #expect(detail.stdout.contains("Tags:       math, ai, history"))
            #expect(detail.stdout.contains("Version:    1"))
            let card = try Self.decode(Card.self, from: try await world.run("show", id, "--json"))
            #expect(card.fields.tags == ["math", "ai", "history"])
            #expect(card.fields.funFacts == ["First programmer"])
            #expect(card.fields.defaultImage == 3)
            #expect(card.image == CardImageInfo(contentType: "image/png", size: Fixtures.png.count))

            let edited = try await world.run("edit", id, "--title", "Countess", "--email", "")
            #expect(edited.status == 0, "\(edited)")
            #expect(edited.stdout.contains("Title:      Countess"))
            let afterEdit = try Self.decode(Card.self, from: try await world.run("show", id, "--json"))
            #expect(afterEdit.revision == CardRevision(2))
            #expect(afterEdit.fields.email == nil)
            #expect(afterEdit.fields.company == "Analytical Engines")

            let stale = try await world.run("edit", id, "--title", "Lady", "--if-version", "1")
            #expect(stale.status == 5, "\(stale)")
            #expect(stale.stderr.contains("changed since it was read (E07)"))
            #expect(stale.stderr.contains("Run the command again"))
            #expect(
                try Self.decode(Card.self, from: try await world.run("show", id, "--json")).fields.title == "Countess")

            let reordered = try await world.run("reorder", id)
            #expect(reordered.status == 0, "\(reordered)")
            let order = try Self.decode([CardSummary].self, from: try await world.run("list", "--json")).map(\.id)
            #expect(order.first == id)
            #expect(Array(order.dropFirst()) == summaries.map(\.id).dropLast())

            let refused = try await world.run("rm", id)
            #expect(refused.status == 64, "\(refused)")
            #expect(refused.stderr.contains("Pass --yes"))
            #expect(try await world.run("show", id).status == 0)

            let removed = try await world.run("rm", id, "--yes")
            #expect(removed.status == 0, "\(removed)")
            let gone = try await world.run("show", id)
            #expect(gone.status == 4, "\(gone)")
            #expect(gone.stderr.contains("No such card (E05)"))

            let logout = try await world.run("logout")
            #expect(logout.status == 0, "\(logout)")
            #expect(logout.stdout.contains("Logged out demo@cardwallet.dev"))
            #expect(try world.storedTokens().isEmpty)
            #expect(try await world.run("status").status == 3)
            #expect(try await world.run("list").status == 3)
            #expect(try await world.run("logout").status == 0)
        }
    }

    @Test func failuresHaveTheirOwnExitStatusAndOneClearMessage() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let cases: [([String], Int32, String)] = [
                (["show", "card_does_not_exist"], 4, "No such card (E05)"),
                (["show", "../cards"], 4, "is not a card id"),
                (["edit", "card_does_not_exist", "--title", "x"], 4, "No such card"),
                (["rm", "card_does_not_exist", "--yes"], 4, "No such card"),
                (["reorder", "card_does_not_exist"], 4, "not in your wallet"),
                (["add", "--name", "x", "--email", "not-an-email"], 64, "--email is not an email address"),
                (["add", "--name", "x", "--image", "/nonexistent.png"], 64, "there is no such file"),
                (["add", "--title", "x"], 64, "--name is required"),
                (["edit", "card_1"], 64, "Nothing to change"),
                (["reorder", "a", "a"], 64, "given twice"),
                (["list", "--server", "ftp://example.com"], 64, "is not a server address"),
                (["list", "--log-level", "loud"], 64, "use trace, debug"),
                (["list", "--bogus"], 64, "Unknown option"),
            ]
            for (arguments, status, message) in cases {
                let result = try await world.run(arguments)
                #expect(result.status == status, "\(result)")
                #expect(result.stderr.contains(message), "\(result)")
                #expect(!result.stderr.contains("Fatal error"), "\(result)")
                #expect(result.stdout.isEmpty || status == 64, "\(result)")
            }
            let badSetting = try await world.run("list", environment: ["CARDWALLET_TIMEOUTS_CONNECT": "forever"])
            #expect(badSetting.status == 64, "\(badSetting)")
            #expect(badSetting.stderr.contains("timeouts.connect (from CARDWALLET_TIMEOUTS_CONNECT)"))
        }
    }

    /// A server address without `/v1`: the server has no such endpoint (404 E01). The command
    /// says so plainly, says the base URL usually ends in `/v1`, names the address in use and
    /// where it came from, and exits with the usage status (a setting to fix).
    @Test func aServerAddressWithoutV1IsExplained() async throws {
        try await CLIWorld.with { world in
            let origin = world.server.baseURLString.replacingOccurrences(of: "/v1", with: "")
            let login = try await world.run(
                "login", "--server", origin, "--email", CLIWorld.email, "--password-stdin",
                input: CLIWorld.password + "\n")
            #expect(login.status == 64, "\(login)")
            #expect(login.stderr.contains("no such endpoint as POST /auth/login (404 E01)"), "\(login)")
            #expect(login.stderr.contains("usually ends in /v1"), "\(login)")
            #expect(login.stderr.contains("The address in use is \(origin) (from --server)"), "\(login)")
            #expect(login.stderr.contains("Set it with --server, CARDWALLET_SERVER"), "\(login)")
            #expect(login.stderr.split(separator: "\n").count == 1, "\(login)")
            #expect(try world.storedTokens().isEmpty)

            let fromEnvironment = try await world.run(
                "login", "--email", CLIWorld.email, "--password-stdin", input: CLIWorld.password + "\n",
                environment: ["CARDWALLET_SERVER": origin + "/"])
            #expect(fromEnvironment.status == 64, "\(fromEnvironment)")
            #expect(fromEnvironment.stderr.contains("(from CARDWALLET_SERVER)"), "\(fromEnvironment)")
        }
    }

    @Test func anUnreachableServerExitsWithTheNetworkStatus() async throws {
        try await CLIWorld.with { world in
            let address = "http://127.0.0.1:\(try RefusingPort.reserve())/v1"
            let result = try await world.run(
                "login", "--email", CLIWorld.email, "--password-stdin", input: CLIWorld.password + "\n",
                environment: ["CARDWALLET_SERVER": address])
            #expect(result.status == 6, "\(result)")
            #expect(result.stderr.contains("Could not connect"))
            #expect(result.stderr.split(separator: "\n").count == 1, "\(result)")
        }
    }

    @Test func aSessionTheServerEndedExitsWithTheLoginStatusAndRemovesTheTokens() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            _ = try await world.server.revokeRefreshTokens(email: CLIWorld.email)
            _ = try await world.server.expireAccessTokens(email: CLIWorld.email)
            let result = try await world.run("list")
            #expect(result.status == 3, "\(result)")
            #expect(result.stderr.contains("(E06)"))
            #expect(result.stderr.contains("Log in again"))
            #expect(try world.storedTokens().isEmpty)
            let wrong = try await world.run(
                "login", "--email", CLIWorld.email, "--password-stdin", input: "wrong-password\n")
            #expect(wrong.status == 3, "\(wrong)")
            #expect(wrong.stderr.contains("Wrong email or password (E02)"))
        }
    }

    @Test func loggingInAsAnotherAccountKeepsThePreviousOneSideBySide() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let firstTokens = try world.storedTokens()
            let minji = try await world.run(
                "login", "--email", "minji@cardwallet.dev", "--password-stdin", input: "minji1234\n")
            #expect(minji.status == 0, "\(minji)")
            #expect(minji.stdout.contains("the default now"), "\(minji)")
            #expect(try world.storedTokens().count == 4)
            #expect(Set(firstTokens).isSubset(of: Set(try world.storedTokens())))
            #expect(world.server.statistics.count("POST /auth/logout", status: 200) == 0)
            // The new account is the default; the first is used by naming it.
            let cards = try Self.decode([CardSummary].self, from: try await world.run("list", "--json"))
            #expect(cards.count == 3)
            #expect(try await world.run("status").stdout.contains("logged in as minji@cardwallet.dev"))
            let demo = try Self.decode(
                [CardSummary].self, from: try await world.run("--account", CLIWorld.email, "list", "--json"))
            #expect(demo.count == 12)
            let accounts = try await world.run("accounts")
            #expect(accounts.stdout.contains("*  minji@cardwallet.dev"), "\(accounts)")
            #expect(accounts.stdout.contains("   demo@cardwallet.dev"), "\(accounts)")
            // Logging one out leaves the other logged in, and says which is the default now.
            let logout = try await world.run("logout")
            #expect(logout.stdout.contains("Logged out minji@cardwallet.dev"), "\(logout)")
            #expect(logout.stdout.contains("The default account is now “demo@cardwallet.dev”"), "\(logout)")
            #expect(try await world.run("list").status == 0)
        }
    }

    static func decode<T: Decodable>(_ type: T.Type, from result: CLIResult) throws -> T {
        guard result.status == 0 else { throw TestFailure("\(result)") }
        return try CardWalletJSON.decoder().decode(type, from: Data(result.stdout.utf8))
    }
}

extension EndToEndTests {
    /// The kind of server is asked once, at the login (one probe, `GET /cards?limit=1`), not at
    /// all with --kind, and never again once the account is stored: later commands and logins
    /// read it from the record.
    @Test func theKindOfServerIsAskedOnceAtTheLoginAndNeverWithKind() async throws {
        try await CLIWorld.with { world in
            let probes = { world.server.statistics.count("GET /cards", status: 401) }
            let first = try await world.run(
                "login", "--kind", "cardAPI", "--email", CLIWorld.email, "--password-stdin",
                input: CLIWorld.password + "\n")
            #expect(first.status == 0, "\(first)")
            #expect(probes() == 0, "--kind: nothing asked before the login")
            let again = try await world.run(
                "login", "--email", CLIWorld.email, "--password-stdin", input: CLIWorld.password + "\n")
            #expect(again.status == 0, "\(again)")
            #expect(probes() == 0, "a stored account's kind is read from its record")
            let status = try await world.run("status", "--json")
            #expect(status.stdout.contains(#""kind" : "cardAPI""#), "\(status)")
            let other = try await world.run(
                "login", "--email", "minji@cardwallet.dev", "--password-stdin", input: "minji1234\n")
            #expect(other.status == 0, "\(other)")
            #expect(probes() == 0, "another account at the address says what kind it is")
            let unknown = try await world.run(
                "login", "--kind", "gopher", "--email", CLIWorld.email, "--password-stdin",
                input: CLIWorld.password + "\n")
            #expect(unknown.status == 64, "\(unknown)")
            #expect(unknown.stderr.contains("cardAPI, cardDAV"), "\(unknown)")
        }
    }
}
