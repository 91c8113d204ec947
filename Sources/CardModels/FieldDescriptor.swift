/// Everything the program knows about one card field, in one place: its key, label and kind,
/// its limits, where it goes in a vCard, whether and in which order it is searched, and its
/// place in the detail view, the form and the command line.
///
/// Every layer reads the descriptors (``CardField/descriptor``) instead of listing fields:
/// validation and coding (CardModels), the search index (CardCache), the vCard mapping
/// (CardVCard's `FieldRule` rows), the detail view and the form (CardWalletUI), the `--FIELD`
/// options of `add` and `edit`. docs/Architecture.md, *How to add a field*, says what a new
/// field costs.
///
/// A class, made once per field: reading a descriptor in a hot loop (the vCard importer asks a
/// field's kind and limit for every value it reads) costs one reference, not a copy of its text.
public final class FieldDescriptor: Sendable {
    /// What a field holds. It decides how the value is stored (text, a list, a number), checked,
    /// indexed, shown and read from a vCard.
    public enum Kind: Sendable, Equatable {
        /// One line of text.
        case shortText
        /// Text of several lines (the form's Enter starts a new line there).
        case longText
        /// An email address.
        case email
        /// A phone number: digits, spaces and `+ - ( ) .`, at least three digits.
        case phone
        /// An `http://` or `https://` address.
        case url
        /// A calendar date, `YYYY-MM-DD`.
        case date
        /// A list of short texts.
        case list(ListStyle)
        /// A whole number in a range; 0 is "not set".
        case number(ClosedRange<Int>)

        /// Whether the value is one text (not a list, not a number).
        public var isText: Bool {
            switch self {
            case .list, .number: false
            case .shortText, .longText, .email, .phone, .url, .date: true
            }
        }

        /// The list's style, for a list.
        public var list: ListStyle? {
            if case .list(let style) = self { return style }
            return nil
        }

        /// Whether a value may be cut short to fit (free text and lists): a value with a format
        /// (an email, a phone number, a web address, a date, a number) cut short would be
        /// another value.
        public var isClippable: Bool {
            switch self {
            case .shortText, .longText, .list: true
            case .email, .phone, .url, .date, .number: false
            }
        }
    }

    /// How a list field is typed and shown.
    public struct ListStyle: Sendable, Equatable {
        /// What separates items typed on one line (`;` for fun facts, `,` for tags).
        public var separator: Character
        /// The most items.
        public var maximumCount: Int
        /// What the items are called in messages ("facts", "tags").
        public var noun: String
        /// Whether the detail view and `show` put each item on its own line (fun facts) rather
        /// than joined with ", " (tags).
        public var eachOnItsOwnLine: Bool

        /// A list style.
        public init(separator: Character, maximumCount: Int, noun: String, eachOnItsOwnLine: Bool) {
            self.separator = separator
            self.maximumCount = maximumCount
            self.noun = noun
            self.eachOnItsOwnLine = eachOnItsOwnLine
        }

        /// How the items are joined into one line of text: the separator and a space.
        public var joiner: String { String(separator) + " " }
    }

    /// Where a field goes in a vCard (RFC 6350).
    public struct VCardPlace: Sendable, Equatable {
        /// Which part of the property's value the field is.
        public enum Value: Sendable, Equatable {
            /// The whole value, as the field's kind reads it (text, an email, a `tel:` number, a
            /// URI, a date, a number).
            case whole
            /// Component `index` of a structured value (`ORG`: 0 the company, 1 the department).
            case component(Int)
            /// A postal address (`ADR`): read from all its parts as one text, written as the
            /// street of its seven.
            case address
            /// One item of a list field per property, repeated (`X-CARDWALLET-TMI`).
            case each
            /// A comma-separated list (`CATEGORIES`).
            case list
        }

        /// The property name, upper-case.
        public var property: String
        /// Which part of the value.
        public var value: Value
        /// Whether, of several such properties, the most preferred (`PREF`) fills the field;
        /// otherwise the first usable one does.
        public var isPreferred: Bool
        /// Where the writer puts the property: lower first (properties of several fields take
        /// their first field's).
        public var order: Int

        /// A vCard place.
        public init(_ property: String, _ value: Value = .whole, preferred: Bool = false, order: Int) {
            self.property = property
            self.value = value
            self.isPreferred = preferred
            self.order = order
        }
    }

    /// Where the detail view shows a field.
    public enum DetailPlace: Sendable, Equatable {
        /// The heading (the name).
        case heading
        /// The line under the heading, joined with ` · `, by rank.
        case subtitle(Int)
        /// A labelled row, by rank (a list of ``ListStyle/eachOnItsOwnLine`` items takes a row
        /// per item).
        case row(Int)
        /// The Image row, when the card has no picture (the avatar's number).
        case avatar
    }

    /// The `--FIELD` option of `cardwallet add` and `edit`.
    public struct Option: Sendable, Equatable {
        /// The long names, without `--`; the first is the one messages name.
        public var names: [String]
        /// The value's name in `--help`.
        public var valueName: String
        /// The help text.
        public var help: String

        /// An option.
        public init(_ names: [String], _ valueName: String, _ help: String) {
            self.names = names
            self.valueName = valueName
            self.help = help
        }

        /// The option as messages name it: `--tag`.
        public var flag: String { "--" + names[0] }
    }

    /// The field.
    public let field: CardField
    /// A label for people.
    public let label: String
    /// What it holds.
    public let kind: Kind
    /// Whether a card must have it (the name).
    public let isRequired: Bool
    /// The longest text accepted for one value (one item of a list), in characters.
    public let maxLength: Int
    /// A hint on the expected format, for forms.
    public let hint: String
    /// Where it goes in a vCard; `nil`: nowhere (kept out of vCards).
    public let vCard: VCardPlace?
    /// Its rank among the searched fields (a search reports the first that matched, lowest
    /// rank first); `nil`: not searched.
    public let searchRank: Int?
    /// Where the detail view shows it.
    public let detail: DetailPlace
    /// Its option on the command line.
    public let option: Option

    /// A field's description; the hint follows from the kind unless given.
    public init(
        _ field: CardField, _ label: String, _ kind: Kind, required: Bool = false, maxLength: Int,
        hint: String? = nil, vCard: VCardPlace?, searchRank: Int?, detail: DetailPlace, option: Option
    ) {
        self.field = field
        self.label = label
        self.kind = kind
        self.isRequired = required
        self.maxLength = maxLength
        self.vCard = vCard
        self.searchRank = searchRank
        self.detail = detail
        self.option = option
        self.hint = hint ?? Self.hint(for: kind, maxLength: maxLength, required: required)
    }

    /// The key of JSON, multipart parts and the server's field problems: the field's raw value.
    public var key: String { field.rawValue }

    private static func hint(for kind: Kind, maxLength: Int, required: Bool) -> String {
        switch kind {
        case .shortText, .longText: required ? "required, 1–\(maxLength) characters" : "up to \(maxLength) characters"
        case .email: "name@example.com"
        case .phone: "digits, spaces and + - ( ) ."
        case .url: "https://…"
        case .date: "YYYY-MM-DD"
        case .list(let style): "separated by \(style.separator)"
        case .number(let range): "a number \(range.lowerBound)–\(range.upperBound)"
        }
    }
}
