/// What the main loop needs from a terminal: events in, frames out.
///
/// `CursesTerminal` implements it over ncursesw; tests use an in-memory backend. A backend is
/// used from one isolation domain only (the main actor), as curses requires.
@MainActor
public protocol TerminalBackend: AnyObject {
    /// Columns and rows right now.
    var size: (width: Int, height: Int) { get }

    /// Waits at most `timeoutMilliseconds` for a key or a resize; `nil` when none came, or
    /// early when ``waker`` was called (since the previous call or during this one).
    func nextEvent(timeoutMilliseconds: Int) -> TerminalEvent?

    /// A function any thread may call to make a waiting ``nextEvent(timeoutMilliseconds:)``
    /// return `nil` at once (or the next one, when none is waiting): the main loop's inbox calls
    /// it when an action arrives. `nil` when the backend cannot be woken; the loop then sees
    /// actions when its key timeout ends.
    var waker: (@Sendable () -> Void)? { get }

    /// Paints `grid`, sending the terminal only what changed since the last frame it painted.
    func present(_ grid: Grid)

    /// Restores the terminal to the state it was in before the program started.
    func restore()

    /// Makes the next ``present(_:)`` clear the terminal and paint every cell (Ctrl-L, after
    /// something else wrote on the screen).
    func requestFullRepaint()

    /// Drops the keys the terminal sent that ``nextEvent(timeoutMilliseconds:)`` has not yet
    /// returned (typeahead).
    func discardPendingInput()

    /// Asks the terminal to put `text` on the system clipboard (OSC 52).
    func copyToClipboard(_ text: String)

    /// Writes `bytes` to the terminal as they are, outside the grid: a kitty image's
    /// transmission or delete, which draws nothing by itself.
    func writeToTerminal(_ bytes: [UInt8])
}

extension TerminalBackend {
    /// None: the loop sees outside actions when its key timeout ends.
    public var waker: (@Sendable () -> Void)? { nil }

    /// Does nothing: for backends whose every frame is whole anyway.
    public func requestFullRepaint() {}

    /// Does nothing: for backends without typeahead.
    public func discardPendingInput() {}

    /// Does nothing: for backends without a clipboard.
    public func copyToClipboard(_ text: String) {}

    /// Does nothing: for backends that draw no pictures.
    public func writeToTerminal(_ bytes: [UInt8]) {}
}
