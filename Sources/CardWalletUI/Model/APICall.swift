public import CardModels

/// Names one call the UI asked for, so that its result finds its way back.
public struct CallID: Hashable, Sendable, Comparable, CustomStringConvertible {
    /// Increases by one for every call a state makes.
    public let rawValue: Int

    /// Wraps a raw number (tests and the glue only ever echo ids the reducer made).
    public init(_ rawValue: Int) { self.rawValue = rawValue }

    /// Earlier calls have smaller ids.
    public static func < (lhs: CallID, rhs: CallID) -> Bool { lhs.rawValue < rhs.rawValue }

    /// `#7`.
    public var description: String { "#\(rawValue)" }
}

/// A call to the card server the UI wants made. The live glue performs it through CardAPI and
/// answers with an ``APIResult`` or a ``UIFailure``, which come back as
/// ``AppAction/completed(_:_:)``.
public enum APICall: Equatable, Sendable, CustomStringConvertible {
    /// `POST /auth/login` against `server` (the base URL, e.g. `http://127.0.0.1:8080/v1`).
    case logIn(server: String, email: String, password: String)
    /// `POST /auth/logout`, then forget the stored tokens.
    case logOut
    /// `GET /cards?offset=&limit=&q=`: one page of the wallet in wallet order.
    case loadCards(offset: Int, limit: Int, query: String?)
    /// `GET /card/{id}`.
    case loadCard(id: String)
    /// `POST /card` (multipart), attaching the file at `imagePath` when there is one.
    case createCard(CardFields, imagePath: String?)
    /// `PUT /card/{id}` with `If-Match: "<version>"`.
    case updateCard(id: String, fields: CardFields, version: Int)
    /// `DELETE /card/{id}`.
    case deleteCard(id: String)
    /// `PUT /cards` with the whole wallet in its new order.
    case reorderCards(order: [String])

    /// Whether the call changes the wallet on the server (a save, a delete, a new order):
    /// quitting waits for these.
    public var isChange: Bool {
        switch self {
        case .createCard, .updateCard, .deleteCard, .reorderCards: true
        case .logIn, .logOut, .loadCards, .loadCard: false
        }
    }

    /// The card the call is about, when it is about one that exists.
    public var cardID: String? {
        switch self {
        case .loadCard(let id), .updateCard(let id, _, _), .deleteCard(let id): id
        default: nil
        }
    }

    /// A one-line summary that never shows the password.
    public var description: String {
        switch self {
        case .logIn(let server, let email, _): "log in \(email) at \(server) (password <private>)"
        case .logOut: "log out"
        case .loadCards(let offset, let limit, let query):
            "load cards \(offset)..<\(offset + limit)" + (query.map { " matching \($0)" } ?? "")
        case .loadCard(let id): "load card \(id)"
        case .createCard(let fields, let imagePath):
            "create card \(fields.name)" + (imagePath.map { " with image \($0)" } ?? "")
        case .updateCard(let id, _, let version): "update card \(id) at version \(version)"
        case .deleteCard(let id): "delete card \(id)"
        case .reorderCards(let order): "reorder \(order.count) cards"
        }
    }
}

/// What a successful ``APICall`` gave back.
public enum APIResult: Equatable, Sendable {
    /// `logIn` succeeded: the account and server now in use.
    case loggedIn(email: String, server: String)
    /// `logOut` finished (also when the server could not be told).
    case loggedOut
    /// `loadCards`: one page.
    case cards(CardPage)
    /// `loadCard`, `createCard` and `updateCard`: the card as the server now has it.
    case card(Card)
    /// `deleteCard`: the card is gone.
    case deleted(id: String)
    /// `reorderCards`: the new order is saved.
    case reordered
}

/// How an ``APICall`` ended.
public typealias APIOutcome = Result<APIResult, UIFailure>

/// Something the reducer wants done outside the pure core.
public enum Effect: Equatable, Sendable {
    /// Perform `call` (as a task) and send back `.completed(id, outcome)`.
    case perform(CallID, APICall)
    /// Stop the main loop and restore the terminal.
    case quit
    /// Clear the terminal and paint the next frame whole.
    case redraw
    /// Drop the keys typed but not yet read: they were typed before a dialog that takes text
    /// was on screen, and must not land in it.
    case discardTypeahead
}
