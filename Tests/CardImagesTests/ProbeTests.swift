import Foundation
import PseudoTerminalSupport
import Testing

@testable import CardImages

#if canImport(Glibc)
    import Glibc
#endif

/// The live probe against a pseudo-terminal whose other end plays the terminal.
@Suite("Probing a terminal")
struct ProbeTests {
    @Test("a terminal that answers: the probe stops at DA1, long before its deadline")
    func answering() throws {
        let pty = try PseudoTerminal()
        _ = pty.answer(after: "\u{1B}[c", with: "\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;18;9t\u{1B}[?62;22c")
        let started = ContinuousClock.now
        let answers = try #require(TerminalProbe.query(pty.slave, timeout: .seconds(30)))
        #expect(
            answers
                == TerminalAnswers(
                    kittyGraphics: true, deviceAttributes: [62, 22], cellPixels: PixelSize(width: 9, height: 18)))
        // Far below the deadline: it did not wait for it (an order, not a speed, assertion).
        #expect(ContinuousClock.now - started < .seconds(25))
        let choice = ImageProtocolDetector.choose(environment: ["TERM": "xterm-256color"], answers: answers)
        #expect(choice.imageProtocol == .kitty)
    }

    @Test("a terminal that answers nothing: the probe gives up at its deadline, and blocks are chosen")
    func silent() throws {
        let pty = try PseudoTerminal()
        let answers = try #require(TerminalProbe.query(pty.slave, timeout: .milliseconds(100)))
        #expect(!answers.answeredAnything)
        #expect(
            ImageProtocolDetector.choose(environment: ["TERM": "xterm-kitty"], answers: answers).imageProtocol
                == .blocks)
    }

    @Test("the terminal's modes are restored after the probe")
    func restoresModes() throws {
        let pty = try PseudoTerminal()
        var before = termios()
        tcgetattr(pty.slave, &before)
        _ = TerminalProbe.query(pty.slave, timeout: .milliseconds(50))
        var after = termios()
        tcgetattr(pty.slave, &after)
        #expect(before.c_lflag == after.c_lflag)
    }

    @Test("something that is not a terminal is not probed")
    func notATerminal() throws {
        var pipeEnds: [Int32] = [0, 0]
        #expect(pipe(&pipeEnds) == 0)
        defer {
            close(pipeEnds[0])
            close(pipeEnds[1])
        }
        #expect(TerminalProbe.query(pipeEnds[1], timeout: .milliseconds(50)) == nil)
    }
}

extension PseudoTerminal {
    /// Reads what the probe wrote until `marker` arrives (or 10 s pass), then answers, on a
    /// thread of its own (the probe blocks the test's).
    func answer(after marker: String, with reply: String) -> Thread {
        let thread = Thread { [self] in
            var seen: [UInt8] = []
            let deadline = Date().addingTimeInterval(10)
            while Date() < deadline, !String(decoding: seen, as: UTF8.self).contains(marker) {
                if let chunk = read(timeout: 0.1) { seen += chunk }
            }
            type(reply)
        }
        thread.start()
        return thread
    }
}
