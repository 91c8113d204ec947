public import CardModels

/// The file formats cards are exported in.
public enum ExportFormat: String, CaseIterable, Equatable, Sendable {
    /// vCard 3.0: what most programs read best (the default).
    case vcard3
    /// vCard 4.0.
    case vcard4
    /// The CSV Google Contacts imports.
    case csv
    /// The API's JSON, one array.
    case json

    /// For people: `vCard 3.0`.
    public var label: String {
        switch self {
        case .vcard3: "vCard 3.0"
        case .vcard4: "vCard 4.0"
        case .csv: "Google CSV"
        case .json: "JSON"
        }
    }

    /// The file name extension, without the dot.
    public var fileExtension: String {
        switch self {
        case .vcard3, .vcard4: "vcf"
        case .csv: "csv"
        case .json: "json"
        }
    }

    /// The next format, for the export dialog's Tab.
    public var next: ExportFormat {
        let all = Self.allCases
        return all[(all.firstIndex(of: self)! + 1) % all.count]
    }
}

/// What to export, and where.
public struct ExportRequest: Equatable, Sendable {
    /// Which cards.
    public enum Cards: Equatable, Sendable {
        /// These cards, in this order.
        case ids([String])
        /// Every card of the wallet, in wallet order.
        case all
    }

    /// Which cards.
    public var cards: Cards
    /// The file, as typed (`~` is the home folder; relative to the current folder).
    public var path: String
    /// The format.
    public var format: ExportFormat
    /// Whether an existing file may be replaced.
    public var replacing: Bool

    /// A request.
    public init(cards: Cards, path: String, format: ExportFormat, replacing: Bool = false) {
        self.cards = cards
        self.path = path
        self.format = format
        self.replacing = replacing
    }
}

/// How far a long call has got: sent into the inbox while it runs.
public struct CallProgress: Equatable, Sendable {
    /// Steps done.
    public var done: Int
    /// Steps in all, when known.
    public var total: Int?
    /// An address the person must open to go on: a browser login's authorization page.
    public var link: String?

    /// Progress.
    public init(done: Int, total: Int?, link: String? = nil) {
        self.done = done
        self.total = total
        self.link = link
    }
}

/// How many cards an import creates, updates, leaves alone and skips.
public struct ImportCounts: Equatable, Sendable {
    /// New cards.
    public var created = 0
    /// Cards changed.
    public var updated = 0
    /// Cards already up to date.
    public var unchanged = 0
    /// Cards not imported.
    public var skipped = 0

    /// Counts.
    public init(created: Int = 0, updated: Int = 0, unchanged: Int = 0, skipped: Int = 0) {
        self.created = created
        self.updated = updated
        self.unchanged = unchanged
        self.skipped = skipped
    }

    /// All cards counted.
    public var total: Int { created + updated + unchanged + skipped }

    /// `3 created, 1 updated, 5 unchanged, 1 skipped`.
    public var summary: String {
        "\(created) created, \(updated) updated, \(unchanged) unchanged, \(skipped) skipped"
    }
}

/// What an import would do, read and planned by the glue before anything is sent.
public struct ImportPreview: Equatable, Sendable {
    /// One card of the file and what happens to it.
    public struct Entry: Equatable, Sendable {
        /// What happens.
        public enum Kind: Equatable, Sendable {
            case create, update, unchanged, skip
        }

        /// What happens.
        public var kind: Kind
        /// The card's name (empty when it has none).
        public var name: String
        /// More: what an update changes, why a card is skipped (`FILE:LINE: …`).
        public var detail: String

        /// An entry.
        public init(_ kind: Kind, name: String, detail: String = "") {
            self.kind = kind
            self.name = name
            self.detail = detail
        }
    }

    /// The glue's handle on the plan, which ``AppCall/runImport(planID:)`` carries out.
    public var planID: Int
    /// The file read, as typed.
    public var file: String
    /// The counts.
    public var counts: ImportCounts
    /// The entries, in file order.
    public var entries: [Entry]

    /// A preview.
    public init(planID: Int, file: String, counts: ImportCounts, entries: [Entry]) {
        self.planID = planID
        self.file = file
        self.counts = counts
        self.entries = entries
    }

    /// Whether carrying it out would change anything.
    public var changesSomething: Bool { counts.created + counts.updated > 0 }
}

/// What an import did.
public struct ImportReport: Equatable, Sendable {
    /// What was done, card by card (skipped: the plan's and the server's refusals).
    public var counts: ImportCounts
    /// The cards the plan had.
    public var planned: Int
    /// Set when Esc stopped it between two cards.
    public var cancelled: Bool
    /// Why it stopped before the end otherwise (the network, the session).
    public var failure: String?
    /// The first cards the server refused, `FILE:LINE: why`.
    public var problems: [String]

    /// A report.
    public init(
        counts: ImportCounts, planned: Int, cancelled: Bool = false, failure: String? = nil, problems: [String] = []
    ) {
        self.counts = counts
        self.planned = planned
        self.cancelled = cancelled
        self.failure = failure
        self.problems = problems
    }
}

/// A photo of a paper card, read into card fields by the glue.
public struct ScanResult: Equatable, Sendable {
    /// Something the scan was unsure of, about a field (its key) or the card (`nil`).
    public struct Note: Equatable, Sendable {
        /// The field's key (`name`, `phone`, …) or `nil`.
        public var field: String?
        /// What, for people.
        public var text: String

        /// A note.
        public init(field: String?, text: String) {
            self.field = field
            self.text = text
        }
    }

    /// The fields found (a name may be empty); extra numbers and addresses are kept lines.
    public var fields: CardFields
    /// What it was unsure of.
    public var notes: [Note]
    /// The file to attach as the card's image: the photo, or an upright copy small enough for
    /// the server; `nil` when none could be made.
    public var imagePath: String?
    /// Why the photo cannot be the card's image, when it cannot.
    public var imageProblem: String?

    /// A result.
    public init(fields: CardFields, notes: [Note] = [], imagePath: String? = nil, imageProblem: String? = nil) {
        self.fields = fields
        self.notes = notes
        self.imagePath = imagePath
        self.imageProblem = imageProblem
    }
}
