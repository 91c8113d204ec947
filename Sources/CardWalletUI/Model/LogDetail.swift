import Networking

/// The detail lines of a log line (headers with tokens as `<private>`, body excerpt), kept as
/// what they are made from and built only when read: a person opens one line's detail in
/// hundreds, so the pane does not format every request's headers and body up front.
///
/// Two details are equal when they come from the same source (the same event, or the same
/// lines) and are cut the same way, which is what building them would give.
public struct LogDetail: Equatable, Sendable {
    private enum Source: Equatable, Sendable {
        /// Lines given as they are.
        case lines([String])
        /// A network event (already redacted by the logger plugin), formatted on demand.
        case event(NetworkEvent)
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

    /// A detail built from `event` when read, by ``NetworkEventFormatter/detailLines(_:includingLine:)``
    /// without its one-line form (the pane's line shows that).
    public init(event: NetworkEvent) {
        source = .event(event)
    }

    /// The lines, built now (each read builds them again: read once and keep the result).
    public var lines: [String] {
        let lines: [String]
        switch source {
        case .lines(let given): lines = given
        case .event(let event): lines = NetworkEventFormatter().detailLines(event, includingLine: false)
        }
        guard let limit else { return lines }
        return Self.cut(lines, to: limit)
    }

    /// The same detail, cut to `limit` when built (a detail made of given lines is cut now).
    func limited(to limit: Limit) -> LogDetail {
        var detail = self
        switch source {
        case .lines(let given): detail.source = .lines(Self.cut(given, to: limit))
        case .event: detail.limit = limit
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
