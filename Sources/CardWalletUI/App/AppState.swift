import CardModels

/// The whole UI: every screen's state, composed, plus what is shared (session, log pane,
/// status bar, requests in flight). Change it only through ``reduce(_:)``.
public struct AppState: Equatable, Sendable {
    /// The screen under any dialog.
    public enum Screen: Equatable, Sendable {
        case login, list, detail, form
    }

    /// Where the keyboard goes when the log pane shows.
    public enum Focus: Equatable, Sendable {
        case screen, log
    }

    /// A call in flight and where its result goes.
    public struct PendingCall: Equatable, Sendable {
        /// What was asked.
        public var call: AppCall
        /// Who gets the result.
        public var route: CallRoute
    }

    /// The session-expired dialog: a login form over the current screen, and the calls that
    /// failed with E06, to replay after the login.
    public struct ReauthState: Equatable, Sendable {
        /// The dialog's login form.
        public var login: LoginState
        /// The calls that failed with E06, replayed after the login.
        public var replay: [PendingCall]
        /// The account that was logged in, to tell a different login apart.
        public var previousEmail: String?
        /// The code the server ended the session with (the card API's E06), once a failed call
        /// said it; `nil` for a server that sends none.
        public var serverCode: String?
    }

    /// Terminal columns.
    public var width: Int
    /// Terminal rows.
    public var height: Int
    /// The time of the last tick.
    public var now: Duration = .zero
    /// Who is logged in where, as the status bar shows it. Written only by the session's own
    /// news (``AppAction/session(_:)``).
    public internal(set) var session: SessionStatus = .loggedOut
    /// The screen under any dialog.
    public var screen: Screen = .login
    /// The login screen's form.
    public var login: LoginState
    /// The accounts the wallet remembers (the login screen lists them; `A` picks one).
    public var storedAccounts: [StoredAccount] = []
    /// The card list (kept while the detail and form screens are open).
    public var list: ListState
    /// The card shown, when the detail screen is open (or under the form).
    public var detail: DetailState?
    /// The add/edit form, when open.
    public var form: FormState?
    /// A question or the help page, over everything.
    public var modal: Modal?
    /// A dialog or page a key opened (``Overlay``): a page over everything but a question and
    /// help; a dialog under the session-expired dialog too.
    public var overlay: OpenOverlay?
    /// The export or import dialog, over the list or a card.
    public var transfer: TransferState?
    /// How this terminal shows pictures (chosen once at start).
    public var pictures: PictureSupport
    /// The session-expired dialog, after the server said E06.
    public var reauth: ReauthState?
    /// The network log pane.
    public var log: LogPaneState
    /// Whether keys go to the screen or to the log pane.
    public var focus: Focus = .screen
    /// The cards of the last delete, which `u` brings back for ``undoWindow``.
    public var lastDelete: UndoableDelete?

    /// Whether the cards shown are the server's or the local cache's (first frame, offline).
    public var connection: Connection = .online
    /// Changes made offline (kept in the cache's outbox until the server is back), and the
    /// cards they touch (marked as pending in the list).
    public var offlineChanges = OfflineChanges()
    /// Whether `/` also searches every field through the local cache (the glue has one).
    public var searchesCache = false
    /// Edits made offline that the server refused as conflicts, waiting for the form's conflict
    /// view (one at a time, when the list shows with nothing over it).
    public var offlineConflicts: [OfflineConflict] = []

    /// The last account the session named, kept when the session forgets it (the re-login
    /// dialog fills it in).
    public var lastEmail: String?
    /// The status bar's short-lived message.
    public var message: StatusMessage?
    /// Calls in flight, by id (the spinner turns while there are any).
    public var pending: [CallID: PendingCall] = [:]
    /// The id the next call gets.
    public var nextCallID = 1
    /// Set once the user quits; the runner stops.
    public var isQuitting = false
    /// The local time zone's offset, for the log pane's clock (no time zone is read here).
    public var utcOffsetSeconds: Int

    /// The app at its login screen.
    ///
    /// - Parameters:
    ///   - server: The server's base URL to fill in.
    ///   - email: The email to fill in, if known.
    ///   - password: A password to fill in (the demo's); never shown, only masked.
    ///   - width: Terminal columns.
    ///   - height: Terminal rows.
    ///   - pageSize: Cards asked for per page.
    ///   - logCapacity: Log lines kept.
    ///   - utcOffsetSeconds: The local time zone's offset from UTC.
    ///   - pictures: How the terminal shows pictures (none unless told).
    public init(
        server: String, email: String = "", password: String = "", width: Int = 80, height: Int = 24,
        pageSize: Int = 100, logCapacity: Int = 1_000, utcOffsetSeconds: Int = 0,
        pictures: PictureSupport = .unavailable
    ) {
        self.pictures = pictures
        self.width = width
        self.height = height
        self.login = LoginState(server: server, email: email, password: password)
        self.list = ListState(pageSize: pageSize)
        self.log = LogPaneState(capacity: logCapacity)
        self.utcOffsetSeconds = utcOffsetSeconds
    }

    /// Whether any call is in flight (the spinner turns).
    public var isBusy: Bool { !pending.isEmpty }

    /// How many of the user's changes are on their way to the server: saves, deletes and new
    /// wallet orders in flight or queued. Quitting waits for them.
    public var pendingChanges: Int {
        pending.values.filter(\.call.isChange).count + (list.queuedReorder == nil ? 0 : 1)
    }

    /// The frame of the spinner, from the time.
    public var spinnerFrame: Int {
        Int(now.components.seconds * 10 + now.components.attoseconds / 100_000_000_000_000_000)
    }

    /// What ticks can change on screen: a redraw is needed only when this changes.
    public var timedAppearance: TimedAppearance {
        TimedAppearance(spinner: isBusy ? spinnerFrame % Self.spinner.count : nil, message: message)
    }

    /// Follows the session's own news: the one writer of ``session``.
    mutating func sessionChanged(_ status: SessionStatus) -> [Effect] {
        if let email = status.email { lastEmail = email }
        session = status
        switch status {
        case .loggedIn:
            // A session restored from the token store: skip the login form.
            if screen == .login, !login.isSubmitting { return enterList() }
        case .expired:
            if screen != .login { return openReauth(replaying: nil) }
        case .refreshing, .loggedOut:
            break
        }
        return []
    }

    /// The spinner's frames.
    public static let spinner: [Character] = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"]
}

/// Deleted cards that can still be brought back, with where they were in the wallet.
public struct UndoableDelete: Equatable, Sendable {
    /// The cards as read before the delete, and their wallet positions when known.
    public var cards: [(card: DeletedCard, position: Int?)]
    /// When the last of them was deleted (the time of ``AppAction/tick(now:)``).
    public var at: Duration

    public static func == (lhs: UndoableDelete, rhs: UndoableDelete) -> Bool {
        lhs.at == rhs.at && lhs.cards.map(\.card) == rhs.cards.map(\.card)
            && lhs.cards.map(\.position) == rhs.cards.map(\.position)
    }
}

/// The parts of the screen that change with time alone.
public struct TimedAppearance: Equatable, Sendable {
    /// The spinner's frame while requests are in flight.
    public var spinner: Int?
    /// The message shown, until it expires.
    public var message: StatusMessage?
}
