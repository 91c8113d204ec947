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
        /// What the import of this card changed or could not keep (a value clipped, a name
        /// derived, a kept line left out), for the report; the card comes in all the same.
        public var warnings: [VCardProblem] = []
    }

    /// A card of the input that is another card of the input again — the same UID, or the same
    /// name and email (``ImportPlanner``) — so it makes no card of its own: what it adds is
    /// merged into the first one's entry.
    public struct Duplicate: Sendable, Equatable {
        /// The input it came from.
        public var file: String
        /// Its line (its `BEGIN:VCARD`).
        public var line: Int
        /// Its name.
        public var name: String?
        /// The input of the card it is a duplicate of (whose entry is in ``entries``).
        public var firstFile: String
        /// The line of that card.
        public var firstLine: Int
        /// Whether it added something (a value the first card lacked, a value of its own kept as
        /// a vCard property, a kept line, a photo) that the first card's entry now carries; when
        /// not, it said nothing new.
        public var merged: Bool
        /// Its warnings, and those of the merge (a kept line the merged card could not hold).
        public var warnings: [VCardProblem]
    }

    /// The entries, in input order (skipped cards where the reader met them).
    public var entries: [Entry]
    /// The cards of the input that were duplicates of others, in input order.
    public var duplicates: [Duplicate] = []
    /// Warnings about the inputs outside their cards (text around them, stray bytes).
    public var warnings: [SourcedProblem] = []

    /// How many entries of each kind; duplicates count as merged, or as unchanged when they
    /// said nothing new.
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
        for duplicate in duplicates {
            if duplicate.merged { counts.merged += 1 } else { counts.unchanged += 1 }
        }
        return counts
    }

    /// Counts of a plan (or of what was done).
    public struct Counts: Sendable, Equatable, Codable {
        /// Cards created.
        public var created = 0
        /// Cards updated.
        public var updated = 0
        /// Cards already up to date (duplicates of the input that said nothing new included).
        public var unchanged = 0
        /// Duplicates of the input merged into another card of the input.
        public var merged = 0
        /// Cards skipped.
        public var skipped = 0

        /// Counts.
        public init(created: Int = 0, updated: Int = 0, unchanged: Int = 0, merged: Int = 0, skipped: Int = 0) {
            self.created = created
            self.updated = updated
            self.unchanged = unchanged
            self.merged = merged
            self.skipped = skipped
        }

        /// `created 3, updated 1, unchanged 5, skipped 1`, with `merged 2` before `skipped`
        /// when duplicates were merged.
        public var summary: String {
            "created \(created), updated \(updated), unchanged \(unchanged), "
                + (merged > 0 ? "merged \(merged), " : "") + "skipped \(skipped)"
        }
    }
}
