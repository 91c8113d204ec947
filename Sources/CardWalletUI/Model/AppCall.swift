public import CardModels
public import Foundation

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

/// Work the pure core wants done outside it: a card request to the wallet's server (through the
/// cache and its outbox), or the libraries' work (a picture, a QR code, a vCard import or export,
/// a scan, a search of the local cache). The live glue performs it and answers with a
/// ``CallResult`` or a ``UIFailure``, which come back as ``AppAction/completed(_:_:)``.
public enum AppCall: Equatable, Sendable, CustomStringConvertible {
    /// `POST /auth/login` against `server` (the base URL, e.g. `http://127.0.0.1:8080/v1`).
    case logIn(server: String, email: String, password: String)
    /// An OAuth 2.0 login in the browser at `server` (a CardDAV server's address, `google`, or
    /// empty for the configured one): the authorization address comes back as the call's
    /// ``CallProgress/link``, then the outcome as a password login's does.
    case logInWithBrowser(server: String)
    /// `POST /auth/logout`, then forget the stored tokens.
    case logOut
    /// Switch to the account's next address book (on a CardDAV server).
    case nextBook
    /// Use the stored account called `name` from now on (its cache, its outbox, its session).
    case switchAccount(name: String)
    /// The accounts the wallet remembers.
    case listAccounts
    /// `GET /cards?offset=&limit=&q=`: one page of the wallet in wallet order.
    case loadCards(offset: Int, limit: Int, query: String?)
    /// `GET /card/{id}`.
    case loadCard(id: String)
    /// `POST /card` (multipart), attaching the file at `imagePath` when there is one.
    case createCard(CardFields, imagePath: String?)
    /// `PUT /card/{id}` with `If-Match: "<version>"`.
    case updateCard(id: String, fields: CardFields, revision: CardRevision)
    /// `DELETE /card/{id}`, after reading the card (and its image) so the delete can be undone.
    case deleteCard(id: String)
    /// A deleted card made again from what was read before the delete: `POST /card`, then its
    /// image (`PUT /card/{id}/image`).
    case restoreCard(DeletedCard)
    /// `PUT /cards` with the whole wallet in its new order.
    case reorderCards(order: [String])
    /// The image of card `id` at `version` (`GET /card/{id}/image`, kept in memory by the
    /// glue), made ready for this terminal as large as fits in `box`, aspect kept.
    case cardPicture(id: String, revision: CardRevision, box: PictureBox)
    /// The image file at `path` on this machine (the add form's photo, `~` expanded by the
    /// glue), made ready for this terminal as large as fits in `box`; nothing is sent.
    case filePicture(path: String, box: PictureBox)
    /// The card as a QR code: its vCard 3.0 without the photo, with fewer fields when the
    /// whole card would not fit in `fits` (a column per module, a row per two, quiet zone
    /// included); when even the name, email and phone do not fit, the symbol that holds them.
    case qrCode(Card, fits: PictureBox)
    /// A card's kept vCard lines as people should read them (without CardWallet's markers).
    case vcardLines([String])
    /// Cards written to a file (fetched whole, with their images for vCard).
    case exportCards(ExportRequest)
    /// Reads a vCard file (or a folder of them) and plans the import against the whole
    /// wallet; nothing is sent but reads.
    case previewImport(path: String)
    /// Carries out the plan of an ``CallResult/importPreview(_:)``, card by card, reporting
    /// progress; cancelling stops it between two cards.
    case runImport(planID: Int)
    /// Reads a photo of a paper card into card fields (OCR, on the glue's side); cancellable.
    case scanPhoto(path: String)
    /// The cards whose any field (phone, address, bio, tags… too) matches `query`, from the
    /// local cache's search index, without the network.
    case searchCache(query: String)
    /// Every address book of every stored account (for a move or a copy).
    case listBooks
    /// Moves card `id` (or copies it, with `copy`) to the book tagged `toBook`: one outbox entry,
    /// carried out at once.
    case transferCard(id: String, toBook: String, copy: Bool)
    /// Reads the two cards to merge, whole.
    case loadMerge(left: String, right: String)
    /// Merges as `plan` says: the merged card written over the kept one, the other deleted, one
    /// outbox entry carried out at once.
    case mergeCards(CardMergePlan)
    /// Forgets the outbox entry of an edit made offline that the server refused as a conflict,
    /// once the person has chosen in the form's conflict view: `keptMine` when their fields were
    /// just saved over the server's version, else the server's version stays. Nothing is sent.
    case resolveOfflineEdit(entry: Int64, keptMine: Bool)

