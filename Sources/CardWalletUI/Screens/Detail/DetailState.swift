public import CardModels

/// One card's details: shown from its summary at once, completed when the card loads.
public struct DetailState: Equatable, Sendable {
    /// What the list knew about the card.
    public var summary: CardSummary
    /// The whole card, once loaded.
    public var card: Card?
    /// Set while the card is loading.
    public var isLoading: Bool
    /// The first line shown.
    public var scroll = 0

    /// The details of `summary`, loading the rest unless `card` is already known.
    public init(summary: CardSummary, card: Card? = nil) {
        self.summary = summary
        self.card = card
        self.isLoading = card == nil
    }

    /// The id of the card shown.
    public var id: String { summary.id }
}

/// The calls the detail screen makes.
public enum DetailCall: Equatable, Sendable {
    /// Loading card `id`, the one shown.
    case load(id: String)
}

/// What can happen to the detail screen.
public enum DetailAction: Equatable, Sendable {
    case command(DetailCommand)
    /// A call the screen made finished (the card itself reaches it as ``loaded(_:)``).
    case finished(DetailCall, APIOutcome)
    /// The card arrived (or was saved).
    case loaded(Card)
    /// Loading failed (other than "not found", which closes the screen).
    case loadFailed
}

/// What the detail screen asks the app to do.
public enum DetailEffect: Equatable, Sendable {
    case edit(Card)
    case delete(CardSummary)
    /// Make `call`; its outcome comes back as ``DetailAction/finished(_:_:)`` with `then`.
    case call(APICall, then: DetailCall)
    case back
    case message(StatusMessage.Kind, String)
}

extension DetailState {
    /// Applies `action`; `viewport` is how many lines show and `lineCount` how many there are.
    public mutating func reduce(_ action: DetailAction, viewport: Int, lineCount: Int) -> [DetailEffect] {
        var effects: [DetailEffect] = []
        switch action {
        case .command(.scroll(let command)):
            let page = max(1, viewport)
            switch command {
            case .up: scroll -= 1
            case .down: scroll += 1
            case .top: scroll = 0
            case .bottom: scroll = lineCount
            case .pageUp: scroll -= page
            case .pageDown: scroll += page
            case .halfPageUp: scroll -= max(1, page / 2)
            case .halfPageDown: scroll += max(1, page / 2)
            }
        case .command(.edit):
            if let card {
                effects = [.edit(card)]
            } else {
                effects = [.message(.info, "Still loading the card…")]
            }
        case .command(.delete):
            effects = [.delete(card?.summary ?? summary)]
        case .command(.reload):
            isLoading = true
            effects = [.call(.loadCard(id: id), then: .load(id: id))]
        case .command(.back):
            effects = [.back]
        case .loaded(let card):
            self.card = card
            summary = card.summary
            isLoading = false
        case .loadFailed:
            isLoading = false
        case .finished(.load(let loaded), let outcome):
            guard loaded == id, case .failure(let failure) = outcome else { break }
            isLoading = false
            effects =
                failure.kind == .notFound
                ? [.message(.warning, "That card no longer exists (E05)")]
                : [.message(.error, FailureText.status(failure, doing: "Could not load the card"))]
        }
        scroll = min(max(0, scroll), max(0, lineCount - viewport))
        return effects
    }
}
