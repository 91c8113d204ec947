public import CardModels

/// A picture asked for: the card's version (its ETag), or the local file the add form shows,
/// and the box it must fit.
public struct PictureRequest: Equatable, Sendable {
    /// The card's version the image belongs to (0 for a local file).
    public var revision: CardRevision
    /// The file on this machine the picture is made from (the add form's photo); `nil` for a
    /// card's image on the server.
    public var path: String?
    /// The cells it may take.
    public var box: PictureBox

    /// A request for a card's image.
    public init(revision: CardRevision, box: PictureBox) {
        self.revision = revision
        self.path = nil
        self.box = box
    }

    /// A request for the image file at `path`.
    public init(path: String, box: PictureBox) {
        self.revision = .unsent
        self.path = path
        self.box = box
    }
}

/// Where the detail screen's picture stands.
public enum PictureSlot: Equatable, Sendable {
    /// No picture: the card has none, or pictures are off.
    case none
    /// Asked for.
    case loading(PictureRequest)
    /// Here.
    case shown(PictureRequest, TerminalPicture)
    /// It cannot be shown: a damaged image, the network. The message shows in its place.
    case failed(PictureRequest, String)

    /// What was asked for last.
    public var request: PictureRequest? {
        switch self {
        case .none: nil
        case .loading(let request), .shown(let request, _), .failed(let request, _): request
        }
    }

    /// The picture, when it is here.
    public var picture: TerminalPicture? {
        if case .shown(_, let picture) = self { return picture }
        return nil
    }

    /// Takes the answer to `request` (the detail view's and the form's alike): an answer to an
    /// older question (a resize, a new version or path) is not shown; a failure shows its
    /// message in the picture's place (`notFound` for a card that lost its image).
    ///
    /// - Returns: The bytes to write to the terminal for the picture (kitty's transmission), if any.
    mutating func arrived(_ request: PictureRequest, _ outcome: CallOutcome, notFound: String? = nil) -> [UInt8] {
        guard self.request == request else { return [] }
        switch outcome {
        case .success(.picture(let shown)):
            self = .shown(request, shown)
            return shown.transmit
        case .success:
            return []
        case .failure(let failure):
            self = .failed(request, failure.kind == .notFound ? notFound ?? failure.message : failure.message)
            return []
        }
    }
}

/// The QR code over the detail screen.
public enum QRView: Equatable, Sendable {
    /// Asked for with `Q`; made for the screen's size at the next settle.
    case wanted
    /// Being made for this box.
    case loading(PictureBox)
    /// Made for this box.
    case shown(PictureBox, QRSymbol)
    /// It could not be made.
    case failed(String)

    /// The box it was made (or is being made) for.
    var box: PictureBox? {
        switch self {
        case .loading(let box), .shown(let box, _): box
        case .wanted, .failed: nil
        }
    }
}

/// A card's kept vCard lines as people read them.
public struct KeptLines: Equatable, Sendable {
    /// The card's version they belong to.
    public var revision: CardRevision
    /// The lines, once the glue has made them readable.
    public var lines: [String]?
}

extension DetailState {
    /// The calls the screen lacks now: the picture for this version and box, the kept lines.
    mutating func settle(pictureBox box: PictureBox?, qrBox: PictureBox) -> [DetailEffect] {
        var effects: [DetailEffect] = []
        if let qr, let card {
            let stale: Bool =
                switch qr {
                case .wanted: true
                case .loading(let asked), .shown(let asked, _): asked != qrBox
                case .failed: false
                }
            if stale {
                self.qr = .loading(qrBox)
                effects.append(.call(.qrCode(card, fits: qrBox), then: .qr(qrBox)))
            }
        }
        if let card {
            if let kept = keptLines, kept.revision == card.revision {
                // Asked for already.
            } else if card.fields.vcardProperties.isEmpty {
                keptLines = nil
            } else {
                keptLines = KeptLines(revision: card.revision, lines: nil)
                effects.append(
                    .call(.vcardLines(card.fields.vcardProperties), then: .keptLines(revision: card.revision)))
            }
        }
        guard let card, card.hasImage, let box, box.columns > 0, box.rows > 0 else {
            // Nothing to show (yet): a picture of an older version or size stays until then,
            // unless the card lost its image.
            if let card, !card.hasImage { picture = .none }
            return effects
        }
        let request = PictureRequest(revision: card.revision, box: box)
        guard picture.request != request else { return effects }
        picture = .loading(request)
        effects.append(.call(.cardPicture(id: card.id, revision: card.revision, box: box), then: .picture(request)))
        return effects
    }

    /// The picture asked for as `request` arrived (or did not).
    mutating func pictureArrived(_ request: PictureRequest, _ outcome: CallOutcome) -> [DetailEffect] {
        let transmit = picture.arrived(request, outcome, notFound: "The card has no image any more.")
        return transmit.isEmpty ? [] : [.terminal(transmit)]
    }

    /// The QR code made for `box` arrived (or could not be made).
    mutating func qrArrived(_ outcome: CallOutcome, box: PictureBox) -> [DetailEffect] {
        // Closed meanwhile (a key), or asked again for another size (a resize).
        guard qr?.box == box else { return [] }
        switch outcome {
        case .success(.qrSymbol(let symbol)):
            qr = .shown(box, symbol)
        case .success:
            qr = nil
        case .failure(let failure):
            qr = .failed(failure.message)
        }
        return []
    }
}