    /// Whether the call changes the wallet on the server (a save, a delete, a new order):
    /// quitting waits for these.
    public var isChange: Bool {
        switch self {
        case .createCard, .updateCard, .deleteCard, .reorderCards, .restoreCard, .runImport, .transferCard, .mergeCards:
            true
        case .logIn, .logInWithBrowser, .logOut, .loadCards, .loadCard, .cardPicture, .filePicture, .qrCode,
            .vcardLines, .exportCards, .previewImport, .scanPhoto, .searchCache, .resolveOfflineEdit, .nextBook,
            .switchAccount, .listAccounts, .listBooks, .loadMerge:
            false
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
        case .logInWithBrowser(let server):
            "log in at \(server.isEmpty ? "the configured server" : server) in the browser"
        case .logOut: "log out"
        case .nextBook: "switch to the next address book"
        case .switchAccount(let name): "switch to the account \(name)"
        case .listAccounts: "list the stored accounts"
        case .loadCards(let offset, let limit, let query):
            "load cards \(offset)..<\(offset + limit)" + (query.map { " matching \($0)" } ?? "")
        case .loadCard(let id): "load card \(id)"
        case .createCard(let fields, let imagePath):
            "create card \(fields.name)" + (imagePath.map { " with image \($0)" } ?? "")
        case .updateCard(let id, _, let revision): "update card \(id) at version \(revision)"
        case .deleteCard(let id): "delete card \(id)"
        case .restoreCard(let deleted): "restore card \(deleted.card.fields.name)"
        case .reorderCards(let order): "reorder \(order.count) cards"
        case .cardPicture(let id, let revision, let box): "picture of card \(id) version \(revision) in \(box)"
        case .filePicture(let path, let box): "picture of \(path) in \(box)"
        case .qrCode(let card, let box): "QR code of card \(card.id) within \(box)"
        case .vcardLines(let lines): "show \(lines.count) kept vCard lines"
        case .exportCards(let request):
            switch request.cards {
            case .all: "export every card to \(request.path) as \(request.format.label)"
            case .ids(let ids): "export \(ids.count) cards to \(request.path) as \(request.format.label)"
            }
        case .previewImport(let path): "read \(path) and plan its import"
        case .runImport(let planID): "import plan \(planID)"
        case .scanPhoto(let path): "scan \(path)"
        case .searchCache(let query): "search the cache for \(query)"
        case .listBooks: "list every address book"
        case .transferCard(let id, let book, let copy): "\(copy ? "copy" : "move") card \(id) to book \(book)"
        case .loadMerge(let left, let right): "read cards \(left) and \(right) to merge them"
        case .mergeCards(let plan): "merge cards \(plan.left.id) and \(plan.right.id)"
        case .resolveOfflineEdit(let entry, let keptMine):
            "resolve the offline edit \(entry) (\(keptMine ? "yours sent" : "the server's kept"))"
        }
    }
}

