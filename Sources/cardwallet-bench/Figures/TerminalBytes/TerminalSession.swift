/// A full-screen program as §4 and §6 run it in a pseudo-terminal.
struct TerminalProgram: Sendable {
    /// How tables name it.
    var label: String
    /// The executable.
    var path: String
    /// Its arguments.
    var arguments: [String]
    /// Its whole environment (nothing is inherited).
    var environment: [String: String]
    /// Text its first frame shows once complete (see ``FrameWatch``).
    var marker: String
    /// What moves the selection one row down.
    var key: [UInt8] = Array("j".utf8)
    /// What quits it.
    var quit: [UInt8] = Array("q".utf8)
}

/// The rules a session follows: quiet windows, how many keystrokes, how long to wait at most.
struct TerminalRules: Sendable {
    /// Silence after the marker that ends the first frame (seconds).
    var frameQuiet: Double
    /// Silence after a keystroke's first byte that ends its answer (seconds).
    var keyQuiet: Double
    /// Keystrokes typed after the first frame, one at a time.
    var keystrokes: Int
    /// Longest wait for the first frame (seconds since the spawn).
    var startupLimit: Double
    /// Longest wait for a keystroke's answer to start (seconds).
    var keyLimit: Double = 5
}

/// What one run of a program in the terminal measured.
struct TerminalRun: Sendable {
    /// Seconds from the spawn to the first byte written (the terminal being set up).
    var firstByte: Double
    /// Seconds from the spawn to the chunk that showed the marker.
    var markerShown: Double
    /// Seconds from the spawn to the last byte of the first frame.
    var startup: Double
    /// Bytes of the first frame (everything written until it was complete).
    var firstFrameBytes: Int
    /// Bytes written in answer to each keystroke.
    var keystrokeBytes: [Int]
    /// Seconds from writing each keystroke to the last byte of its answer.
    var keystrokeSeconds: [Double]
    /// The program's memory after the keystrokes, before it quit.
    var memory: ProcessMemory
    /// Seconds of CPU the program had used once its first frame was complete (0 if unknown).
    var cpuAtFirstFrame: Double = 0
}

/// Runs one program in a pseudo-terminal: waits for its first frame, types the keystrokes one
/// by one (each after the previous answer went quiet), reads its memory, quits it.
enum TerminalSession {
    /// One session of `program` at `columns`×`rows`.
    ///
    /// - Throws: ``BenchError`` when the program does not start, shows no complete first frame
    ///   in time, answers a keystroke with nothing, or does not exit with status 0 after quitting.
    static func run(_ program: TerminalProgram, columns: Int, rows: Int, rules: TerminalRules) throws -> TerminalRun {
        let terminal = try TerminalProcess(
            path: program.path, arguments: program.arguments, environment: program.environment, columns: columns,
            rows: rows)
        let what = "\(program.label) at \(columns)×\(rows)"
        var frame = FrameWatch(marker: program.marker, quiet: rules.frameQuiet)
        try wait(
            for: &frame, on: terminal, until: rules.startupLimit, what: "\(what): the first frame",
            answeringTerminalQueries: true)
        let cpuAtFirstFrame = terminal.cpuSeconds() ?? 0
        var keystrokeBytes: [Int] = []
        var keystrokeSeconds: [Double] = []
        for number in 1..<(1 + max(0, rules.keystrokes)) {
            var answer = FrameWatch(marker: "", quiet: rules.keyQuiet)
            let typed = terminal.elapsed()
            try terminal.write(program.key)
            try wait(for: &answer, on: terminal, until: typed + rules.keyLimit, what: "\(what): keystroke \(number)")
            keystrokeBytes.append(answer.byteCount)
            keystrokeSeconds.append((answer.lastByteAt ?? typed) - typed)
        }
        let memory = try terminal.memory()
        let status = terminal.finish(typing: program.quit, timeout: 10)
        guard status == 0 else { throw BenchError("\(what): exited with status \(status) after the quit key") }
        return TerminalRun(
            firstByte: frame.firstByteAt ?? 0, markerShown: frame.markerAt ?? 0, startup: frame.lastByteAt ?? 0,
            firstFrameBytes: frame.byteCount, keystrokeBytes: keystrokeBytes,
            keystrokeSeconds: keystrokeSeconds, memory: memory, cpuAtFirstFrame: cpuAtFirstFrame)
    }

    /// Reads until `watch` is complete; `limit` is seconds since the spawn. With
    /// `answeringTerminalQueries`, the wallet's terminal query is answered
    /// (``DeviceAttributesAnswer``).
    ///
    /// - Throws: ``BenchError`` when the limit passes first or the program exits.
    static func wait(
        for watch: inout FrameWatch, on terminal: TerminalProcess, until limit: Double, what: String,
        answeringTerminalQueries: Bool = false
    ) throws {
        var queries = answeringTerminalQueries ? DeviceAttributesAnswer() : nil
        while true {
            let now = terminal.elapsed()
            if watch.isComplete(at: now) { return }
            // The marker and the quiet window count; a frame that keeps changing past the limit
            // is as broken as none.
            guard now < limit else {
                let seen = watch.markerSeen ? "it never went quiet for \(watch.quiet) s" : "its marker never appeared"
                throw BenchError(
                    "\(what): not complete \(Formatting.format(limit, as: .time)) after the start (\(seen)); \(watch.byteCount) bytes, ending: \(FrameWatch.printable(watch.tail))"
                )
            }
            guard let chunk = terminal.read(timeout: min(watch.timeToWait(at: now), limit - now)) else { continue }
            guard !chunk.isEmpty else {
                throw BenchError(
                    "\(what): the program exited after \(watch.byteCount) bytes, ending: \(FrameWatch.printable(watch.tail))"
                )
            }
            watch.record(chunk, at: terminal.elapsed())
            try queries?.look(at: chunk, answeringOn: terminal)
        }
    }
}
