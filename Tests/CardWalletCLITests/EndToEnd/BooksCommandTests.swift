import CardMockServer
import CardModels
import Foundation
import TestSupport
import Testing

/// Every book in one wallet from the command line (issue 40), on two accounts of the mock
/// server in-process (demo and minji): `--book all`, cards named by a prefix, a move killed at
/// every step and carried on by `sync` (the cards counted on the server after each case), a copy,
/// duplicates and a merge.
extension EndToEndTests {
    /// A card as `list --book all --json` gives it: its fields and its book.
    struct BookedCard: Decodable {
        var id: String
        var name: String
        var title: String?
        var email: String?
        var book: String
        var account: String
    }

    /// Logs demo in as account “demo”, then minji as “minji” (the default, as the last login).
    static func logInBoth(_ world: CLIWorld, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        for (email, password, name) in [
            (CLIWorld.email, CLIWorld.password, "demo"), ("minji@cardwallet.dev", "minji1234", "minji"),
        ] {
            let result = try await world.run(
                "login", "--email", email, "--password-stdin", "--name", name, input: password + "\n",
                sourceLocation: sourceLocation)
            #expect(result.status == 0, "\(result)", sourceLocation: sourceLocation)
        }
    }

    /// The names of the cards of `account` on the server now (read from it, not the cache).
    static func namesOnServer(_ world: CLIWorld, account: String) async throws -> [String] {
        try decode([CardSummary].self, from: try await world.run("list", "--json", "--account", account)).map(\.name)
    }

    @Test func everyBookInOneListAndCardsNamedByTheStartOfTheirIds() async throws {
        try await CLIWorld.with { world in
            try await Self.logInBoth(world)

            let table = try await world.run("list", "--book", "all")
            #expect(table.status == 0, "\(table)")
            #expect(table.stdout.hasPrefix("ID "))
            #expect(table.stdout.contains(" BOOK "))
            let adaRow = try #require(table.stdout.split(separator: "\n").first { $0.contains("Ada Lovelace") })
            #expect(adaRow.hasPrefix("demo-01 "))
            #expect(adaRow.contains(" demo "))
            let all = try Self.decode([BookedCard].self, from: try await world.run("list", "--book", "all", "--json"))
            #expect(all.count == 15)
            #expect(all.filter { $0.account == "minji" }.count == 3)
            #expect(all.first { $0.id == "minji-02" }?.book == "minji")

            // One book still looks as it did: no BOOK column.
            let one = try await world.run("list")
            #expect(one.status == 0, "\(one)")
            #expect(!one.stdout.contains(" BOOK "))

            // A book named on an account whose server has none is refused, not ignored.
            let named = try await world.run("list", "--book", "contacts")
            #expect(named.status == 64, "\(named)")
            #expect(named.stdout.isEmpty)
            #expect(named.stderr.contains("the account minji is on a card server, which has no address books"))

            // The start of an id, a search that finds one card; an ambiguous name lists the
            // candidates (with prefixes unique among every card) and exits 64.
            let shown = try await world.run("show", "minji-0")
            #expect(shown.status == 64, "\(shown)")
            #expect(shown.stderr.contains("“minji-0” names 3 cards"))
            #expect(shown.stderr.contains("minji-02  minji  Jordan Smith"))
            let jordan = try await world.run("show", "Jordan Smith")
            #expect(jordan.status == 0, "\(jordan)")
            #expect(jordan.stdout.contains("ID:         minji-02"))

            // An edit of another account's card goes to that card's book.
            let edited = try await world.run("edit", "demo-03", "--title", "Designer")
            #expect(edited.status == 0, "\(edited)")
            let demoCards = try Self.decode(
                [CardSummary].self, from: try await world.run("list", "--json", "--account", "demo"))
            #expect(demoCards.first { $0.id == "demo-03" }?.title == "Designer")
            #expect(try await Self.namesOnServer(world, account: "minji").count == 3)

            // query and export span every book.
            let query = try await world.run("query", "--book", "all", "jordan")
            #expect(query.status == 0, "\(query)")
            #expect(query.stdout.contains("jordan@jsmith-photo.example\tJordan Smith"))
            let export = try await world.run("export", "--book", "all", "--format", "json")
            #expect(export.status == 0, "\(export)")
            let exported = try JSONSerialization.jsonObject(with: Data(export.stdout.utf8)) as? [[String: Any]]
            #expect(exported?.count == 15)
        }
    }

