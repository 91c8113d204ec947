/// Everything a key can mean, by screen. Key tables map keys to commands; reducers act on
/// commands; help lists the tables. One vocabulary for all three, so they cannot drift.
public enum Command: Hashable, Sendable {
    case global(GlobalCommand)
    case list(ListCommand)
    case filter(FilterCommand)
    case detail(DetailCommand)
    case form(FormCommand)
    case text(TextCommand)
    case login(LoginCommand)
    case confirm(ConfirmCommand)
    case pager(PagerCommand)
    case log(LogCommand)
}

/// Moving through something longer than the screen.
public enum ScrollCommand: Hashable, Sendable {
    case up, down, pageUp, pageDown, halfPageUp, halfPageDown, top, bottom
}

/// Keys that work on every screen that is not taking text.
public enum GlobalCommand: Hashable, Sendable {
    /// Show the keys of the current screen.
    case help
    /// Show or hide the log pane.
    case toggleLog
    /// Make the log pane small, medium or large.
    case cycleLogHeight
    /// Move the keyboard between the screen and the log pane.
    case switchFocus
    /// Leave at once (Ctrl-C).
    case quitNow
    /// Clear the terminal and paint everything again (Ctrl-L), after something else wrote on it.
    case redraw
}

/// The card list.
public enum ListCommand: Hashable, Sendable {
    case move(ScrollCommand)
    case startFilter, clearFilter, nextMatch, previousMatch, cycleSort
    /// Move the selected card one place down (`J`) or up (`K`) in the wallet.
    case moveCardDown, moveCardUp
    case open, add, edit, delete, reload, logOut, quit
}

/// Typing the list filter.
public enum FilterCommand: Hashable, Sendable {
    case insert, deleteBackward, clear, accept, cancel
    case move(ScrollCommand)
}

/// One card's details.
public enum DetailCommand: Hashable, Sendable {
    case scroll(ScrollCommand)
    case edit, delete, reload, back
}

/// The add/edit form.
public enum FormCommand: Hashable, Sendable {
    case nextField, previousField, save, cancel
    /// After a conflict (E07): take the server's value of the focused field, or of all fields.
    case takeServerField, takeServerAll
}

/// Editing text.
public enum TextCommand: Hashable, Sendable {
    case insert, moveLeft, moveRight, moveToStart, moveToEnd
    case deleteBackward, deleteForward, deleteToStart, deleteToEnd, deleteWordBackward
    /// In a field of several lines: start a new line, go up or down a line.
    case newLine, lineUp, lineDown
}

/// The login form and the session-expired dialog.
public enum LoginCommand: Hashable, Sendable {
    case nextField, previousField, submit, quit
}

/// A yes/no question whose default answer is No.
public enum ConfirmCommand: Hashable, Sendable {
    case yes, no, toggle, choose
}

/// A scrolling page of text (help, a log line's detail).
public enum PagerCommand: Hashable, Sendable {
    case scroll(ScrollCommand)
    case close
}

/// The log pane when it has the keyboard.
public enum LogCommand: Hashable, Sendable {
    case move(ScrollCommand)
    case showDetail, toggleFailures, leave
}
