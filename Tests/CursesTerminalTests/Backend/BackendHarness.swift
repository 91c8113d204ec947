import CardWalletUI
import PseudoTerminalSupport

@testable import CursesTerminal

/// A backend on a fresh pseudo-terminal, as the tests drive it.
@MainActor
struct BackendHarness {
    let terminal: PseudoTerminal

    init(columns: Int = 40, rows: Int = 10) throws {
        terminal = try PseudoTerminal(columns: columns, rows: rows)
    }

    /// The slave side as the backend's terminal; no stray-output redirect (it would swallow
    /// the test runner's own output) and no Ctrl-Z suspend.
    func configuration(
        handlesSignals: Bool = false,
        colors: CursesBackend.ColorMode = .never,
        terminalType: String? = "xterm-256color"
    ) -> CursesBackend.Configuration {
        CursesBackend.Configuration(
            inputDescriptor: terminal.slave, outputDescriptor: terminal.slave, terminalType: terminalType,
            strayOutputPath: nil, colors: colors, handlesSignals: handlesSignals, suspendsOnCtrlZ: false
        )
    }

    /// Polls `backend` until an event comes or the deadline passes.
    func nextEvent(from backend: CursesBackend, within timeout: Duration = .seconds(20)) -> TerminalEvent? {
        let deadline = ContinuousClock.now + timeout
        while ContinuousClock.now < deadline {
            if let event = backend.nextEvent(timeoutMilliseconds: 50) { return event }
        }
        return nil
    }

    /// What the backend writes while `action` runs.
    func output(of action: () -> Void) throws -> [UInt8] {
        action()
        let marker = "<<mark-\(UInt32.random(in: 0...UInt32.max))>>"
        terminal.mark(marker)
        return try terminal.read(through: marker)
    }
}
