public import CardModels

/// The books a card can move or be copied to (issue 40): `m` (move) and `c` (copy) on the card
/// list open it over the list with every book of every stored account; j/k choose, Enter moves
/// or copies the selected card there (the dialog says so while it runs), Esc closes. An
/// ``Overlay``: its state, keys, reducer and renderer are all here.
public struct BookPicker: Overlay {
    /// A move or a copy.
    public enum Purpose: String, Equatable, Sendable {
        case move, copy
    }

    /// A move or a copy.
    public var purpose: Purpose
    /// The card.
    public var card: CardSummary
    /// The books, once read (`nil` while asked for).
    public var books: [BookChoice]?
    /// The row chosen.
    public var selected = 0
    /// Whether the move or the copy is on its way.
    public var working = false

    /// The picker for `card`.
    public init(purpose: Purpose, card: CardSummary, books: [BookChoice]? = nil) {
        self.purpose = purpose
        self.card = card
        self.books = books
    }

    /// `m`: move the selected card to another book.
    public static let moveOpener = opener(.move)
    /// `c`: copy the selected card to another book.
    public static let copyOpener = opener(.copy)

    private static func opener(_ purpose: Purpose) -> OverlayOpener {
        OverlayOpener(purpose == .move ? "move to a book" : "copy to a book") { app in
            guard app.screen == .list, let card = app.list.selectedCard else {
                return .refuse("No card to \(purpose.rawValue)")
            }
            return .open(BookPicker(purpose: purpose, card: card), [.call(.listBooks, tag: "books")])
        }
    }

    /// Its keys.
    public static let keys = KeyTable(
        "Move or copy to a book",
        [
            KeyBinding(.down, .char("j"), command: .overlay(.scroll(.down)), "next book", hint: KeyHint("j/k", "move")),
            KeyBinding(.up, .char("k"), command: .overlay(.scroll(.up)), "previous book"),
            KeyBinding(.enter, command: .overlay(.accept), "move or copy the card there", hint: KeyHint("Enter", "go")),
            KeyBinding(.escape, .char("q"), command: .overlay(.cancel), "close", hint: KeyHint("Esc", "close")),
        ])

    public var keyTables: [KeyTable] { [Self.keys, KeyTables.interrupt] }
    public var unboundKeyMessage: String { "Key is not bound here: Enter chooses the book, Esc closes" }

    /// The tag of the book the card is in: its id's in the All view, else the book in use's.
    func isHome(_ book: BookChoice) -> Bool {
        if let tag = BookCardID.split(card.id)?.book { return tag == book.tag }
        return book.inUse
    }

    public mutating func reduce(_ command: OverlayCommand, typed: Character?, app: AppState) -> [OverlayEffect] {
        guard !working else {
            return command == .cancel ? [.message(.info, "It is on its way: the dialog closes when it is done")] : []
        }
        let count = books?.count ?? 0
        switch command {
        case .scroll(let direction):
            guard count > 0 else { return [] }
            switch direction {
            case .down, .pageDown, .halfPageDown: selected = min(count - 1, selected + 1)
            case .up, .pageUp, .halfPageUp: selected = max(0, selected - 1)
            case .top: selected = 0
            case .bottom: selected = count - 1
            }
            return []
        case .accept:
            guard let books else {
                // Not a silent key: the list of books is on its way (the dialog says so).
                return [.message(.info, "Still reading the books: press Enter once they are shown")]
            }
            guard books.indices.contains(selected) else { return [] }
            let book = books[selected]
            guard !isHome(book) else {
                return [.message(.info, "The card is in \(book.label) already: choose another book")]
            }
            working = true
            return [
                .call(.transferCard(id: card.id, toBook: book.tag, copy: purpose == .copy), tag: "transfer")
            ]
        case .cancel:
            return [.close]
        case .toggle, .text, .named:
            return []
        }
    }

    public mutating func finished(tag: String, _ outcome: CallOutcome, app: AppState) -> [OverlayEffect] {
        switch (tag, outcome) {
        case ("books", .success(.books(let found))):
            books = found
            selected = found.firstIndex { !isHome($0) } ?? 0
            if found.filter({ !isHome($0) }).isEmpty {
                return [
                    .close,
                    .message(.info, "There is no other book: log in to another account (A) or make one on its server"),
                ]
            }
            return []
        case ("transfer", .success(.transferred(let text))):
            return [.close, .message(.info, text), .perform(.list(.reload))]
        case (_, .failure(let failure)):
            working = false
            return tag == "books"
                ? [.close, .message(.warning, failure.message)] : [.message(.warning, failure.message)]
        default:
            return []
        }
    }

    public func draw(_ grid: inout Grid, app: AppState, layout: Layout) {
        let verb = purpose == .move ? "Move" : "Copy"
        let rows = books ?? []
        let title = "\(verb) “\(card.name)” to…"
        let widest = rows.map { DisplayWidth.of(TerminalText.escaped(Self.line($0))) + 10 }.max() ?? 0
        let inner = Renderer.drawBox(
            &grid, title: title, width: max(44, min(grid.width - 2, max(widest, DisplayWidth.of(title) + 6))),
            height: max(rows.count, 1) + 4, layout: layout)
        guard books != nil else {
            grid.draw("Reading the books…", x: inner.x, y: inner.y + 1, width: inner.width, style: Theme.muted)
            return
        }
        let shown = max(0, inner.height - 2)
        let first = max(0, min(selected - shown + 1, rows.count - shown))
        for (offset, book) in rows.dropFirst(first).prefix(shown).enumerated() {
            let index = first + offset
            let text = Self.line(book) + (isHome(book) ? "  (here)" : "")
            grid.draw(
                text, x: inner.x, y: inner.y + 1 + offset, width: inner.width,
                style: index == selected ? Theme.selection : (isHome(book) ? Theme.muted : .plain))
        }
        grid.draw(
            working
                ? "\(purpose == .move ? "Moving" : "Copying")…"
                : "Enter \(purpose == .move ? "moves" : "copies") it there · Esc closes",
            x: inner.x, y: inner.y + inner.height - 1, width: inner.width, style: Theme.muted)
    }

    /// `work  (alice@dav.example.com)`.
    static func line(_ book: BookChoice) -> String { "\(book.label)  (\(book.account))" }
}
