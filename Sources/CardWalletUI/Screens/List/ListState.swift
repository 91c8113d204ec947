import CardModels

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
    /// Set when a page failed to load: stops loading ahead until the user asks (`r`, or
    /// moving past the end), so a broken server is not asked again on every key.
    public var isPagingPaused = false
    /// Counts resets, so a page that arrives for an older list is ignored.
    public var generation = 0
    /// The card to select again once a reload brings it back.
    public var reselectID: String?
    /// Cards asked for per page.
    public var pageSize: Int

    /// An empty list that loads `pageSize` cards at a time.
    public init(pageSize: Int = 100) {
        self.pageSize = max(1, min(pageSize, CardPaging.maxLimit))
    }

    /// The selected card, if any.
    public var selectedCard: CardSummary? { cards.summary(atRow: selection) }
}

/// What can happen to the list.
public enum ListAction: Equatable, Sendable {
    /// A key of the list table.
    case command(ListCommand)
    /// A key of the filter prompt; `typed` is the character for ``FilterCommand/insert``.
    case filter(FilterCommand, typed: Character?)
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

/// What the list asks the app to do.
public enum ListEffect: Equatable, Sendable {
    /// Load `limit` cards from `offset` (wallet order).
    case loadPage(offset: Int, limit: Int)
    case open(CardSummary)
    case edit(CardSummary)
    case add
    case delete(CardSummary)
    /// Save the wallet in this order.
    case reorder([String])
    case logOut
    case quit
    /// Tell the user something in the status bar.
    case message(StatusMessage.Kind, String)
}
