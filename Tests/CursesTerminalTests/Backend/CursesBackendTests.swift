import CNCurses
import CardWalletUI
import PseudoTerminalSupport
import Testing

@testable import CursesTerminal

#if canImport(Glibc)
    import Glibc
#endif

/// Every test that starts a real backend. Serialized as a whole (nested suites included): curses
/// and the signal handlers are process-wide, so only one backend may run at a time.
@Suite("Terminal sessions on a pseudo-terminal", .serialized)
enum TerminalSessionTests {}

extension TerminalSessionTests {
    @Suite("Curses backend")
    @MainActor
    struct CursesBackendTests {
        @Test("Paints ASCII and Korean text, then only what changed")
        func paintsChanges() throws {
            let harness = try BackendHarness(columns: 40, rows: 10)
            let backend = try CursesBackend(configuration: harness.configuration())
            defer { backend.restore() }
            #expect(backend.size == (width: 40, height: 10))

            var grid = Grid(width: 40, height: 10)
            grid.write("Hello, wallet", x: 0, y: 0)
            grid.write("한국어 명함", x: 2, y: 3)
            grid.write("Z", x: 39, y: 9)  // the bottom-right cell
            let first = try harness.output { backend.present(grid) }
            #expect(first.contains(text: "Hello, wallet"))
            #expect(first.contains(text: "한국어"))
            #expect(first.contains(text: "명함"))
            #expect(first.contains(text: "Z"))

            var next = grid
            next.write("J", x: 0, y: 0)
            let second = try harness.output { backend.present(next) }
            #expect(second.contains(text: "J"))
            #expect(!second.contains(text: "wallet"))
            #expect(
                second.count * 10 < first.count,
                "\(second.count) bytes for one cell, \(first.count) for the frame")

            let unchanged = try harness.output { backend.present(next) }
            #expect(unchanged.count < second.count)
        }

        @Test("Keys typed on the terminal arrive as Keys")
        func readsKeys() throws {
            let harness = try BackendHarness()
            let backend = try CursesBackend(configuration: harness.configuration())
            defer { backend.restore() }
            let typed: [(String, Key)] = [
                ("j", .char("j")), ("\u{1B}[A", .up), ("\t", .tab), ("\u{1B}[Z", .backTab),
                ("\u{1B}OB", .down), ("\r", .enter), ("\u{7F}", .backspace), ("한", .char("한")),
                ("\u{03}", .ctrl("c")), ("\u{04}", .ctrl("d")), ("\u{1B}[3~", .delete),
                ("\u{1B}[5~", .pageUp),
                ("\u{1B}[H", .home), ("\u{1B}OP", .function(1)), ("\u{1B}[24~", .function(12)),
                ("\u{1B}", .escape),
            ]
            for (bytes, key) in typed {
                harness.terminal.type(bytes)
                #expect(harness.nextEvent(from: backend) == .key(key), "typing \(bytes.debugDescription)")
            }
            #expect(backend.nextEvent(timeoutMilliseconds: 0) == nil)
        }

        @Test("A window-size change arrives as a resize, and the next frame repaints everything")
        func resizes() throws {
            let harness = try BackendHarness(columns: 40, rows: 10)
            let backend = try CursesBackend(configuration: harness.configuration())
            defer { backend.restore() }
            var grid = Grid(width: 40, height: 10)
            grid.write("before", x: 0, y: 0)
            _ = try harness.output { backend.present(grid) }

            try harness.terminal.resize(columns: 50, rows: 12)
            // The kernel signals a terminal's foreground process group; this pty has none.
            deliverSignalToThisThread(SIGWINCH)
            #expect(harness.nextEvent(from: backend) == .resize(width: 50, height: 12))
            #expect(backend.size == (width: 50, height: 12))

            var larger = Grid(width: 50, height: 12)
            larger.write("before", x: 0, y: 0)
            larger.write("after", x: 44, y: 11)
            let repaint = try harness.output { backend.present(larger) }
            #expect(repaint.contains(text: "before"))
            #expect(repaint.contains(text: "after"))
        }

