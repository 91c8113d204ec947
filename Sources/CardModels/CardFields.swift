/// The editable part of a business card: what a client sends to create or edit one.
///
/// Optional text fields are `nil` when absent; `normalized()` trims whitespace and turns empty
/// strings into `nil`, so "" and a missing field mean the same thing everywhere.
public struct CardFields: Codable, Sendable, Equatable, Hashable {
    /// The name: required, 1–64 characters.
    public var name: String
    /// Job title.
    public var title: String?
    /// Company or organisation.
    public var company: String?
    /// Department or team.
    public var department: String?
    /// Email address.
    public var email: String?
    /// Phone number: digits, spaces and `+ - ( ) .`.
    public var phone: String?
    /// An `http://` or `https://` address.
    public var website: String?
    /// Postal address, up to 200 characters.
    public var address: String?
    /// A short biography, up to 500 characters.
    public var bio: String?
    /// `YYYY-MM-DD`.
    public var birthday: String?
    /// Up to three short fun facts ("too much information").
    public var funFacts: [String]
    /// Free-form tags, up to ten.
    public var tags: [String]
    /// The avatar (0–7) shown when the card has no image.
    public var defaultImage: Int
    /// What an imported vCard held that the card does not model (a second phone, a fax, a
    /// birthday without a year, `X-` properties, social profiles, `UID`…), as unfolded vCard
    /// content lines (`TEL;TYPE=FAX:+1 555 0100`), in the order they came. Kept with the card
    /// and written back on export; never edited by forms. At most
    /// ``CardLimits/vcardPropertiesMaxCount`` lines of ``CardLimits/vcardPropertyMaxLength``
    /// characters, ``CardLimits/vcardPropertiesMaxTotalLength`` in all.
    public var vcardProperties: [String]

    /// Creates card fields; everything but the name is optional.
    public init(
        name: String, title: String? = nil, company: String? = nil, department: String? = nil,
        email: String? = nil, phone: String? = nil, website: String? = nil, address: String? = nil,
        bio: String? = nil, birthday: String? = nil, funFacts: [String] = [], tags: [String] = [],
        defaultImage: Int = 0, vcardProperties: [String] = []
    ) {
        self.name = name
        self.title = title
        self.company = company
        self.department = department
        self.email = email
        self.phone = phone
        self.website = website
        self.address = address
        self.bio = bio
        self.birthday = birthday
        self.funFacts = funFacts
        self.tags = tags
        self.defaultImage = defaultImage
        self.vcardProperties = vcardProperties
    }

    /// A field's stored value. The one place that knows which property holds which field:
    /// everything else goes through it (or through the text of ``subscript(_:)``).
    public subscript(value field: CardField) -> FieldValue {
        get {
            switch field {
            case .name: .text(name)
            case .title: .text(title)
            case .company: .text(company)
            case .department: .text(department)
            case .email: .text(email)
            case .phone: .text(phone)
            case .website: .text(website)
            case .address: .text(address)
            case .bio: .text(bio)
            case .birthday: .text(birthday)
            case .funFacts: .list(funFacts)
            case .tags: .list(tags)
            case .defaultImage: .number(defaultImage)
            }
        }
        set {
            switch field {
            case .name: name = newValue.text ?? ""
            case .title: title = newValue.text
            case .company: company = newValue.text
            case .department: department = newValue.text
            case .email: email = newValue.text
            case .phone: phone = newValue.text
            case .website: website = newValue.text
            case .address: address = newValue.text
            case .bio: bio = newValue.text
            case .birthday: birthday = newValue.text
            case .funFacts: funFacts = newValue.list
            case .tags: tags = newValue.list
            case .defaultImage: defaultImage = newValue.number
            }
        }
    }

    /// The same fields with surrounding whitespace trimmed and empty values removed.
    public func normalized() -> CardFields {
        var copy = self
        for field in CardField.allCases {
            switch self[value: field] {
            case .text(let text):
                let trimmed = text?.trimmedForCard ?? ""
                copy[value: field] = .text(trimmed.isEmpty && !field.descriptor.isRequired ? nil : trimmed)
            case .list(let list):
                copy[value: field] = .list(list.map(\.trimmedForCard).filter { !$0.isEmpty })
            case .number:
                break
            }
        }
        return copy
    }
}

extension String {
    /// Trimmed of leading and trailing whitespace and newlines (no Foundation needed).
    package var trimmedForCard: String {
        // Nothing to trim when the first and last bytes are ASCII and not whitespace (most
        // values): no need to walk the characters.
        if let first = utf8.first, let last = utf8.last, first < 0x80, last < 0x80,
            first != 32, !(9...13).contains(first), last != 32, !(9...13).contains(last)
        {
            return self
        }
        var slice = Substring(self)
        while let first = slice.first, first.isWhitespace { slice.removeFirst() }
        while let last = slice.last, last.isWhitespace { slice.removeLast() }
        return String(slice)
    }
}
