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
    /// Set after `y`: the next key says which field to copy.
    public var isChoosingCopy = false
    /// The card's image as this terminal shows it, fetched when the card shows.
    public var picture: PictureSlot = .none
    /// The QR code over the card (`Q`), while it shows.
    public var qr: QRView?
    /// The kept vCard lines as people read them, for the card's version.
    public var keptLines: KeptLines?

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
    /// The card's picture, for this version and box.
    case picture(PictureRequest)
    /// The card as a QR code, fitting this box.
    case qr(PictureBox)
    /// The kept vCard lines of this version, to show.
    case keptLines(revision: CardRevision)
}

/// What can happen to the detail screen.
public enum DetailAction: Equatable, Sendable {
    case command(DetailCommand)
    /// A call the screen made finished (the card itself reaches it as ``loaded(_:)``).
    case finished(DetailCall, CallOutcome)
    /// The card arrived (or was saved).
    case loaded(Card)
    /// Loading failed (other than "not found", which closes the screen).
    case loadFailed
    /// After every change: the picture fits `pictureBox` now (`nil`: no picture is shown) and
    /// a QR code `qrBox`, so the screen asks for what it lacks (the picture or the QR code at
    /// this size, the kept lines).
    case settle(pictureBox: PictureBox?, qrBox: PictureBox)
}

/// What the detail screen asks the app to do.
public enum DetailEffect: Equatable, Sendable {
    case edit(Card)
    case delete(CardSummary)
    /// Make `call`; its outcome comes back as ``DetailAction/finished(_:_:)`` with `then`.
    case call(AppCall, then: DetailCall)
    case back
    /// Put `text` (the card's `what`) on the clipboard.
    case copy(String, what: String)
    /// Open `url` outside the program (a browser, a mail program).
    case open(String)
    case message(StatusMessage.Kind, String)
    /// Write bytes to the terminal outside the grid (a kitty picture's transmission).
    case terminal([UInt8])
    /// Export this card (the export dialog opens).
    case export(CardSummary)
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
        case .command(.startCopy):
            isChoosingCopy = true
            effects = [
                .message(.info, "Copy which? n name, e email, p phone, w website, a address, y all (Esc: nothing)")
            ]
        case .command(.cancelCopy):
            isChoosingCopy = false
            effects = [.message(.info, "Copied nothing")]
        case .command(.copy(let target)):
            isChoosingCopy = false
            effects = copy(target)
        case .command(.openWebsite):
            guard let website = card?.fields.website ?? nil, !website.isEmpty else {
                effects = [.message(.info, "This card has no website")]
                break
            }
            effects = [.open(website), .message(.info, "Opening \(website)…")]
        case .command(.showQR):
            guard card != nil || isLoading else {
                effects = [.message(.info, "The card is not loaded: r loads it again")]
                break
            }
            // Asked for by the next settle, which knows the screen's size (and has the whole
            // card: a Q pressed while it loads shows the code once it is here).
            qr = .wanted
        case .command(.closeQR):
            qr = nil
        case .command(.export):
            effects = [.export(card?.summary ?? summary)]
        case .settle(let box, let qrBox):
            effects = settle(pictureBox: box, qrBox: qrBox)
        case .command(.writeEmail):
            guard let email = card?.fields.email ?? summary.email, !email.isEmpty else {
                effects = [.message(.info, "This card has no email address")]
                break
            }
            effects = [.open("mailto:" + email), .message(.info, "Writing to \(email)…")]
        case .loaded(let card):
            self.card = card
            summary = card.summary
            isLoading = false
        case .loadFailed:
            isLoading = false
        case .finished(.picture(let request), let outcome):
            effects = pictureArrived(request, outcome)
        case .finished(.qr(let box), let outcome):
            effects = qrArrived(outcome, box: box)
        case .finished(.keptLines(let revision), let outcome):
            if case .success(.vcardText(let lines)) = outcome, keptLines?.revision == revision {
                keptLines = KeptLines(revision: revision, lines: lines)
            }
        case .finished(.load(let loaded), let outcome):
            guard loaded == id, case .failure(let failure) = outcome else { break }
            isLoading = false
            if qr == .wanted { qr = nil }
            effects =
                failure.kind == .notFound
                ? [.message(.warning, "That card no longer exists\(failure.codeNote)")]
                : [.message(.error, FailureText.status(failure, doing: "Could not load the card"))]
        }
        scroll = min(max(0, scroll), max(0, lineCount - viewport))
        return effects
    }
}

extension DetailState {
    /// What `y` then `target` copies, or why nothing.
    func copy(_ target: CopyTarget) -> [DetailEffect] {
        let fields = card?.fields
        let (value, what): (String?, String) =
            switch target {
            case .name: (fields?.name ?? summary.name, "the name")
            case .email: (fields?.email ?? summary.email, "the email address")
            case .phone: (fields?.phone, "the phone number")
            case .website: (fields?.website, "the website")
            case .address: (fields?.address, "the address")
            case .card: (card.map(Self.text(of:)), "the card")
            }
        guard let value, !value.isEmpty else { return [.message(.info, "This card has no \(what.dropFirst(4))")] }
        return [.copy(value, what: what)]
    }

    /// The card as plain text, one "Label: value" line per field that has one.
    static func text(of card: Card) -> String {
        CardField.allCases.compactMap { field in
            let value = card.fields[field]
            guard !value.isEmpty, field.descriptor.detail != .avatar else { return nil }
            return "\(field.label): \(value)"
        }.joined(separator: "\n")
    }
}
