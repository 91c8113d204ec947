/// What the main loop needs from a terminal: events in, frames out.
///
/// `CursesTerminal` implements it over ncursesw; tests use an in-memory backend. A backend is
/// used from one isolation domain only (the main actor), as curses requires.
@MainActor
public protocol TerminalBackend: AnyObject {
    /// Columns and rows right now.
    var size: (width: Int, height: Int) { get }

    /// Waits at most `timeoutMilliseconds` for a key or a resize; `nil` when none came.
    func nextEvent(timeoutMilliseconds: Int) -> TerminalEvent?

    /// Paints `grid`, sending the terminal only what changed since the last frame it painted.
    func present(_ grid: Grid)

    /// Restores the terminal to the state it was in before the program started.
    func restore()

    /// Makes the next ``present(_:)`` clear the terminal and paint every cell (Ctrl-L, after
    /// something else wrote on the screen).
    func requestFullRepaint()
}

extension TerminalBackend {
    /// Does nothing: for backends whose every frame is whole anyway.
    public func requestFullRepaint() {}
}
