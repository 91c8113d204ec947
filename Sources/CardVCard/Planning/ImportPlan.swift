public import CardModels

/// A card read from a named input (a file, a vdir entry, standard input).
public struct SourcedCard: Sendable, Hashable {
    /// The input's name, for `FILE:LINE` messages.
    public var file: String
    /// The card.
    public var card: ImportedCard

    /// A sourced card.
    public init(file: String, card: ImportedCard) {
        self.file = file
        self.card = card
    }
}

/// A problem of a named input.
public struct SourcedProblem: Sendable, Hashable, CustomStringConvertible {
    /// The input's name.
    public var file: String
    /// The problem.
    public var problem: VCardProblem

    /// A sourced problem.
    public init(file: String, problem: VCardProblem) {
        self.file = file
        self.problem = problem
    }

    /// `FILE:LINE: what is wrong`.
    public var description: String { problem.formatted(file: file) }
}

/// What an import will do, card by card, decided before anything is sent.
public struct ImportPlan: Sendable, Equatable {
    /// What happens to one card of the input.
    public enum Action: Sendable, Equatable {
        /// A new card at the end of the wallet.
        case create(ImportedCard)
        /// An existing card changes: its fields (when `fields` is not `nil`) and its image (when
        /// `photo` is not `nil`), based on `revision`.
        case update(cardID: String, revision: CardRevision, fields: CardFields?, photo: VCardPhoto?)
        /// An existing card already says all this.
        case unchanged(cardID: String)
        /// The card is not imported.
        case skip(VCardProblem)
    }

    /// One card of the input and what happens to it.
    public struct Entry: Sendable, Equatable {
        /// The input it came from.
        public var file: String
        /// Its line (its `BEGIN:VCARD`, or the line at fault).
        public var line: Int
        /// Its name, when it has one.
        public var name: String?
        /// What happens.
        public var action: Action
    }

    /// The entries, in input order (skipped cards where the reader met them).
    public var entries: [Entry]

    /// How many entries of each kind.
    public var counts: Counts {
        var counts = Counts()
        for entry in entries {
            switch entry.action {
            case .create: counts.created += 1
            case .update: counts.updated += 1
            case .unchanged: counts.unchanged += 1
            case .skip: counts.skipped += 1
            }
        }
        return counts
    }

    /// Counts of a plan (or of what was done).
    public struct Counts: Sendable, Equatable, Codable {
        /// Cards created.
        public var created = 0
        /// Cards updated.
        public var updated = 0
        /// Cards already up to date.
        public var unchanged = 0
        /// Cards skipped.
        public var skipped = 0

        /// Counts.
        public init(created: Int = 0, updated: Int = 0, unchanged: Int = 0, skipped: Int = 0) {
            self.created = created
            self.updated = updated
            self.unchanged = unchanged
            self.skipped = skipped
        }

        /// `created 3, updated 1, unchanged 5, skipped 1`.
        public var summary: String {
            "created \(created), updated \(updated), unchanged \(unchanged), skipped \(skipped)"
        }
    }
}
