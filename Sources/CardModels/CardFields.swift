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
    public var tmi: [String]
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
        bio: String? = nil, birthday: String? = nil, tmi: [String] = [], tags: [String] = [],
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
        self.tmi = tmi
        self.tags = tags
        self.defaultImage = defaultImage
        self.vcardProperties = vcardProperties
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, title, company, department, email, phone, website, address, bio, birthday
        case tmi, tags, defaultImage, vcardProperties
    }

    /// Decodes the fields; absent lists are empty and an absent `defaultImage` is 0.
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        title = try c.decodeIfPresent(String.self, forKey: .title)
        company = try c.decodeIfPresent(String.self, forKey: .company)
        department = try c.decodeIfPresent(String.self, forKey: .department)
        email = try c.decodeIfPresent(String.self, forKey: .email)
        phone = try c.decodeIfPresent(String.self, forKey: .phone)
        website = try c.decodeIfPresent(String.self, forKey: .website)
        address = try c.decodeIfPresent(String.self, forKey: .address)
        bio = try c.decodeIfPresent(String.self, forKey: .bio)
        birthday = try c.decodeIfPresent(String.self, forKey: .birthday)
        tmi = try c.decodeIfPresent([String].self, forKey: .tmi) ?? []
        tags = try c.decodeIfPresent([String].self, forKey: .tags) ?? []
        defaultImage = try c.decodeIfPresent(Int.self, forKey: .defaultImage) ?? 0
        vcardProperties = try c.decodeIfPresent([String].self, forKey: .vcardProperties) ?? []
    }

    /// Encodes the fields, leaving out absent optional text.
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(name, forKey: .name)
        try c.encodeIfPresent(title, forKey: .title)
        try c.encodeIfPresent(company, forKey: .company)
        try c.encodeIfPresent(department, forKey: .department)
        try c.encodeIfPresent(email, forKey: .email)
        try c.encodeIfPresent(phone, forKey: .phone)
        try c.encodeIfPresent(website, forKey: .website)
        try c.encodeIfPresent(address, forKey: .address)
        try c.encodeIfPresent(bio, forKey: .bio)
        try c.encodeIfPresent(birthday, forKey: .birthday)
        try c.encode(tmi, forKey: .tmi)
        try c.encode(tags, forKey: .tags)
        try c.encode(defaultImage, forKey: .defaultImage)
        // Left out when empty, so cards without an imported vCard look as they always did.
        if !vcardProperties.isEmpty { try c.encode(vcardProperties, forKey: .vcardProperties) }
    }

    /// The same fields with surrounding whitespace trimmed and empty values removed.
    public func normalized() -> CardFields {
        var copy = self
        for field in CardField.allCases {
            copy[field] = self[field]
        }
        copy.name = name.trimmedForCard
        copy.tmi = tmi.map(\.trimmedForCard).filter { !$0.isEmpty }
        copy.tags = tags.map(\.trimmedForCard).filter { !$0.isEmpty }
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
