import CardMockServer
import CardModels
import Foundation
import PseudoTerminalSupport
import Synchronization
import TestSupport
import Testing

#if canImport(Glibc)
    import Glibc
#endif

/// How a test makes the interface quit.
enum InterfaceQuit: Sendable, CustomTestStringConvertible {
    /// The `q` key on the card list.
    case key
    /// A signal: SIGINT is Ctrl-C outside raw mode, SIGTERM a `kill`, SIGHUP a closed window.
    case signal(Int32)

    var testDescription: String {
        switch self {
        case .key: "q"
        case .signal(SIGINT): "SIGINT"
        case .signal(SIGTERM): "SIGTERM"
        case .signal(SIGHUP): "SIGHUP"
        case .signal(let number): "signal \(number)"
        }
    }

    /// The exit statuses that fit: 0 after `q`; 128 + the signal (or death by it) after a signal.
    var statuses: [Int32] {
        switch self {
        case .key: [0]
        case .signal(let number): [number, 128 + number]
        }
    }
}

extension EndToEndTests {
    /// The interface quit while a token refresh is on the wire: the server rotates the pair
    /// whether or not anyone is left to hear the answer, so ending before the new pair is saved
    /// would leave a spent refresh token and the next start would find the session ended (E06).
    /// The interface waits for the save after restoring the terminal, as the scripting commands
    /// do; the next command just works.
    @Test(arguments: [InterfaceQuit.key, .signal(SIGTERM), .signal(SIGHUP)])
    func quittingTheInterfaceDuringARefreshKeepsTheSession(_ how: InterfaceQuit) async throws {
        var configuration = MockServerConfiguration.testing
        configuration.latency = .seconds(1)  // every answer takes a second: time to quit mid-refresh
        try await CLIWorld.with(configuration) { world in
            try await world.login()
            // Past the access TTL on the server's clock: the first list gets E04, then refreshes.
            world.clock.advance(by: .seconds(6 * 60))

            let terminal = try PseudoTerminal()
            let screen = ScreenReader(terminal)
            let interface = try world.startInterface(on: terminal)
            defer { interface.signal(SIGKILL) }
            try await waitUntil("the interface to send the refresh") {
                let log = (try? String(contentsOfFile: world.logFile, encoding: .utf8)) ?? ""
                return log.contains("→ POST /v1/auth/refresh")
            }
            let answeredBeforeTheSignal = world.server.statistics.count("POST /auth/refresh")
            switch how {
            case .key: terminal.type("q")
            case .signal(let number): interface.signal(number)
            }
            let quit = try await interface.finish()
            await screen.stop()

            #expect(how.statuses.contains(quit.status), "\(quit)")
            if answeredBeforeTheSignal == 0 {
                #expect(quit.stderr.contains("finishing the token refresh"), "\(quit)")
            }
            #expect(screen.text.contains("\u{1B}[?1049l"), "the terminal was not restored")  // rmcup
            let next = try await world.run("list")
            #expect(next.status == 0, "\(next)")
            let stats = world.server.statistics
            #expect(stats.count("POST /auth/refresh", status: 200) == 1)
            #expect(stats.count("POST /auth/refresh", status: 401) == 0)  // never E06
        }
    }
}

/// Reads what the interface paints on the master side of a pseudo-terminal, in the
/// background, so a full terminal buffer never blocks it.
final class ScreenReader: Sendable {
    private let received = Mutex("")
    private let task = Mutex<Task<Void, Never>?>(nil)

    init(_ terminal: PseudoTerminal) {
        let task = Task.detached { [weak self] in
            while !Task.isCancelled {
                self?.append(terminal.drain())
                try? await Task.sleep(for: .milliseconds(5))
            }
            self?.append(terminal.drain())
        }
        self.task.withLock { $0 = task }
    }

    private func append(_ text: String) {
        if !text.isEmpty { received.withLock { $0 += text } }
    }

    /// Everything read so far.
    var text: String { received.withLock { $0 } }

    /// Stops reading, after one last read.
    func stop() async {
        let task = task.withLock { $0 }
        task?.cancel()
        await task?.value
    }
}