        @Test("restore() puts the terminal modes, cursor and main screen back, once")
        func restores() throws {
            let harness = try BackendHarness()
            let original = try harness.terminal.modes()
            let backend = try CursesBackend(configuration: harness.configuration())
            #expect(try harness.terminal.modes().comparable != original.comparable, "curses mode is raw")
            backend.present(Grid(width: 40, height: 10))

            let restoring = try harness.output { backend.restore() }
            #expect(try harness.terminal.modes().comparable == original.comparable)
            #expect(restoring.contains(text: "\u{1B}[?1049l"), "rmcup: back to the main screen")
            #expect(restoring.contains(text: "\u{1B}[?25h"), "cnorm: cursor visible")
            #expect(backend.nextEvent(timeoutMilliseconds: 0) == nil)

            let again = try harness.output { backend.restore() }
            #expect(again.isEmpty)
        }

        @Test("The crash handler's restore writes the reset sequence and the saved modes")
        func emergencyRestore() throws {
            let harness = try BackendHarness()
            let original = try harness.terminal.modes()
            let backend = try CursesBackend(configuration: harness.configuration(handlesSignals: true))
            defer { backend.restore() }
            backend.present(Grid(width: 40, height: 10))

            let restoring = try harness.output { SignalTrap.emergencyRestore() }
            #expect(SignalTrap.didEmergencyRestore)
            #expect(restoring.contains(text: "\u{1B}[?1049l"))
            #expect(restoring.contains(text: "\u{1B}[?25h"))
            #expect(try harness.terminal.modes().comparable == original.comparable)
        }

        @Test("SIGTERM reaches the loop as Ctrl-C once, and the handlers go away on restore")
        func terminationSignal() throws {
            let before = cn_signal_is_default(SIGTERM)
            let harness = try BackendHarness()
            let backend = try CursesBackend(configuration: harness.configuration(handlesSignals: true))
            defer { backend.restore() }
            try #require(cn_signal_is_default(SIGTERM) == 0, "the handler must be installed before raising")

            // Process-directed, as from `kill`: a thread-directed raise() would stay pending on this
            // thread, since libdispatch's worker threads block such signals.
            deliverSignalToThisThread(SIGTERM)
            #expect(harness.nextEvent(from: backend) == .key(.ctrl("c")))
            #expect(backend.terminationSignal == SIGTERM)
            #expect(backend.nextEvent(timeoutMilliseconds: 0) == nil)

            backend.restore()
            #expect(cn_signal_is_default(SIGTERM) == before)
        }

        @Test("A termination request the loop never asked about is still reported after restore")
        func terminationSeenAtRestore() throws {
            let harness = try BackendHarness()
            let backend = try CursesBackend(configuration: harness.configuration(handlesSignals: true))
            defer { backend.restore() }
            try #require(cn_signal_is_default(SIGINT) == 0, "the handler must be installed before raising")

            deliverSignalToThisThread(SIGINT)
            let deadline = ContinuousClock.now + .seconds(20)
            while SignalTrap.pendingSignal == nil, ContinuousClock.now < deadline {}
            #expect(backend.terminationSignal == nil)
            backend.restore()
            #expect(backend.terminationSignal == SIGINT)
        }

        @Test("Colours follow the role; with colours off only attributes remain")
        func colours() throws {
            var grid = Grid(width: 20, height: 2)
            grid.write("failed", x: 0, y: 0, style: Style(color: .error))
            grid.write("selected", x: 0, y: 1, style: Style(.reverse))
            for colors in [CursesBackend.ColorMode.automatic, .never] {
                let harness = try BackendHarness(columns: 20, rows: 2)
                let backend = try CursesBackend(configuration: harness.configuration(colors: colors))
                let painted = try harness.output { backend.present(grid) }
                backend.restore()
                let red = painted.contains(text: "\u{1B}[31m")
                let reverse = painted.contains(text: "\u{1B}[7m") || painted.contains(text: ";7m")
                #expect(reverse)
                if colors == .never {
                    #expect(!red)
                } else if Palette.environmentAllowsColor(noColor: CursesBackend.environment("NO_COLOR")) {
                    #expect(red)
                }
            }
        }
    }
}
