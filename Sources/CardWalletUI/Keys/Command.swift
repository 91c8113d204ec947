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
    case transfer(TransferCommand)
    /// What the app itself does, whichever screen's table binds the key.
    case app(AppCommand)
    /// Open an overlay (a dialog or page of its own: ``Overlay``).
    case open(OverlayOpener)
    /// One of the open overlay's commands.
    case overlay(OverlayCommand)
}

/// Commands the app carries out itself, whatever screen's table binds them: no screen's reducer
/// sees them.
public enum AppCommand: Hashable, Sendable {
    /// Switch to the account's next address book (a CardDAV server); the list reloads after.
    case nextBook
    /// Use the stored account called this from now on; its cards show (or the login screen, when
    /// it must log in again).
    case switchAccount(String)
    /// Read the stored accounts again (the account picker shows them).
    case refreshAccounts
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
    /// Mark or unmark the selected card (Space) for a delete of several cards.
    case toggleMark
    /// Bring back the cards of the last delete (within a few seconds).
    case undoDelete
    /// Export the selected (or the marked) cards, or every card, to a file; import a file.
    case exportCards, exportAll, importCards
    /// Forget the marks (after the marked cards were merged).
    case clearMarks
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
    /// Copy a field to the clipboard: `startCopy` asks which, `copy` does it.
    case startCopy
    case copy(CopyTarget)
    case cancelCopy
    /// Open the card's website; write to its email address.
    case openWebsite, writeEmail
    /// Show the card as a QR code (`Q`); close it (any key).
    case showQR, closeQR
    /// Export the card to a file.
    case export
}

/// What `y` copies from a card.
public enum CopyTarget: Hashable, Sendable {
    case name, email, phone, website, address, card
}

/// The add/edit form.
public enum FormCommand: Hashable, Sendable {
    case nextField, previousField, save, cancel
    /// Ask for a photo of a paper card, scan it into the form (new cards); scan it; stop.
    case startScan, scan, cancelScan
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
    /// Log in with OAuth 2.0 in the browser instead of a password (Google, or the configured issuer).
    case browser
}

/// A yes/no question whose default answer is No.
public enum ConfirmCommand: Hashable, Sendable {
    case yes, no, toggle, choose
}

/// The help page.
public enum PagerCommand: Hashable, Sendable {
    case scroll(ScrollCommand)
    case close
}

/// The log pane when it has the keyboard.
public enum LogCommand: Hashable, Sendable {
    case move(ScrollCommand)
    case toggleFailures, leave
}

/// The export and import dialogs.
public enum TransferCommand: Hashable, Sendable {
    /// Enter: export, read the file, import, close the report.
    case accept
    /// Esc: close, or stop what runs.
    case cancel
    /// Tab in the export dialog: the next file format.
    case nextFormat
    /// Scrolling the preview or the report.
    case scroll(ScrollCommand)
}
