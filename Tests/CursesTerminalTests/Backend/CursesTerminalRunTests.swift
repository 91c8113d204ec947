import CNCurses
import CardWalletUI
import PseudoTerminalSupport
import Testing

@testable import CursesTerminal

#if canImport(Glibc)
    import Glibc
#endif

extension TerminalSessionTests {
    /// `CursesTerminal.run` and start-up errors.
    @Suite("Starting and stopping")
    @MainActor
    struct CursesTerminalRunTests {
        struct BodyFailure: Error, Equatable {}

        @Test("run returns the body's result and restores the terminal")
        func returns() async throws {
            let harness = try BackendHarness()
            let original = try harness.terminal.modes()
            let answer = try await CursesTerminal.run(configuration: harness.configuration()) { backend in
                backend.present(Grid(width: 40, height: 10))
                return 42
            }
            #expect(answer == 42)
            #expect(try harness.terminal.modes().comparable == original.comparable)
        }

        @Test("run restores the terminal when the body throws, and rethrows")
        func rethrowsBodyErrors() async throws {
            let harness = try BackendHarness()
            let original = try harness.terminal.modes()
            await #expect(throws: BodyFailure()) {
                try await CursesTerminal.run(configuration: harness.configuration()) { _ in
                    throw BodyFailure()
                }
            }
            #expect(try harness.terminal.modes().comparable == original.comparable)
            // The terminal is free again.
            let backend = try CursesBackend(configuration: harness.configuration())
            backend.restore()
        }

        @Test("run reports a termination signal after restoring, with exit status 128 + signal")
        func terminated() async throws {
            let harness = try BackendHarness()
            let original = try harness.terminal.modes()
            let error = await #expect(throws: CursesTerminalError.self) {
                try await CursesTerminal.run(configuration: harness.configuration(handlesSignals: true)) {
                    backend in
                    try #require(cn_signal_is_default(SIGHUP) == 0)
                    deliverSignalToThisThread(SIGHUP)
                    let deadline = ContinuousClock.now + .seconds(20)
                    while backend.terminationSignal == nil, ContinuousClock.now < deadline {
                        _ = backend.nextEvent(timeoutMilliseconds: 50)
                    }
                }
            }
            #expect(error == .terminated(signal: SIGHUP))
            #expect(error?.exitCode == 128 + SIGHUP)
            #expect(error?.description == "stopped by SIGHUP.")
            #expect(try harness.terminal.modes().comparable == original.comparable)
        }

        @Test("Input or output that is not a terminal is a clear error")
        func notATerminal() throws {
            var ends: [Int32] = [0, 0]
            try #require(pipe(&ends) == 0)
            defer { for end in ends { close(end) } }
            let harness = try BackendHarness()
            var configuration = harness.configuration()
            configuration.inputDescriptor = ends[0]
            #expect(throws: CursesTerminalError.notATerminal(.input)) {
                try CursesBackend(configuration: configuration)
            }
            configuration = harness.configuration()
            configuration.outputDescriptor = ends[1]
            #expect(throws: CursesTerminalError.notATerminal(.output)) {
                try CursesBackend(configuration: configuration)
            }
            #expect(
                CursesTerminalError.notATerminal(.output).description.contains("without redirecting output"))
        }

        @Test("An unset or unknown TERM is a clear error and leaves the terminal untouched")
        func unknownTerminal() throws {
            let harness = try BackendHarness()
            let original = try harness.terminal.modes()
            #expect(throws: CursesTerminalError.terminalTypeUnset) {
                try CursesBackend(configuration: harness.configuration(terminalType: ""))
            }
            #expect(throws: CursesTerminalError.unknownTerminalType("no-such-terminal")) {
                try CursesBackend(
                    configuration: harness.configuration(
                        handlesSignals: true, terminalType: "no-such-terminal"))
            }
            #expect(try harness.terminal.modes().comparable == original.comparable)
            #expect(
                CursesTerminalError.unknownTerminalType("x\u{1B}").description.contains(#"TERM="x\u{1B}""#))
            #expect(
                CursesTerminalError.unknownTerminalType("x").description.contains(
                    "export TERM=xterm-256color"))
            // Nothing stays claimed.
            let backend = try CursesBackend(configuration: harness.configuration())
            backend.restore()
        }

        @Test("Only one backend may own the terminal at a time")
        func oneAtATime() throws {
            let harness = try BackendHarness()
            let backend = try CursesBackend(configuration: harness.configuration())
            #expect(throws: CursesTerminalError.alreadyActive) {
                try CursesBackend(configuration: harness.configuration())
            }
            backend.restore()
            let next = try CursesBackend(configuration: harness.configuration())
            backend.restore()  // a stale restore must not release the new owner's terminal
            #expect(throws: CursesTerminalError.alreadyActive) {
                try CursesBackend(configuration: harness.configuration())
            }
            next.restore()
        }

        @Test("A UTF-8 locale is in effect")
        func locale() {
            #expect(TerminalLocale.ensureUTF8())
            #expect(TerminalLocale.isUTF8)
        }
    }
}
