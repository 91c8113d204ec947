public import CardModels

/// The card list screen: the loaded cards, the selection, the filter prompt and paging.
public struct ListState: Equatable, Sendable {
    /// The cards, sorted and filtered.
    public var cards = CardCollection()
    /// The selected row (0 when the list is empty).
    public var selection = 0
    /// The first row shown.
    public var scrollTop = 0
    /// Whether keys go to the filter prompt.
    public var isEditingFilter = false
    /// Whether a page request is in flight.
    public var isLoadingPage = false
    /// Whether the first page has arrived since the last reset.
    public var hasLoaded = false
    /// Whether a reload is on its way while the cards loaded before stay on screen: its first
    /// page replaces them; if it fails, they stay.
    public var isReloading = false
    /// Set when a page failed to load: stops loading ahead until the user asks (`r`, or
    /// moving past the end), so a broken server is not asked again on every key.
    public var isPagingPaused = false
    /// Counts resets, so a page that arrives for an older list is ignored.
    public var generation = 0
    /// The card to select again once a reload brings it back.
    public var reselectID: String?
    /// The row the cursor was on when the reload was asked for: where it stays when the reload
    /// does not bring that card back (moved to another book, deleted elsewhere), not the top.
    public var reselectRow: Int?
    /// Whether a new wallet order is on its way to the server.
    public var isReordering = false
    /// The newest wallet order, waiting for the reorder in flight to finish: reorders go one at
    /// a time, so the server cannot apply an older order after a newer one.
    public var queuedReorder: [String]?
    /// The ids of the cards marked (Space) for a delete of several.
    public var marked: Set<String> = []
    /// Cards asked for per page.
    public var pageSize: Int
    /// What the local cache's search found in fields the list may not show, for the filter's
    /// text it was asked for (shown beside the rows while that text is the filter's).
    public var fieldMatches = FieldMatches()
    /// In the All view (every book of every account at once), each book's label by the tag its
    /// cards' ids carry (``BookCardID``): the BOOK column. Empty when one book shows.
    public var bookLabels: [String: String] = [:]

    /// The most cards a page asks for (the card API's own limit, and plenty for a screen).
    public static let maximumPageSize = 200

    /// An empty list that loads `pageSize` cards at a time (1 to ``maximumPageSize``).
    public init(pageSize: Int = 100) {
        self.pageSize = max(1, min(pageSize, Self.maximumPageSize))
    }

    /// The selected card, if any.
    public var selectedCard: CardSummary? { cards.summary(atRow: selection) }

    /// Whether every book shows at once (the All view).
    public var showsAllBooks: Bool { !bookLabels.isEmpty }

    /// The label of the book card `id` is in, in the All view.
    public func bookLabel(of id: String) -> String? {
        BookCardID.split(id).flatMap { bookLabels[$0.book] }
    }
}

/// The fields a search over every field matched, by card id, for one filter text.
public struct FieldMatches: Equatable, Sendable {
    /// The filter's text they answer.
    public var query = ""
    /// By card id: the first matching field and its excerpt.
    public var byID: [String: FieldMatch] = [:]

    /// None.
    public init() {}

    /// The matches found for `query`.
    public init(query: String, byID: [String: FieldMatch]) {
        self.query = query
        self.byID = byID
    }

    /// The match of card `id` for the filter's current text `query`, if one is known.
    public func match(for id: String, query current: String) -> FieldMatch? {
        current == query ? byID[id] : nil
    }
}

/// What can happen to the list.
public enum ListAction: Equatable, Sendable {
    /// A key of the list table.
    case command(ListCommand)
    /// A key of the filter prompt; `typed` is the character for ``FilterCommand/insert``.
    case filter(FilterCommand, typed: Character?)
    /// Text pasted into the filter prompt (on one line).
    case pasteFilter(String)
    /// A call the list made finished.
    case finished(ListCall, CallOutcome)
    /// A page arrived.
    case pageLoaded(CardPage)
    /// A page did not.
    case pageFailed
    /// A card was created (`isNew`) or edited.
    case cardSaved(CardSummary, isNew: Bool)
    /// A card was deleted, or the server says it is gone.
    case cardRemoved(id: String)
    /// Forget every card and load again from the first page.
    case reload
}

/// The calls the list makes, and what it needs to know when they finish.
public enum ListCall: Equatable, Sendable {
    /// A page for the list as it was at `generation` (pages for an older list are dropped).
    case page(generation: Int)
    /// Deleting `card` (asked for on the list or the detail screen).
    case delete(CardSummary)
    /// Saving the wallet's order.
    case reorder
    /// Loading card `id` to edit it.
    case loadForEdit(id: String)
    /// Making a deleted card again; it goes back to wallet position `position` when known.
    case restore(name: String, position: Int?)
    /// Searching the local cache for the filter's text.
    case cacheSearch
}

/// What the list asks the app to do.
public enum ListEffect: Equatable, Sendable {
    /// Make `call`; its outcome comes back as ``ListAction/finished(_:_:)`` with `then`.
    case call(AppCall, then: ListCall)
    case open(CardSummary)
    /// Open the form on `card`, loaded for editing.
    case edit(Card)
    case add
    /// Ask, then delete `card`.
    case delete(CardSummary)
    /// Ask, then delete every one of `cards` (the marked ones).
    case deleteMarked([CardSummary])
    /// Bring back the cards of the last delete.
    case undoDelete
    /// Open the export dialog for `cards`, described as `label` (`“Ada”`, `the 3 marked cards`);
    /// `name` is the one card's name, for the file name.
    case export(ExportRequest.Cards, label: String, name: String?)
    /// Open the import dialog.
    case importCards
    case logOut
    case quit
    /// Tell the user something in the status bar (until news `about` that makes it stale).
    case message(StatusMessage.Kind, String, about: StatusMessage.Topic? = nil)
    /// The status bar's message about `topic`, if any, is stale now.
    case clearMessage(about: StatusMessage.Topic)
}
