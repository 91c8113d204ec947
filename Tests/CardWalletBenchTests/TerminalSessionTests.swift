import Testing

@testable import cardwallet_bench

/// The pseudo-terminal plumbing, with /bin/sh and cat standing in for a full-screen program.
/// Nothing here asserts a time: the quiet windows only decide when to stop reading.
@Suite struct TerminalSessionTests {
    static let rules = TerminalRules(frameQuiet: 0.05, keyQuiet: 0.05, keystrokes: 2, startupLimit: 30, keyLimit: 30)

    @Test func theProgramGetsATerminalOfTheGivenSizeAsItsControllingTerminal() throws {
        // Field 7 of /proc/PID/stat is the controlling terminal's device number (0: none).
        let script = "stty size; read -r _ _ _ _ _ _ tty _ < /proc/$$/stat; echo \"tty=$tty\"; echo done"
        let terminal = try TerminalProcess(
            path: "/bin/sh", arguments: ["-c", script], environment: ["PATH": "/usr/bin:/bin"], columns: 132, rows: 43)
        var watch = FrameWatch(marker: "done", quiet: 0.05)
        var output: [UInt8] = []
        while !watch.isComplete(at: terminal.elapsed()) {
            guard let chunk = terminal.read(timeout: 30), !chunk.isEmpty else { break }
            output += chunk
            watch.record(chunk, at: terminal.elapsed())
        }
        #expect(terminal.finish(typing: [], timeout: 30) == 0)
        let text = String(decoding: output, as: UTF8.self)
        #expect(text.contains("43 132"))
        #expect(text.contains("tty="))
        #expect(!text.contains("tty=0\r"))
    }

    @Test func aSessionCountsTheFirstFrameAndEachKeystrokeAndQuits() throws {
        // The terminal echoes each j; Enter hands the line to cat, which writes it back; Ctrl-D ends cat.
        let program = TerminalProgram(
            label: "cat", path: "/bin/sh", arguments: ["-c", "printf 'ready\\n'; exec cat"],
            environment: ["PATH": "/usr/bin:/bin"], marker: "ready", quit: Array("\n\u{4}".utf8))
        let run = try TerminalSession.run(program, columns: 80, rows: 24, rules: Self.rules)
        #expect(run.firstFrameBytes == "ready\r\n".utf8.count)
        #expect(run.keystrokeBytes == [1, 1])
        #expect(run.keystrokeSeconds.count == 2)
        #expect(run.firstByte <= run.markerShown && run.markerShown <= run.startup)
        #expect(run.memory.residentBytes > 0)
    }

    @Test func aProgramThatNeverShowsTheMarkerFailsWithItsOutput() throws {
        let program = TerminalProgram(
            label: "sh", path: "/bin/sh", arguments: ["-c", "printf 'something else'"], environment: [:],
            marker: "never shown")
        let error = try #require(throws: BenchError.self) {
            try TerminalSession.run(program, columns: 80, rows: 24, rules: Self.rules)
        }
        #expect(error.description.contains("exited"))
        #expect(error.description.contains("something else"))
    }

    @Test func aMissingProgramIsAClearError() {
        #expect(throws: BenchError.self) {
            try TerminalProcess(path: "/nonexistent/program", arguments: [], environment: [:], columns: 80, rows: 24)
        }
    }
}
