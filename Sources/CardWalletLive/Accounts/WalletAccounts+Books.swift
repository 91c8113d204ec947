public import CardBackend
import CardCache
import CardModels
import Foundation
import TokenStore

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
    /// The server in use as the person gave it (a backend's ``CardBackend/CardBackend/server``
    /// may also name its address book, for the cache's key).
    public var shownServer: String {
        if let record = account { return record.server }
        let backend = self.backend
        if let server = backend.sessionState.account?.server { return server }
        return String(backend.server.prefix { $0 != "#" })
    }

    /// Switches to the account's next address book, in the server's order (after the last, the
    /// first), and remembers it for the next start (the account's record); each book has its own
    /// cache.
    ///
    /// - Returns: the book now in use.
    /// - Throws: a ``CardBackend/BackendFailure`` when the server keeps one wallet per account or
    ///   the account has one book only; the backend's failure reading the books.
    public func switchToNextBook() async throws -> (book: AddressBookInfo, session: SessionAccount?) {
        guard let books = backend as? any AddressBooks else {
            throw BookSwitchFailure(
                "This server keeps one wallet per account: there are no address books to switch between.")
        }
        let all = try await books.books()
        guard all.count > 1 else {
            throw BookSwitchFailure(
                "This account has one address book only"
                    + (all.first.map { " (“\(TerminalText.escaped($0.shownName))”)" } ?? "") + ": nothing to switch to."
            )
        }
        let index = books.bookInUse.flatMap { inUse in all.firstIndex { $0.id == inUse.id } } ?? -1
        let next = all[(index + 1) % all.count]
        let switched = try await books.switching(to: next)
        var record = account
        record?.book = next.path
        record?.bookName = next.displayName
        if let record, let directory { try await directory.tokenStore.saveAccount(record, makeDefault: false) }
        use(switched, record: record)
        return (next, await switched.status().account)
    }

    /// The address books of the account logged in, in the server's order; `nil` when its server
    /// keeps one wallet per account (the card API).
    ///
    /// - Throws: the backend's failure (not logged in, the network…).
    public func addressBooks() async throws -> [AddressBookEntry]? {
        guard let books = backend as? any AddressBooks else { return nil }
        let inUse = books.bookInUse?.id
        let account = await books.status().account?.email
        let folder = cacheFolder()
        return try await books.books().map { book in
            let cards = account.flatMap { account in
                folder.flatMap {
                    CardCache.listedCards(server: books.server(forBook: book.id), account: account, location: $0)
                }
            }
            return AddressBookEntry(
                id: book.id, path: book.path, url: book.url, name: book.displayName, description: book.summary,
                inUse: book.id == inUse, syncsByToken: book.syncsByToken, cards: cards)
        }
    }
}

/// Why the address book could not be switched: said as it is, nothing changed.
struct BookSwitchFailure: BackendFailure {
    let description: String
    var failureKind: BackendFailureKind { .other }

    init(_ description: String) { self.description = description }
}
