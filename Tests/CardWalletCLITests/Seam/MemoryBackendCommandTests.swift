import ArgumentParser
import CardBackend
import CardModels
import CardWalletLive
import Foundation
import InMemoryBackend
import TestSupport
import Testing
import TokenStore

@testable import cardwallet

/// The scripting commands through the backend seam, on the memory backend (string revisions,
/// sync tokens, no order of its own): what `list`, `show`, `add`, `edit`, `rm` and `reorder` do
/// on a server that is not the card API.
@Suite struct MemoryBackendCommandTests {
    /// Runs `arguments` as `cardwallet` would, in this task, on `backend`, with a private state
    /// and cache folder; returns the exit status and what it printed.
    private static func run(
        _ arguments: [String], on backend: MemoryBackend, folder: TemporaryFolder
    ) async -> (status: Int32, out: String, err: String) {
        let capture = ConsoleCapture()
        let environment = [
            "HOME": folder.path, "XDG_STATE_HOME": folder.path("state"), "XDG_CACHE_HOME": folder.path("cache"),
            "XDG_CONFIG_HOME": folder.path("config"),
        ]
        var status: Int32 = 0
        // The memory backend is registered as a backend module would be: its provider in the
        // composition root's list, nothing else.
        let providers = Providers.standard + [MemoryProvider(backend)]
        await Console.$capture.withValue(capture) {
            await ClientCommandRunner.$environmentOverride.withValue(environment) {
                await ClientCommandRunner.$providersOverride.withValue(providers) {
                    do {
                        var command = try CardWalletCommand.parseAsRoot(arguments)
                        if var asyncCommand = command as? any AsyncParsableCommand {
                            try await asyncCommand.run()
                        } else {
                            try command.run()
                        }
                    } catch let exit as ExitCode {
                        status = exit.rawValue
                    } catch {
                        status = -1
                        capture.append("\(error)", error: true)
                    }
                }
            }
        }
        return (status, capture.out, capture.err)
    }

    /// Remembers the memory backend's account as the default one, as a login there would.
    private static func rememberAccount(of backend: MemoryBackend, in folder: TemporaryFolder) async throws {
        let store = TokenStore(path: folder.path("state/cardwallet/tokens.json"))
        try await store.saveAccount(
            AccountRecord(name: "ann", kind: MemoryProvider.kind.id, server: backend.server, user: "ann@example.com"),
            makeDefault: true)
    }

    @Test func theCommandsWorkOnABackendThatIsNotTheCardAPI() async throws {
        let folder = try TemporaryFolder("seam-cli")
        defer { folder.remove() }
        let backend = MemoryBackend()
        _ = try await backend.logIn(account: "ann@example.com", password: "secret")
        backend.add(CardFields(name: "Ada Lovelace", company: "Analytical Engines"))
        try await Self.rememberAccount(of: backend, in: folder)

        // The stored account's kind comes from its record, read back; no --server anywhere.
        let status = await Self.run(["status", "--json"], on: backend, folder: folder)
        #expect(status.status == 0, "\(status.err)")
        let statusObject = try JSONSerialization.jsonObject(with: Data(status.out.utf8)) as? [String: Any]
        #expect(statusObject?["kind"] as? String == "memory")
        #expect(statusObject?["account"] as? String == "ann")
        let accounts = await Self.run(["accounts"], on: backend, folder: folder)
        #expect(accounts.out.contains("* "), "\(accounts.out)")
        #expect(accounts.out.contains("memory"), "\(accounts.out)")

        let listed = await Self.run(["list", "--json"], on: backend, folder: folder)
        #expect(listed.status == 0, "\(listed.err)")
        #expect(listed.out.contains("Ada Lovelace"))

        let added = await Self.run(["add", "--name", "Grace Hopper"], on: backend, folder: folder)
        #expect(added.status == 0, "\(added.err)")
        let id = added.out.trimmingCharacters(in: .whitespacesAndNewlines)
        #expect(backend.cards.map(\.id).contains(id))

        // `show --json` prints the opaque revision as the card's version, as a string.
        let shown = await Self.run(["show", id, "--json"], on: backend, folder: folder)
        #expect(shown.status == 0, "\(shown.err)")
        let revision = try #require(backend.cards.first { $0.id == id }?.revision)
        let object = try JSONSerialization.jsonObject(with: Data(shown.out.utf8)) as? [String: Any]
        #expect(object?["version"] as? String == revision.rawValue, "\(shown.out)")

        // `--if-version` takes it; a stale one is a conflict (exit 5), nothing changed.
        let edited = await Self.run(
            ["edit", id, "--title", "Rear Admiral", "--if-version", revision.rawValue], on: backend, folder: folder)
        #expect(edited.status == 0, "\(edited.err)")
        let stale = await Self.run(
            ["edit", id, "--title", "Stale", "--if-version", revision.rawValue], on: backend, folder: folder)
        #expect(stale.status == 5, "\(stale.err)")
        #expect(backend.cards.first { $0.id == id }?.fields.title == "Rear Admiral")

        // No order on the server: reorder says so and keeps the order here.
        let reordered = await Self.run(["reorder", id], on: backend, folder: folder)
        #expect(reordered.status == 0, "\(reordered.err)")
        #expect(reordered.err.contains("keeps no order of its own"))
        let again = await Self.run(["list", "--json"], on: backend, folder: folder)
        let names = try JSONDecoder().decode([CardSummaryName].self, from: Data(again.out.utf8)).map(\.name)
        #expect(names == ["Grace Hopper", "Ada Lovelace"])

        let removed = await Self.run(["rm", id, "--yes"], on: backend, folder: folder)
        #expect(removed.status == 0, "\(removed.err)")
        #expect(!backend.cards.map(\.id).contains(id))

        // Offline, a write is refused with exit 6 (never queued silently by a script).
        backend.setOffline(true)
        let offline = await Self.run(["add", "--name", "Nobody"], on: backend, folder: folder)
        #expect(offline.status == 6, "\(offline.err)")
        backend.setOffline(false)
        #expect(backend.cards.count == 1)
    }
}

/// The name of a `list --json` entry.
private struct CardSummaryName: Decodable {
    var name: String
}
