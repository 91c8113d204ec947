import CardModels
public import Foundation

/// A book of the All view whose cards are its cache's, not its server's (its server cannot be
/// reached, its session is over): the status bar says so, as `list --book all` warns.
public struct BookBehind: Equatable, Hashable, Sendable {
    /// What people call it (`alice@dav.example/Contacts`).
    public var label: String
    /// Why, in a few words for people (`its server cannot be reached`).
    public var problem: String
    /// When its server last confirmed what its cache shows; `nil` when it has no cache.
    public var asOf: Date?

    /// A book behind.
    public init(label: String, problem: String, asOf: Date?) {
        self.label = label
        self.problem = problem
        self.asOf = asOf
    }

    /// `alice@dav.example/Contacts: its server cannot be reached; cards as of 14:02`, one
    /// sentence per book (control characters escaped).
    public static func text(_ books: [BookBehind], utcOffsetSeconds: Int) -> String {
        books.map { book in
            let when = book.asOf.map { "cards as of " + Connection.clock($0, utcOffsetSeconds) }
            return TerminalText.escaped(book.label) + ": " + TerminalText.escaped(book.problem)
                + (when.map { "; " + $0 } ?? "")
        }.joined(separator: " · ")
    }
}
