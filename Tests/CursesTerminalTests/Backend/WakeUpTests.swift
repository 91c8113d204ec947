import CardWalletUI
import Glibc
import PseudoTerminalSupport
import Testing

@testable import CursesTerminal

extension TerminalSessionTests {
    @Suite("Waking the loop")
    @MainActor
    struct WakeUpTests {
        /// Far longer than any test may take: a wait that ends before it was woken.
        static let longWait = 120_000

        @Test("A wake-up from another thread ends a long wait for a key, and is taken once")
        func wakeFromAnotherThread() async throws {
            let harness = try BackendHarness()
            let backend = try CursesBackend(configuration: harness.configuration())
            defer { backend.restore() }
            let waker = try #require(backend.waker)
            let wake = try #require(backend.wakeSignal)

            for _ in 0..<3 {
                let sender = Task.detached { waker() }
                // Returns when woken (before the wait or during it); had it waited its whole
                // timeout instead, the wake-up would still be pending below.
                #expect(backend.nextEvent(timeoutMilliseconds: Self.longWait) == nil)
                await sender.value
                #expect(!wake.isPending, "the wait ended because it took the wake-up")
                #expect(backend.nextEvent(timeoutMilliseconds: 0) == nil)
            }
        }

        @Test("Keys already typed come before a pending wake-up, escape sequences included")
        func keysBeforeWakeUps() throws {
            let harness = try BackendHarness()
            let backend = try CursesBackend(configuration: harness.configuration())
            defer { backend.restore() }
            let waker = try #require(backend.waker)

            harness.terminal.type("j\u{1B}[A\u{1B}OB한\u{1B}")
            waker()
            let expected: [Key] = [.char("j"), .up, .down, .char("한"), .escape]
            for key in expected {
                #expect(backend.nextEvent(timeoutMilliseconds: Self.longWait) == .key(key))
            }
            // Then the wake-up, at once.
            #expect(backend.nextEvent(timeoutMilliseconds: Self.longWait) == nil)
        }

        @Test("A key typed while the loop waits ends the wait and decodes, arrows included")
        func keysEndTheWait() async throws {
            let harness = try BackendHarness()
            let backend = try CursesBackend(configuration: harness.configuration())
            defer { backend.restore() }
            let master = harness.terminal.master
            for (text, key) in [("k", Key.char("k")), ("\u{1B}[B", .down), ("\u{1B}[5~", .pageUp)] {
                let bytes = Array(text.utf8)
                let typist = Task.detached {
                    _ = bytes.withUnsafeBytes { write(master, $0.baseAddress, $0.count) }
                }
                #expect(backend.nextEvent(timeoutMilliseconds: Self.longWait) == .key(key))
                await typist.value
            }
        }

        @Test("A resize still arrives while the loop can be woken")
        func resizeWithWakeUps() throws {
            let harness = try BackendHarness(columns: 40, rows: 10)
            let backend = try CursesBackend(configuration: harness.configuration())
            defer { backend.restore() }
            try harness.terminal.resize(columns: 60, rows: 20)
            deliverSignalToThisThread(SIGWINCH)
            #expect(backend.nextEvent(timeoutMilliseconds: Self.longWait) == .resize(width: 60, height: 20))
        }

        @Test("A late wake-up after restore does nothing")
        func wakeAfterRestore() throws {
            let harness = try BackendHarness()
            let backend = try CursesBackend(configuration: harness.configuration())
            let waker = try #require(backend.waker)
            backend.restore()
            #expect(backend.wakeSignal == nil)
            waker()
            #expect(backend.nextEvent(timeoutMilliseconds: Self.longWait) == nil)
        }
    }
}
