import CardWalletUI
import Foundation
import PseudoTerminalSupport
import Testing

@testable import CursesTerminal

extension TerminalSessionTests {
    /// Bracketed paste, the mouse, joiners typed into a field, and terminals that cannot draw.
    @Suite("Paste, mouse and terminal types")
    @MainActor
    struct PasteAndMouseTests {
        @Test("A bracketed paste arrives as one paste: its line breaks are text, never Enter")
        func bracketedPaste() throws {
            let harness = try BackendHarness()
            var backend: CursesBackend?
            let started = try harness.output { backend = try? CursesBackend(configuration: harness.configuration()) }
            let terminal = try #require(backend)
            defer { terminal.restore() }
            #expect(started.contains(text: "\u{1B}[?2004h"), "bracketed paste is turned on")
            harness.terminal.type("\u{1B}[200~Hello\rWorld\r\nand \u{1B}[31mmore\t!\u{1B}[201~j")
            #expect(harness.nextEvent(from: terminal) == .paste("Hello\nWorld\nand [31mmore\t!"))
            // What follows the paste is keys again.
            #expect(harness.nextEvent(from: terminal) == .key(.char("j")))
            let ended = try harness.output { terminal.restore() }
            #expect(ended.contains(text: "\u{1B}[?2004l"), "and off again")
        }

        @Test("Presses and the wheel arrive as mouse events at their cell")
        func mouse() throws {
            let harness = try BackendHarness()
            let backend = try CursesBackend(configuration: harness.configuration())
            defer { backend.restore() }
            // SGR (1006) reports: button 0 pressed at column 5 row 3; wheel up, wheel down.
            harness.terminal.type("\u{1B}[<0;5;3M")
            #expect(harness.nextEvent(from: backend) == .mouse(MouseEvent(.press, x: 4, y: 2)))
            harness.terminal.type("\u{1B}[<64;10;4M")
            #expect(harness.nextEvent(from: backend) == .mouse(MouseEvent(.wheelUp, x: 9, y: 3)))
            harness.terminal.type("\u{1B}[<65;10;4M")
            #expect(harness.nextEvent(from: backend) == .mouse(MouseEvent(.wheelDown, x: 9, y: 3)))
        }

        @Test("Zero-width joiners and non-joiners are typed; bidi overrides are not")
        func joiners() throws {
            let harness = try BackendHarness()
            let backend = try CursesBackend(configuration: harness.configuration())
            defer { backend.restore() }
            harness.terminal.type("👩\u{200D}👧\u{200C}\u{202E}x")
            var events: [TerminalEvent] = []
            while let event = harness.nextEvent(from: backend, within: .seconds(2)) { events.append(event) }
            #expect(
                events == [
                    .key(.char("👩")), .key(.char("\u{200D}")), .key(.char("👧")), .key(.char("\u{200C}")),
                    .key(.char("x")),
                ])
        }

        @Test("Copying writes OSC 52 with the text in base64")
        func copy() throws {
            let harness = try BackendHarness()
            let backend = try CursesBackend(configuration: harness.configuration())
            defer { backend.restore() }
            let written = try harness.output { backend.copyToClipboard("ada@example.com 김") }
            let base64 = Data("ada@example.com 김".utf8).base64EncodedString()
            #expect(written.contains(text: "\u{1B}]52;c;" + base64 + "\u{07}"))
        }

        @Test("A terminal that cannot move the cursor is refused with one clear sentence")
        func dumbTerminal() throws {
            let harness = try BackendHarness()
            #expect(throws: CursesTerminalError.cannotAddressCursor("dumb")) {
                _ = try CursesBackend(configuration: harness.configuration(terminalType: "dumb"))
            }
            #expect(CursesBackend.capabilityProblem(type: "dumb", descriptor: harness.terminal.slave) != nil)
            #expect(CursesBackend.capabilityProblem(type: "xterm-256color", descriptor: harness.terminal.slave) == nil)
            #expect(
                CursesBackend.capabilityProblem(type: "no-such-terminal-xyz", descriptor: harness.terminal.slave)
                    == .unknownTerminalType("no-such-terminal-xyz"))
            let text = CursesTerminalError.cannotAddressCursor("dumb").description
            #expect(text.contains("cannot move the cursor") && text.contains("scripting commands"))
        }
    }
}
