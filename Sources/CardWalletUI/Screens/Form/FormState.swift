public import CardModels

/// The add/edit form: every card field as a line of text, validated as you type.
public struct FormState: Equatable, Sendable {
    /// Adding a new card, or editing one at a known version (sent as `If-Match`).
    public enum Mode: Equatable, Sendable {
        case add
        case edit(id: String, revision: CardRevision)
    }

    /// What a form field edits.
    public enum FieldKind: Hashable, Sendable {
        case card(CardField)
        /// The path of a PNG or JPEG to attach (add only: edits send JSON).
        case imagePath

        /// The key the server uses for the field's problems (`image` for the image).
        public var key: String {
            switch self {
            case .card(let field): field.key
            case .imagePath: "image"
            }
        }

        /// For people.
        public var label: String {
            switch self {
            case .card(let field): field.label
            case .imagePath: "Image file"
            }
        }

        /// Whether the field holds several lines (Enter starts a new line there).
        public var isMultiline: Bool {
            if case .card(let field) = self { field.kind == .longText } else { false }
        }

        /// The expected format.
        public var hint: String {
            switch self {
            case .card(let field) where isMultiline: field.hint + "; Enter starts a new line, Ctrl-S saves"
            case .card(let field): field.hint
            case .imagePath: "a PNG or JPEG file, up to 2 MiB (optional)"
            }
        }
    }

    /// One field: its text, its text when the form opened, and whether it was edited.
    public struct Field: Equatable, Sendable {
        /// What the field edits.
        public var kind: FieldKind
        /// The text and cursor.
        public var input: TextFieldState
        /// The text when the form opened (to tell whether it changed).
        public var original: String
        /// Set on the first edit: from then on its problems show as you type.
        public var isTouched = false

        /// A field of `kind` holding `text`.
        public init(_ kind: FieldKind, _ text: String) {
            self.kind = kind
            self.input = TextFieldState(text)
            self.original = text
        }
    }

    /// Adding or editing (with the version for `If-Match`).
    public var mode: Mode
    /// The fields, in order.
    public var fields: [Field]
    /// The focused field's index.
    public var focus = 0
    /// Set by a save with problems: every field's problem shows, edited or not.
    public var showsAllProblems = false
    /// Problems the server reported (E01, E08, E09), by field key, until the field is edited.
    public var serverProblems: [String: String] = [:]
    /// The code the server refused the save with as a conflict (the card API's E07), which the
    /// conflict view names; `nil` when it sent none (a CardDAV server, an edit made offline).
    public var conflictCode: String?
    /// The server's version after a conflict, shown beside the user's, field by field.
    public var conflict: Card?
    /// The fields that took the server's value at the conflict because the user had not
    /// changed them (so saving cannot undo someone else's change).
    public var takenFromServer: Set<Int> = []
    /// Set while the save request is in flight.
    public var isSaving = false
    /// The outbox entry of an edit made offline that this form resolves (its conflict view,
    /// ``init(resolving:)``): saving sends the person's fields, leaving drops the entry.
    public var offlineEntry: Int64?
    /// Whether leaving goes back to the card's details (else to the list).
    public var returnsToDetail: Bool
    /// The card's fields when the form opened: what the form does not show (the kept vCard
    /// properties) is saved as it was.
    public var base: CardFields
    /// The photo prompt of a scan (Ctrl-O), while it shows.
    public var scan: ScanPrompt?
    /// What the last scan was unsure of, by field key, until the field is edited.
    public var scanNotes: [String: [String]] = [:]
    /// What the last scan said about the card as a whole (lines it did not use).
    public var scanCardNotes: [String] = []
    /// The image file whose picture shows beside the fields: the Image field's path, taken
    /// when that field is not focused (after a scan, or once the cursor leaves it), so typing
    /// a path makes no picture per keystroke.
    public var picturePath: String?
    /// The picture of ``picturePath``.
    public var picture: PictureSlot = .none

    /// What a key typed while the save is in flight is told.
    static let savingNotice = "Saving… the text cannot change until the server answers"

    /// An empty form for a new card.
    public init() {
        mode = .add
        let empty = CardFields(name: "")
        fields = CardField.allCases.map { Field(.card($0), empty[$0]) } + [Field(.imagePath, "")]
        returnsToDetail = false
        base = empty
    }

