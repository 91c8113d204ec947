import Synchronization

/// The detail lines of a log line (headers with tokens as `<private>`, body excerpt), kept as
/// what they are made from and built only when read: a person opens one line's detail in
/// hundreds, so the pane does not format every request's headers and body up front.
///
/// The glue says how to build them (a closure over its own record of the exchange); the UI
/// never sees what they are made from. Two details are equal when they come from the same
/// source (the same builder, or the same lines) and are cut the same way.
public struct LogDetail: Equatable, Sendable {
    /// Builds the lines once, then keeps them; compared by identity.
    private final class Builder: Sendable {
        let build: @Sendable () -> [String]
        let built = Mutex<[String]?>(nil)

        init(_ build: @escaping @Sendable () -> [String]) { self.build = build }

        var lines: [String] {
            if let lines = built.withLock({ $0 }) { return lines }
            let lines = build()
            built.withLock { $0 = lines }
            return lines
        }
    }

    private enum Source: Equatable, Sendable {
        /// Lines given as they are.
        case lines([String])
        /// Lines built on demand.
        case builder(Builder)

        static func == (lhs: Source, rhs: Source) -> Bool {
            switch (lhs, rhs) {
            case (.lines(let left), .lines(let right)): left == right
            case (.builder(let left), .builder(let right)): left === right
            default: false
            }
        }
    }

    /// How lines are cut when built: at most `lines` lines of at most `length` characters each.
    struct Limit: Equatable, Sendable {
        var lines: Int
        var length: Int
    }

    private var source: Source
    private var limit: Limit?

    /// A detail made of `lines` as they are.
    public init(lines: [String] = []) {
        source = .lines(lines)
    }

    /// A detail built by `build` the first time it is read (from any thread), then kept.
    public init(building build: @escaping @Sendable () -> [String]) {
        source = .builder(Builder(build))
    }

    /// The lines, cut to the limit.
    public var lines: [String] {
        let lines: [String]
        switch source {
        case .lines(let given): lines = given
        case .builder(let builder): lines = builder.lines
        }
        guard let limit else { return lines }
        return Self.cut(lines, to: limit)
    }

    /// The same detail, cut to `limit` when built (a detail made of given lines is cut now).
    func limited(to limit: Limit) -> LogDetail {
        var detail = self
        switch source {
        case .lines(let given): detail.source = .lines(Self.cut(given, to: limit))
        case .builder: detail.limit = limit
        }
        return detail
    }

    /// `lines` with at most `limit.lines` lines (and a line saying how many more there were),
    /// each at most `limit.length` characters (and `…` when cut).
    static func cut(_ lines: [String], to limit: Limit) -> [String] {
        var kept = lines
        if kept.count > limit.lines {
            kept = Array(kept.prefix(limit.lines)) + ["… \(kept.count - limit.lines) more lines"]
        }
        return kept.map { $0.count > limit.length ? String($0.prefix(limit.length)) + "…" : $0 }
    }
}
