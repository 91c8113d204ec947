public import Foundation

/// Whether the cards on screen are the server's, the cache's first frame, or the cache's
/// because the server cannot be reached (docs/Cache.md, docs/TUI.md).
public enum Connection: Equatable, Sendable {
    /// The server answered the last list load.
    case online
    /// The list shows the cache's cards, confirmed by the server at `asOf`, while the server's
    /// first answer is on its way (the first frame).
    case cached(asOf: Date)
    /// The server could not be reached: the cards are the cache's, confirmed at `asOf` (`nil`:
    /// the cache holds none for the account yet); the list is asked for again at `retryAt` (the
    /// time of ``AppAction/tick(now:)``), and the wait after that one is twice `delay`, up to
    /// ``Connection/longestRetry``.
    case offline(asOf: Date?, retryAt: Duration, delay: Duration)

    /// The first wait before asking an unreachable server again.
    public static let firstRetry: Duration = .seconds(1)
    /// The longest wait between two tries.
    public static let longestRetry: Duration = .seconds(30)

    /// Whether the server could not be reached at the last try.
    public var isOffline: Bool {
        if case .offline = self { true } else { false }
    }

    /// The wait after one of `delay` that failed again: doubled, at most ``longestRetry``.
    static func backoff(after delay: Duration?) -> Duration {
        guard let delay else { return firstRetry }
        return min(delay * 2, longestRetry)
    }

    /// What the status bar says: `cached 14:02`, `offline — cards as of 14:02`, `offline — no
    /// cards cached yet`, or nothing.
    public func statusText(utcOffsetSeconds: Int) -> String? {
        switch self {
        case .online: nil
        case .cached(let asOf): "cached \(Self.clock(asOf, utcOffsetSeconds))"
        case .offline(let asOf?, _, _): "offline — cards as of \(Self.clock(asOf, utcOffsetSeconds))"
        case .offline(nil, _, _): "offline — no cards cached yet"
        }
    }

    /// `HH:MM` of `date` on a 24-hour clock, `utcOffsetSeconds` from UTC (the offset is the
    /// caller's: no time zone is read here). The status bar and the CLI's offline notice use it.
    public static func clock(_ date: Date, _ utcOffsetSeconds: Int) -> String {
        let seconds = Int(date.timeIntervalSince1970.rounded(.down)) + utcOffsetSeconds
        let minutes = ((seconds / 60) % (24 * 60) + 24 * 60) % (24 * 60)
        let hour = minutes / 60
        let minute = minutes % 60
        return (hour < 10 ? "0" : "") + "\(hour):" + (minute < 10 ? "0" : "") + "\(minute)"
    }
}