/// What a successful ``AppCall`` gave back.
public enum CallResult: Equatable, Sendable {
    /// `logIn` succeeded: the account and server now in use.
    case loggedIn(email: String, server: String)
    /// `logOut` finished (also when the server could not be told).
    case loggedOut
    /// `nextBook`: the address book now in use (its id), and the session as the status bar shows it.
    case switchedBook(String, session: SessionStatus)
    /// `nextBook`: every book of every account shows at once (the All view), each book's label
    /// by the tag its cards' ids carry (``BookCardID``).
    case showingAllBooks(labels: [String: String], session: SessionStatus)
    /// `switchAccount`: the account now in use, its session as the status bar shows it, and the
    /// accounts stored.
    case switchedAccount(StoredAccount, session: SessionStatus, accounts: [StoredAccount])
    /// `listAccounts`: the accounts stored.
    case accounts([StoredAccount])
    /// `loadCards`: one page.
    case cards(CardPage)
    /// `loadCard`, `createCard` and `updateCard`: the card as the server now has it.
    case card(Card)
    /// `deleteCard`: the card is gone; `backup` is what it was, when it could be read first.
    case deleted(id: String, backup: DeletedCard?)
    /// `reorderCards`: the new order is saved.
    case reordered
    /// `cardPicture` and `filePicture`: the picture.
    case picture(TerminalPicture)
    /// `qrCode`: the symbol.
    case qrSymbol(QRSymbol)
    /// `vcardLines`: the lines as people should read them, in order.
    case vcardText([String])
    /// `exportCards`: `count` cards written to `path` (the full path).
    case exported(count: Int, path: String)
    /// `previewImport`: what the import would do.
    case importPreview(ImportPreview)
    /// `runImport`: what it did.
    case imported(ImportReport)
    /// `scanPhoto`: the fields read.
    case scanned(ScanResult)
    /// `searchCache`: the ids of the matching cards for `query`, in wallet order, and for the
    /// first of them what matched in a field the list may not show.
    case cacheMatches(query: String, ids: [String], fields: [String: FieldMatch] = [:])
    /// A change made while the server could not be reached: kept in the local cache's outbox
    /// and sent when it is back; `result` is what the interface shows meanwhile.
    indirect case queued(CallResult)
    /// `loadCards` when the server could not be reached: the cached wallet (a page of it), as
    /// the server last confirmed it at `asOf`.
    case cachedCards(CardPage, asOf: Date)
    /// `loadCards` when the server could not be reached and the local cache holds no cards for
    /// the account yet (a first start offline): the app says so and keeps trying.
    case offlineNothingCached
    /// The answer to `loadCards` after the outbox was sent, with the edits made offline that the
    /// server refused as conflicts (the card changed there meanwhile): each opens the form's
    /// conflict view in turn.
    indirect case withOfflineConflicts([OfflineConflict], CallResult)
    /// The All view's `loadCards` when some books answered and others did not: those, shown
    /// from their caches, for the status bar to name.
    indirect case withBooksBehind([BookBehind], CallResult)
    /// `resolveOfflineEdit`: the entry is gone from the outbox.
    case resolvedOfflineEdit
    /// `listBooks`: every book of every stored account.
    case books([BookChoice])
    /// `transferCard` and `mergeCards`: what was done, for the status bar.
    case transferred(String)
    /// `loadMerge`: the two cards, whole, and the labels of their books.
    case mergeCandidates(left: Card, right: Card, leftBook: String, rightBook: String)
}

/// Where a search over every field found a card: the list shows it when the field is not one
/// of its columns (`phone: 821055501234`).
public struct FieldMatch: Equatable, Sendable {
    /// The first field that matched.
    public var field: CardField
    /// The line or item of that field that matched, as the search reads it (lowercased,
    /// without accents; a phone number as its digits), already cut short; untrusted text.
    public var excerpt: String

    /// A match.
    public init(field: CardField, excerpt: String) {
        self.field = field
        self.excerpt = excerpt
    }
}

/// A card as it was just before it was deleted, enough to make it again.
public struct DeletedCard: Equatable, Sendable {
    /// The card.
    public var card: Card
    /// Its image's bytes, when it had one.
    public var image: Data?

    /// A deleted card.
    public init(card: Card, image: Data? = nil) {
        self.card = card
        self.image = image
    }
}

/// How an ``AppCall`` ended.
public typealias CallOutcome = Result<CallResult, UIFailure>

/// Something the reducer wants done outside the pure core.
public enum Effect: Equatable, Sendable {
    /// Perform `call` (as a task) and send back `.completed(id, outcome)`.
    case perform(CallID, AppCall)
    /// Stop the main loop and restore the terminal.
    case quit
    /// Clear the terminal and paint the next frame whole.
    case redraw
    /// Drop the keys typed but not yet read: they were typed before a dialog that takes text
    /// was on screen, and must not land in it.
    case discardTypeahead
    /// Put `text` on the system clipboard (OSC 52, which works over SSH and in tmux).
    case copyToClipboard(String)
    /// Open `url` (a web address or a `mailto:` link) in the user's browser or mail program.
    case openExternally(String)
    /// Cancel call `id` (its task is cancelled; its outcome still comes back, usually
    /// ``UIFailure/Kind/cancelled``).
    case cancel(CallID)
    /// Write `bytes` to the terminal as they are, outside the grid (kitty's image
    /// transmissions and deletes).
    case writeToTerminal([UInt8])
}
