/// Who gets a call's result, and what they need to know to use it: the screen that asked,
/// with its own tag. The app keeps the route beside the call while it is in flight and hands
/// the outcome to that screen's reducer.
public enum CallRoute: Equatable, Sendable {
    /// The card list (pages, deletes, new orders, a card to edit).
    case list(ListCall)
    /// The detail screen (the card it shows).
    case detail(DetailCall)
    /// The add/edit form (saving, the server's version after a conflict, a scan).
    case form(FormCall)
    /// The export and import dialogs.
    case transfer(TransferCall)
    /// The login screen.
    case login
    /// The session-expired dialog's login.
    case reauth
    /// Logging out (from any screen).
    case logOut
    /// Switching address books (from the list).
    case book
    /// The stored accounts: switching between them, listing them.
    case account
    /// The local cache's outbox (an edit made offline, resolved in the conflict view).
    case outbox
    /// The overlay opened by the opener `name` (``OverlayOpener``), with its own tag.
    case overlay(name: String, tag: String)
}
