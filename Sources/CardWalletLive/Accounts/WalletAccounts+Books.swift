import CardBackend
import CardDAV

/// One address book of a CardDAV account, as `cardwallet books` lists it.
public struct AddressBookEntry: Sendable, Equatable, Encodable {
    /// Its id: the last part of its path, what `--book` takes.
    public var id: String
    /// Its path on the server.
    public var path: String
    /// Its display name, when the server gives one (untrusted text).
    public var name: String?
    /// Its description, when the server gives one (untrusted text).
    public var description: String?
    /// Whether the wallet uses it now.
    public var inUse: Bool
    /// Whether the server syncs it by token (RFC 6578); without, each sync compares every ETag.
    public var syncsByToken: Bool
}

extension WalletAccounts {
    /// The server in use as the person gave it (a CardDAV backend's
    /// ``CardBackend/CardBackend/server`` also names its address book, for the cache's key).
    public var shownServer: String {
        let backend = self.backend
        return (backend as? CardDAVBackend)?.loginServer ?? backend.server
    }

    /// The address books of the account logged in at a CardDAV server, in the server's order;
    /// `nil` on the card API, which keeps one wallet per account.
    ///
    /// - Throws: the backend's failure (not logged in, the network…).
    public func addressBooks() async throws -> [AddressBookEntry]? {
        guard let dav = backend as? CardDAVBackend else { return nil }
        let inUse = dav.bookInUse
        return try await dav.books().map { book in
            let id = CardDAVBackend.bookID(ofPath: book.href) ?? book.href
            return AddressBookEntry(
                id: id, path: book.href, name: book.displayName, description: book.summary, inUse: id == inUse,
                syncsByToken: book.supportsSyncCollection)
        }
    }
}
