public import CardModels
public import Foundation

/// Everything that can happen to the app: keys, resizes, time, results and outside news.
///
/// All of it is plain data, so the glue can make it on any thread and the reducer stays pure.
public enum AppAction: Equatable, Sendable {
    /// The user pressed a key.
    case key(Key)
    /// The user pasted text (never commands: see ``AppState/paste(_:)``).
    case paste(String)
    /// The user clicked or turned the wheel.
    case mouse(MouseEvent)
    /// The terminal now has this many columns and rows.
    case resize(width: Int, height: Int)
    /// Time passed: `now` is the time since the program started (drives the spinner and the
    /// expiry of status messages; reducers never read a clock).
    case tick(now: Duration)
    /// A call made by ``Effect/perform(_:_:)`` finished.
    case completed(CallID, CallOutcome)
    /// A long call made by ``Effect/perform(_:_:)`` got further (an import, card by card).
    case progress(CallID, CallProgress)
    /// The session changed: the only writer of ``AppState/session``.
    case session(SessionStatus)
    /// A network exchange (or a note of the app's own) was logged.
    case log(LogLine)
    /// The local cache's wallet, confirmed by the server at `asOf`, for the first frame of a
    /// restored session: shown until the server's first page replaces it.
    case cachedWallet(CardPage, asOf: Date)
    /// The list shows every book of every account (the All view): each book's label by the tag
    /// its cards' ids carry (``BookCardID``); empty for one book. Sent before the first frame.
    case showingBooks([String: String])
    /// The background sync found the list changed on a server (issue 40): the whole list as it
    /// is now (in the All view, every book's), to replace the one shown in place, the cursor
    /// kept on its card. A form open is never touched: a card changed under it is a conflict
    /// when it is saved, as always.
    case synced(CardPage)
    /// Something outside the core has news for the status bar (a browser that would not start).
    case notice(StatusMessage.Kind, String)
}
