public import CardBackend
import CardCache
import CardDAV
import CardModels
import Foundation

/// One address book of a CardDAV account, as `cardwallet books` lists it.
public struct AddressBookEntry: Sendable, Equatable, Encodable {
    /// Its id: the last part of its path, what `--book` takes.
    public var id: String
    /// Its path on the server.
    public var path: String
    /// Its address.
    public var url: String
    /// Its display name, when the server gives one (untrusted text).
    public var name: String?
    /// Its description, when the server gives one (untrusted text).
    public var description: String?
    /// Whether the wallet uses it now.
    public var inUse: Bool
    /// Whether the server syncs it by token (RFC 6578); without, each sync compares every ETag.
    public var syncsByToken: Bool
    /// How many cards it held at its last sync into this computer's cache; `nil` when never
    /// synced here (asking the server would make it go through every card of every book).
    public var cards: Int?
}

extension WalletAccounts {
    /// The server in use as the person gave it (a CardDAV backend's
    /// ``CardBackend/CardBackend/server`` also names its address book, for the cache's key).
    public var shownServer: String {
        let backend = self.backend
        return (backend as? CardDAVBackend)?.loginServer ?? backend.server
    }

    /// Switches to the account's next address book, in the server's order (after the last, the
    /// first), and remembers it for the next start; each book has its own cache.
    ///
    /// - Returns: the id of the book now in use.
    /// - Throws: a ``CardBackend/BackendFailure`` when the server is the card API or the account
    ///   has one book only; the backend's failure reading the books.
    public func switchToNextBook() async throws -> (book: String, session: SessionAccount?) {
        guard let dav = backend as? CardDAVBackend else {
            throw BookSwitchFailure(
                "This server keeps one wallet per account: there are no address books to switch between.")
        }
        let books = try await dav.books()
        let ids = books.map { CardDAVBackend.bookID(ofPath: $0.href) ?? $0.href }
        guard books.count > 1 else {
            throw BookSwitchFailure(
                "This account has one address book only"
                    + (ids.first.map { " (“\(TerminalText.escaped($0))”)" } ?? "") + ": nothing to switch to.")
        }
        let index = dav.bookInUse.flatMap { ids.firstIndex(of: $0) } ?? -1
        let next = (index + 1) % books.count
        let switched = try await dav.switching(to: books[next])
        use(switched)
        return (ids[next], await switched.status().account)
    }

    /// The address books of the account logged in at a CardDAV server, in the server's order;
    /// `nil` on the card API, which keeps one wallet per account.
    ///
    /// - Throws: the backend's failure (not logged in, the network…).
    public func addressBooks() async throws -> [AddressBookEntry]? {
        guard let dav = backend as? CardDAVBackend else { return nil }
        let inUse = dav.bookInUse
        let account = await dav.status().account?.email
        let folder = cacheFolder()
        return try await dav.books().map { book in
            let id = CardDAVBackend.bookID(ofPath: book.href) ?? book.href
            let cards = account.flatMap { account in
                folder.flatMap {
                    CardCache.listedCards(server: dav.server(forBook: id), account: account, location: $0)
                }
            }
            return AddressBookEntry(
                id: id, path: book.href, url: book.url.absoluteString, name: book.displayName,
                description: book.summary, inUse: id == inUse,
                syncsByToken: book.supportsSyncCollection, cards: cards)
        }
    }
}

/// Why the address book could not be switched: said as it is, nothing changed.
struct BookSwitchFailure: BackendFailure {
    let description: String
    var failureKind: BackendFailureKind { .other }

    init(_ description: String) { self.description = description }
}
