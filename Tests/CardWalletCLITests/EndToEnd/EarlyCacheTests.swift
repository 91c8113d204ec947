import Foundation
import PseudoTerminalSupport
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// The interface reads its cache at the very start, before curses (CardWalletLive's
/// `EarlyWallet`): what that read has to say goes where the rest of the log goes, never onto
/// the person's terminal.
extension EndToEndTests {
    /// A damaged cache at the start is moved aside and rebuilt, and its log line (a warning)
    /// does not reach the terminal: the early read's logger is made after the logging setup.
    @Test func aDamagedCacheAtTheStartIsMovedAsideWithoutALineOnTheTerminal() async throws {
        try await CLIWorld.with { world in
            try await world.login()
            let cacheFolder = world.folder.path("home") + "/.cache/cardwallet"
            // A first run caches the wallet.
            try await runInterfaceUntilTheCardsAreListed(world)
            let names = try FileManager.default.contentsOfDirectory(atPath: cacheFolder)
            let database = try #require(names.first { $0.hasPrefix("wallet-") && $0.hasSuffix(".sqlite") })
            let path = cacheFolder + "/" + database
            for suffix in ["-wal", "-shm"] { unlink(path + suffix) }
            try Data(repeating: 0x5A, count: 8192).write(to: URL(fileURLWithPath: path))

            let shown = try await runInterfaceUntilTheCardsAreListed(world)
            #expect(FileManager.default.fileExists(atPath: path + ".damaged"), "moved aside")
            #expect(!shown.contains("could not be used"), "a log line reached the terminal:\n\(shown)")
            #expect(!shown.contains("moved aside"), "a log line reached the terminal:\n\(shown)")
        }
    }

    /// Starts the interface, waits for the server's cards on screen, quits; returns what the
    /// terminal received.
    @discardableResult
    private func runInterfaceUntilTheCardsAreListed(_ world: CLIWorld) async throws -> String {
        let terminal = try PseudoTerminal()
        let screen = ScreenReader(terminal)
        let interface = try world.startInterface(on: terminal)
        defer { interface.signal(SIGKILL) }
        try await waitUntil("the server's cards on screen") { screen.text.contains("Ada Lovelace") }
        terminal.type("q")
        let result = try await interface.finish()
        await screen.stop()
        #expect(result.status == 0, "\(result)")
        return screen.text + result.stdout + result.stderr
    }
}