    @Test(arguments: ["recorded", "created", "written", "deleted"])
    func aMoveKilledAtAnyStepEndsInOneBookAfterSync(_ step: String) async throws {
        try await CLIWorld.with { world in
            try await Self.logInBoth(world)
            #expect(try await world.run("list", "--book", "all").status == 0)

            let killed = try await world.run(
                "move", "demo-01", "--to", "minji", environment: ["CARDWALLET_TEST_KILL_AT": step])
            #expect(killed.status != 0, "\(killed)")
            #expect(!killed.stdout.contains("Moved"))
            let demoAfterKill = try await Self.namesOnServer(world, account: "demo")
            let minjiAfterKill = try await Self.namesOnServer(world, account: "minji")
            let copies = (demoAfterKill + minjiAfterKill).filter { $0 == "Ada Lovelace" }.count
            #expect(copies >= 1, "after a kill at \(step), the card is somewhere")

            let sync = try await world.run("sync")
            #expect(sync.status == 0, "\(sync)")
            #expect(try await Self.namesOnServer(world, account: "demo").contains("Ada Lovelace") == false)
            #expect(
                try await Self.namesOnServer(world, account: "minji").filter { $0 == "Ada Lovelace" }.count == 1,
                "after a kill at \(step) and a sync: one card, never two")

            // Asked again: nothing to move any more (the card is in minji).
            let again = try await world.run("move", "Ada Lovelace", "--to", "minji")
            #expect(again.status != 0, "\(again)")
            #expect(again.stderr.contains("is in minji already"), "\(again)")
            #expect(try await Self.namesOnServer(world, account: "minji").filter { $0 == "Ada Lovelace" }.count == 1)
        }
    }

    @Test func aCopyKilledAfterTheCreateMakesOneCopyAndDuplicatesAreMergedWithNothingLost() async throws {
        try await CLIWorld.with { world in
            try await Self.logInBoth(world)
            #expect(try await world.run("list", "--book", "all").status == 0)

            let killed = try await world.run(
                "copy", "minji-02", "--to", "demo", environment: ["CARDWALLET_TEST_KILL_AT": "created"])
            #expect(killed.status != 0, "\(killed)")
            #expect(try await world.run("sync").status == 0)
            #expect(try await Self.namesOnServer(world, account: "demo").filter { $0 == "Jordan Smith" }.count == 1)
            #expect(try await Self.namesOnServer(world, account: "minji").filter { $0 == "Jordan Smith" }.count == 1)

            // The copy is a likely duplicate of its original.
            let duplicates = try await world.run("duplicates", "--json")
            #expect(duplicates.status == 0, "\(duplicates)")
            let groups = try JSONSerialization.jsonObject(with: Data(duplicates.stdout.utf8)) as? [[String: Any]]
            let group = try #require(groups?.first)
            let cards = try #require(group["cards"] as? [[String: Any]])
            #expect(Set(cards.compactMap { $0["account"] as? String }) == ["demo", "minji"])
            let copyID = try #require(cards.first { $0["account"] as? String == "demo" }?["id"] as? String)

            // Give the copy something of its own, then merge it into the original.
            #expect(try await world.run("edit", copyID, "--phone", "+1 555 0100").status == 0)
            let refused = try await world.run("merge", "minji-02", copyID)
            #expect(refused.status == 64, "no terminal and no --yes: \(refused)")
            let merged = try await world.run("merge", "minji-02", copyID, "--yes")
            #expect(merged.status == 0, "\(merged)")
            #expect(merged.stdout.contains("1: minji-02 in minji"))
            #expect(try await Self.namesOnServer(world, account: "demo").contains("Jordan Smith") == false)
            let kept = try Self.decode(Card.self, from: try await world.run("show", "minji-02", "--json"))
            #expect(kept.fields.phone == "+1 555 0100", "the copy's phone number is kept")
            #expect(kept.fields.email == "jordan@jsmith-photo.example")
            let none = try await world.run("duplicates", "--json")
            #expect(none.stdout.trimmingCharacters(in: .whitespacesAndNewlines) == "[]", "\(none)")
        }
    }
}
