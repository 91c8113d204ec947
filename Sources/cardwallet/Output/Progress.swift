import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A progress line on standard error for long runs (`cardwallet: reading… 5,000 cards`),
/// rewritten in place, and only when standard error is a terminal: scripts and logs get the
/// messages that matter and nothing else.
final class Progress: @unchecked Sendable {
    private let label: String
    private let minimum: Int
    private let enabled: Bool
    private let lock = NSLock()
    private var lastShown = Date.distantPast
    private var shown = false

    /// A progress line saying `label` (e.g. `fetching cards`), shown once the work has at least
    /// `minimum` items.
    init(_ label: String, minimum: Int = 200, enabled: Bool = isatty(STDERR_FILENO) == 1) {
        self.label = label
        self.minimum = minimum
        self.enabled = enabled
    }

    /// Reports `done` of `total` (or of an unknown total when `nil`), at most ten times a second.
    func update(_ done: Int, of total: Int?) {
        guard enabled, (total ?? done) >= minimum else { return }
        lock.lock()
        defer { lock.unlock() }
        let now = Date()
        guard done == total || now.timeIntervalSince(lastShown) >= 0.1 else { return }
        lastShown = now
        shown = true
        let count = total.map { "\(done.formatted()) of \($0.formatted())" } ?? done.formatted()
        Console.err("\rcardwallet: \(label)… \(count)\u{1B}[K")
    }

    /// Clears the line, if one was shown.
    func finish() {
        lock.lock()
        defer { lock.unlock() }
        if shown { Console.err("\r\u{1B}[K") }
        shown = false
    }
}
