import Foundation

/// What one wallet session of the first-frame figure measured (seconds since the spawn).
struct CacheFrameRun: Sendable {
    /// The first byte written (the terminal queries or curses' set-up).
    var firstByte: Double
    /// The chunk that completed the cached list on screen: a card of the list and the status
    /// bar's cache text.
    var cacheFrame: Double
    /// The last byte before the screen went quiet (the list request refused, "offline" shown).
    var settled: Double
    /// Which status text the cache frame showed: `cached …` (painted before the list request
    /// failed) or `offline — cards as of …` (after).
    var status: String
    /// Seconds of CPU the wallet had used when the cache frame arrived (every thread).
    var cpuAtCacheFrame: Double
    /// Whether `offline` was on screen by the time it went quiet (the refused request seen).
    var offlineShown: Bool
}

/// Runs `cardwallet` in a pseudo-terminal on a cache whose server refuses connections, answers
/// its terminal query like a terminal emulator, and times the frame painted from the cache.
enum CacheFrameSession {
    /// The status bar's texts when the list shown is the cache's (docs/Cache.md).
    static let statusTexts = ["cached ", "cards as of "]

    /// One session at `columns`×`rows`.
    ///
    /// - Throws: ``BenchError`` when the wallet shows no cached list in time, or does not exit
    ///   with status 0 after `q`.
    static func run(_ program: TerminalProgram, columns: Int, rows: Int, rules: TerminalRules) throws
        -> CacheFrameRun
    {
        let terminal = try TerminalProcess(
            path: program.path, arguments: program.arguments, environment: program.environment, columns: columns,
            rows: rows)
        let marker = Array(program.marker.utf8)
        var output: [UInt8] = []
        var queries = DeviceAttributesAnswer()
        var firstByte: Double?
        var cacheFrame: Double?
        var cpu = 0.0
        var status = ""
        var lastByte = 0.0
        while true {
            let now = terminal.elapsed()
            if cacheFrame != nil, now - lastByte >= rules.frameQuiet { break }
            guard now < rules.startupLimit else {
                let seen = cacheFrame == nil ? "no cached list appeared" : "it never went quiet"
                throw BenchError(
                    "cardwallet at \(columns)×\(rows): \(seen) \(Int(rules.startupLimit)) s after the start; ending: \(FrameWatch.printable(Array(output.suffix(FrameWatch.tailLimit))))"
                )
            }
            let wait = cacheFrame == nil ? rules.startupLimit - now : lastByte + rules.frameQuiet - now
            guard let chunk = terminal.read(timeout: max(0.001, wait)) else { continue }
            guard !chunk.isEmpty else {
                throw BenchError(
                    "cardwallet exited before its first frame; ending: \(FrameWatch.printable(Array(output.suffix(FrameWatch.tailLimit))))"
                )
            }
            let time = terminal.elapsed()
            if firstByte == nil { firstByte = time }
            lastByte = time
            output += chunk
            try queries.look(at: chunk, answeringOn: terminal)
            if cacheFrame == nil, FrameWatch.contains(output, marker),
                let shown = statusTexts.first(where: { FrameWatch.contains(output, Array($0.utf8)) })
            {
                cacheFrame = time
                cpu = terminal.cpuSeconds() ?? 0
                status = shown.trimmingCharacters(in: .whitespaces)
            }
        }
        let exit = terminal.finish(typing: program.quit, timeout: 10)
        guard exit == 0 else { throw BenchError("cardwallet exited with status \(exit) after q") }
        return CacheFrameRun(
            firstByte: firstByte ?? 0, cacheFrame: cacheFrame ?? 0, settled: lastByte, status: status,
            cpuAtCacheFrame: cpu,
            offlineShown: FrameWatch.contains(output, Array("offline".utf8)))
    }
}
