/// Answers the wallet's device-attributes query (DA1, the last of its picture probes before
/// curses starts) once, as a VT220-class terminal without sixel would. Unanswered, the wallet
/// waits out its probe's timeout, and a figure would time that instead of the program.
struct DeviceAttributesAnswer {
    /// What the wallet asks.
    static let query: [UInt8] = Array("\u{1B}[c".utf8)
    /// What the terminal says.
    static let reply: [UInt8] = Array("\u{1B}[?62;22c".utf8)

    private var answered = false
    /// The end of the output seen so far: a query may be split across chunks.
    private var tail: [UInt8] = []

    /// Looks at the next `chunk` of output and answers on `terminal` once it holds the query.
    mutating func look(at chunk: [UInt8], answeringOn terminal: TerminalProcess) throws {
        guard !answered else { return }
        let seen = tail + chunk
        if FrameWatch.contains(seen, Self.query) {
            answered = true
            try terminal.write(Self.reply)
        } else {
            tail = Array(seen.suffix(Self.query.count - 1))
        }
    }
}