    /// A form editing `card`.
    public init(editing card: Card, returnsToDetail: Bool) {
        mode = .edit(id: card.id, revision: card.revision)
        fields = CardField.allCases.map { Field(.card($0), card.fields[$0]) }
        self.returnsToDetail = returnsToDetail
        base = card.fields
    }

    /// Whether anything differs from when the form opened.
    public var isDirty: Bool { fields.contains { $0.input.text != $0.original } }

    /// The card fields as typed (trimmed; lists split), over what the form does not show.
    public var cardFields: CardFields {
        var result = base
        for field in fields {
            if case .card(let cardField) = field.kind { result[cardField] = field.input.text }
        }
        return result
    }

    /// The image path, trimmed, or `nil` when empty.
    public var imagePath: String? {
        guard let field = fields.first(where: { $0.kind == .imagePath }) else { return nil }
        let path = field.input.text.trimmingSpaces
        return path.isEmpty ? nil : path
    }

    /// The problem to show under field `index` now, if any.
    public func visibleProblem(at index: Int) -> String? {
        guard fields.indices.contains(index) else { return nil }
        let field = fields[index]
        if let problem = serverProblems[field.kind.key] { return problem }
        guard field.isTouched || showsAllProblems else { return nil }
        return localProblem(of: field.kind, in: cardFields)
    }

    /// The server's value of field `index` after a conflict, when it differs from the form's.
    public func serverValue(at index: Int) -> String? {
        guard let conflict, fields.indices.contains(index), case .card(let cardField) = fields[index].kind else {
            return nil
        }
        var mine = CardFields(name: "")
        mine[cardField] = fields[index].input.text
        let theirs = conflict.fields[cardField]
        return mine[cardField] == theirs ? nil : theirs
    }

    /// How field `index` stands after a conflict (E07), when there is one.
    public enum ConflictMark: Equatable, Sendable {
        /// Both sides hold the same text.
        case same
        /// The server changed it and you had not: the form took the server's value.
        case takenFromServer
        /// Only you changed it: the server still has what the form opened with.
        case changedByYou
        /// Both changed it, differently: a real conflict.
        case changedByBoth
    }

    /// How field `index` stands after a conflict; `nil` without one or for the image field.
    public func conflictMark(at index: Int) -> ConflictMark? {
        guard let theirs = serverText(at: index) else { return nil }
        let field = fields[index]
        if takenFromServer.contains(index), field.input.text == theirs { return .takenFromServer }
        if serverValue(at: index) == nil { return .same }
        var original = CardFields(name: "")
        var server = CardFields(name: "")
        if case .card(let cardField) = field.kind {
            original[cardField] = field.original
            server[cardField] = theirs
            if original[cardField] == server[cardField] { return .changedByYou }
        }
        return .changedByBoth
    }

    /// The server's value of field `index` after a conflict, equal to the form's or not; `nil`
    /// without a conflict and for the image field.
    public func serverText(at index: Int) -> String? {
        guard let conflict, fields.indices.contains(index), case .card(let cardField) = fields[index].kind else {
            return nil
        }
        return conflict.fields[cardField]
    }

    /// Adopts `card`, the server's newer version, as the conflict: every field the user has
    /// not changed takes the server's value (a save then keeps the other person's change);
    /// every field the user changed keeps the user's text, with the server's shown beside it.
    mutating func merge(serverVersion card: Card) {
        conflict = card
        // What the form does not show was never the user's to change: keep the server's.
        base = card.fields
        for index in fields.indices {
            guard case .card(let cardField) = fields[index].kind else { continue }
            let field = fields[index]
            let theirs = card.fields[cardField]
            guard field.input.text == field.original, theirs != field.original else { continue }
            var merged = Field(field.kind, theirs)
            merged.isTouched = field.isTouched
            fields[index] = merged
            takenFromServer.insert(index)
        }
    }

    /// The version the next save sends as `If-Match`: the server's after a conflict.
    public var saveRevision: CardRevision? {
        guard case .edit(_, let revision) = mode else { return nil }
        return conflict?.revision ?? revision
    }

    func localProblem(of kind: FieldKind, in cardFields: CardFields) -> String? {
        switch kind {
        case .card(let field): cardFields.problem(for: field)
        case .imagePath: nil
        }
    }
}

extension String {
    /// Without leading and trailing whitespace.
    var trimmingSpaces: String {
        var slice = Substring(self)
        while slice.first?.isWhitespace == true { slice.removeFirst() }
        while slice.last?.isWhitespace == true { slice.removeLast() }
        return String(slice)
    }
}
