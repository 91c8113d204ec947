import CardMockServer
import Foundation
import PseudoTerminalSupport
import TestSupport
import Testing

extension EndToEndTests {
    /// A terminal that cannot move the cursor (`TERM=dumb`) gets one clear line and exit 1
    /// before anything starts: no live wallet nobody can see, taking keys.
    @Test func aDumbTerminalIsRefusedBeforeAnythingStarts() async throws {
        try await CLIWorld.with { world in
            for arguments in [[String](), ["demo"]] {
                let terminal = try PseudoTerminal()
                let interface = try world.startInterface(arguments, on: terminal, term: "dumb")
                let result = try await interface.finish()
                #expect(result.status == 1, "\(arguments): \(result)")
                let said = result.stderr + terminal.drain()
                #expect(said.contains("cannot move the cursor"), "\(arguments): \(said)")
                #expect(said.split(separator: "\n").filter { $0.hasPrefix("cardwallet:") }.count == 1)
                #expect(world.server.statistics.total == 0, "nothing was sent")
            }
        }
    }
}
