public import CardModels
import Foundation

/// One vCard as a CardDAV server holds it (an address object resource, RFC 6352 §5.1), kept
/// losslessly: every line as the server sent it, and the wallet's card read from it.
///
/// ```swift
/// let stored = try VCardResource(bytes: body)        // what GET or addressbook-multiget gave
/// show(stored.fields, stored.picture)
/// let next = try stored.edited(fields: form, picture: .keep, revision: now)
/// put(next.bytes, ifMatch: etag)                     // only the edited lines differ
/// ```
///
/// ``fields`` is what the wallet shows and searches: the name (`FN`, else `N`, else the company,
/// the first email or the first phone, as phones name a card without one), title, company and
/// department (`ORG`), the one email and one phone (the preferred line, else the first), website
/// (`URL`), address (`ADR`), bio (`NOTE`), birthday (`BDAY`, full dates), tags (`CATEGORIES`).
/// Values are as the card holds them, whatever their length: a vCard is never refused for its
/// size or its number of properties (only for being over ``maximumBytes``), so ``fields`` may
/// break the wallet's own limits (`CardFields.validate()` says which). ``fields``'s
/// `vcardProperties` is empty: the resource itself is what keeps the rest.
///
/// Reading never fails on a line it cannot read: the line is kept as it is, reported in
/// ``problems``, and written back unchanged.
public struct VCardResource: Sendable {
    /// The largest vCard held, in bytes: 64 MiB, a bound on memory only (a card with a 2 MiB
    /// photo is under 3 MB). Reading holds the text and, per line, a few byte ranges.
    public static let maximumBytes = 64 << 20

    /// The vCard as it is now: the text read, or the text an edit wrote (CR LF line ends).
    public let bytes: [UInt8]
    /// Its version (`VERSION`; 3.0 when it has none). 2.1 is read only.
    public let version: VCardVersion
    /// The card the wallet shows: see the type's documentation.
    public let fields: CardFields
    /// The first `PHOTO`: the card's picture, or what stands in its place.
    public let picture: VCardPicture?
    /// Its `UID` as written (a 4.0 card's may be `urn:uuid:…`), or `nil`.
    public let uid: String?
    /// The group it describes, when it is a group vCard and not a person.
    public let group: VCardGroup?
    /// Lines that are not vCard properties, kept as they are and written back unchanged.
    public let problems: [VCardProblem]

    let layout: ResourceLayout
    let index: ResourceIndex

    /// Reads a vCard as a server returned it.
    ///
    /// - Parameter bytes: one vCard (UTF-8; a byte-order mark is skipped, and UTF-16 with its
    ///   mark is converted first); text before `BEGIN:VCARD` and after `END:VCARD` is ignored.
    /// - Throws: ``VCardResourceError`` when there is no card, more than one, no `END:VCARD`, or
    ///   more than ``maximumBytes``.
    public init(bytes: [UInt8]) throws(VCardResourceError) {
        guard bytes.count <= Self.maximumBytes else { throw .tooLarge(bytes: bytes.count, limit: Self.maximumBytes) }
        let isUTF16 = bytes.starts(with: [0xFF, 0xFE]) || bytes.starts(with: [0xFE, 0xFF])
        let text = isUTF16 ? UnicodeSource.utf8(bytes) : bytes
        layout = try ResourceLayout.scan(text)
        let reading = ResourceIndex.read(layout, in: text)
        self.bytes = text
        version = reading.version
        fields = reading.fields
        picture = reading.picture
        uid = reading.uid
        group = reading.group
        problems = reading.problems
        index = reading.index
    }

    /// Reads a vCard from text.
    ///
    /// - Throws: as ``init(bytes:)``.
    public init(text: String) throws(VCardResourceError) {
        try self.init(bytes: Array(text.utf8))
    }

    /// The vCard as text (invalid UTF-8, which a server should never send, repaired).
    public var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The value of the first `name` property (upper-case, without a group), as written after
    /// its colon and unfolded; `nil` when the card has none. Only that line is read.
    public func firstValue(of name: String) -> String? {
        guard let position = index.first[name] else { return nil }
        let line = layout.lines[position].unfolded(in: bytes)
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else { return nil }
        return String(decoding: line[(colon + 1)...], as: UTF8.self)
    }

    /// Whether it is a group vCard (`KIND:group`, `X-ADDRESSBOOKSERVER-KIND:group`), not a person.
    public var isGroup: Bool { group != nil }

    /// Its content lines unfolded, `BEGIN` and `END` included, in order: what an edit keeps or
    /// rewrites, line by line.
    public var contentLines: [String] {
        ([layout.begin] + layout.lines + [layout.end]).map { String(decoding: $0.unfolded(in: bytes), as: UTF8.self) }
    }

    /// Whether this card is among `group`'s members (by its `UID`): for showing the groups a
    /// card belongs to.
    public func belongs(to group: VCardResource) -> Bool {
        guard let uid, let members = group.group else { return false }
        return members.contains(uid: uid)
    }

    /// A new `UID` for a new card: a random UUID in lower case, fit for a resource name too.
    public static func newUID() -> String { UUID().uuidString.lowercased() }
}

extension VCardResource: Equatable, Hashable {
    /// Equal when the texts are: everything else is read from them.
    public static func == (lhs: VCardResource, rhs: VCardResource) -> Bool { lhs.bytes == rhs.bytes }

    /// Hashes the text.
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
}
