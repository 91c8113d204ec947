import Foundation

/// An address book of an account, as the server names it.
public struct AddressBookInfo: Sendable, Hashable, Codable {
    /// Its id: the last part of its path, what `--book` takes.
    public var id: String
    /// Its path on the server.
    public var path: String
    /// Its address.
    public var url: String
    /// Its display name, when the server gives one (untrusted text).
    public var displayName: String?
    /// Its description, when the server gives one (untrusted text).
    public var summary: String?
    /// Whether the server syncs it by token (RFC 6578).
    public var syncsByToken: Bool

    /// A book.
    public init(
        id: String, path: String, url: String, displayName: String? = nil, summary: String? = nil,
        syncsByToken: Bool = true
    ) {
        self.id = id
        self.path = path
        self.url = url
        self.displayName = displayName
        self.summary = summary
        self.syncsByToken = syncsByToken
    }

    /// What people call it: its display name when it has one, else its id.
    public var shownName: String {
        if let displayName, !displayName.trimmingCharacters(in: .whitespaces).isEmpty { return displayName }
        return id
    }
}

/// A backend whose server keeps several address books per account (CardDAV): an optional
/// capability, asked with `backend as? any AddressBooks`, never by the backend's concrete type.
public protocol AddressBooks: CardBackend {
    /// The address books of the account logged in, in the server's order.
    func books() async throws -> [AddressBookInfo]
    /// The book in use, when known.
    var bookInUse: AddressBookInfo? { get }
    /// The same account on `book` (a backend of its own: each book has its own cache).
    func switching(to book: AddressBookInfo) async throws -> any CardBackend
    /// The cache's key of this account on the book `id` (``CardBackend/server`` when it is the
    /// one in use).
    func server(forBook id: String) -> String
}
