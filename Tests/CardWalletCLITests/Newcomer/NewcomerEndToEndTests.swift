import CardMockServer
import CardModels
import Foundation
import TestSupport
import Testing

/// The scripting commands as a newcomer met them (issue "A newcomer's first hour"): the real
/// binary against the mock server in-process.
extension EndToEndTests {
    /// Item 9: unknown options are usage errors; `edit --image` and `--remove-image` change
    /// the image, with the card's version as If-Match.
    @Test func editChangesTheImageAndRefusesUnknownOptions() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let id = "demo-01"
            let bogus = try await world.run("edit", id, "--bogus")
            #expect(bogus.status == 64, "\(bogus)")
            #expect(bogus.stderr.hasPrefix("cardwallet: Unknown option '--bogus'"), "\(bogus)")
            #expect(!bogus.stderr.contains("Nothing to change"), "\(bogus)")

            let before = try Self.decode(Card.self, from: try await world.run("show", id, "--json"))
            let image = try world.folder.write(Fixtures.png, to: "portrait.png")
            let replaced = try await world.run("edit", id, "--image", image, "--json")
            let afterImage = try Self.decode(Card.self, from: replaced)
            #expect(afterImage.revision.number == (before.revision.number ?? 0) + 1)
            #expect(afterImage.image == CardImageInfo(contentType: "image/png", size: Fixtures.png.count))
            #expect(afterImage.fields == before.fields)

            // Fields and image at once: one version for each change.
            let both = try Self.decode(
                Card.self, from: try await world.run("edit", id, "--title", "Countess", "--remove-image", "--json"))
            #expect(both.revision.number == (afterImage.revision.number ?? 0) + 2)
            #expect(both.fields.title == "Countess")
            #expect(!both.hasImage && both.image == nil)

            let again = try await world.run("edit", id, "--remove-image")
            #expect(again.status == 0, "\(again)")
            #expect(again.stderr.contains("nothing to change: the card has no image"), "\(again)")

            // A stale version: nothing changes, exit 5 as for fields.
            let stale = try await world.run("edit", id, "--image", image, "--if-version", "\(before.revision)")
            #expect(stale.status == 5, "\(stale)")
            #expect(stale.stderr.contains("changed since it was read (E07)"), "\(stale)")
            #expect(try Self.decode(Card.self, from: try await world.run("show", id, "--json")) == both)

            // A bad file: nothing is read or sent.
            let text = try world.folder.write("not an image", to: "notes.txt")
            let requests = world.server.statistics.count("GET /card/{cardId}")
            let bad = try await world.run("edit", id, "--image", text)
            #expect(bad.status == 64, "\(bad)")
            #expect(bad.stderr.hasPrefix("cardwallet: Cannot upload"), "\(bad)")
            #expect(world.server.statistics.count("GET /card/{cardId}") == requests)
        }
    }

    /// Item 10: with no session stored, a server that is down or an address without `/v1` is
    /// reported as `login` reports it, not as "Not logged in".
    @Test func withoutASessionTheServerIsCheckedAsLoginChecksIt() async throws {
        try await CLIWorld.with { world in
            let down = "http://127.0.0.1:\(try RefusingPort.reserve())/v1"
            for arguments in [["list"], ["show", "demo-01"], ["add", "--name", "x"], ["rm", "demo-01", "--yes"]] {
                let result = try await world.run(arguments, environment: ["CARDWALLET_SERVER": down])
                #expect(result.status == 6, "\(result)")
                #expect(result.stderr.hasPrefix("cardwallet: Could not connect to the card server"), "\(result)")
                #expect(result.stderr.split(separator: "\n").count == 1, "\(result)")
            }
            let origin = world.server.baseURLString.replacingOccurrences(of: "/v1", with: "")
            let wrong = try await world.run("list", "--server", origin)
            #expect(wrong.status == 64, "\(wrong)")
            #expect(wrong.stderr.contains("(404 E01)") && wrong.stderr.contains("usually ends in /v1"), "\(wrong)")
            #expect(wrong.stderr.contains("The address in use is \(origin) (from --server)"), "\(wrong)")
            #expect(wrong.stderr.split(separator: "\n").count == 1, "\(wrong)")

            let right = try await world.run("list")
            #expect(right.status == 3, "\(right)")
            #expect(right.stderr.hasPrefix("cardwallet: Not logged in"), "\(right)")
        }
    }

    /// Items 15 and 16: one prefix for every message, `[]` for nothing, the query in `-v`
    /// lines, and `status --json` without a token.
    @Test func messagesJSONAndVerboseLinesAreConsistent() async throws {
        try await CLIWorld.with { world in
            for arguments in [
                ["--bogus"], ["list", "--bogus"], ["edit", "demo-01"], ["list", "--server", "ftp://x"],
                ["add", "--name", "x", "--phone", "call me"], ["mock-server", "--port", "70000"], ["demo"],
            ] {
                let result = try await world.run(arguments)
                #expect(result.status != 0, "\(result)")
                #expect(result.stderr.hasPrefix("cardwallet: "), "\(result)")
                #expect(!result.stderr.contains("Error:") && !result.stderr.contains(".."), "\(result)")
            }

            let loggedOut = try await world.run("status", "--json")
            #expect(loggedOut.status == 3, "\(loggedOut)")
            let outObject = try #require(
                try JSONSerialization.jsonObject(with: Data(loggedOut.stdout.utf8)) as? [String: Any])
            #expect(outObject["state"] as? String == "loggedOut")
            #expect(outObject["serverFrom"] as? String == "CARDWALLET_SERVER")
            #expect(outObject["email"] == nil)

            try await world.login()
            let status = try await world.run("status", "--json")
            #expect(status.status == 0, "\(status)")
            let object = try #require(
                try JSONSerialization.jsonObject(with: Data(status.stdout.utf8)) as? [String: Any])
            #expect(object["state"] as? String == "loggedIn")
            #expect(object["email"] as? String == CLIWorld.email)
            #expect(object["server"] as? String == world.server.baseURLString)
            #expect(object["tokenFile"] as? String == world.tokenFile)
            #expect(object["accessTokenExpiresAt"] is String && object["refreshTokenExpiresAt"] is String)
            for token in try world.storedTokens() { #expect(!status.allOutput.contains(token)) }

            let none = try await world.run("list", "--json", "--query", "no card has this")
            #expect(none.status == 0, "\(none)")
            #expect(none.stdout == "[]\n")

            let verbose = try await world.run("list", "-v", "--query", "ada")
            #expect(verbose.status == 0, "\(verbose)")
            #expect(verbose.stderr.contains("cardwallet: → GET /v1/cards?"), "\(verbose)")
            // The query is answered by the local cache over every field (docs/Cache.md): the
            // list request carries no `q`.
            #expect(!verbose.stderr.contains("q=ada"), "\(verbose)")
            #expect(verbose.stderr.contains("cardwallet: ← 200 GET /v1/cards?"), "\(verbose)")

            let table = try await world.run("list")
            #expect(table.stdout.hasPrefix("ID "), "\(table)")
            let heading = try #require(table.stdout.split(separator: "\n").first)
            #expect(heading.split(separator: " ") == ["ID", "NAME", "COMPANY", "TITLE", "EMAIL"])
        }
    }
}
