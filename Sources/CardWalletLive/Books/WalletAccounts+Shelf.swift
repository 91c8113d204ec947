import CardBackend
import TokenStore

extension WalletAccounts {
    /// Uses `book` from now on: its account (switched to when it is another) on that book, which
    /// its record remembers for the next start, as `B` did for one account's books. Each book
    /// keeps its own cache.
    ///
    /// - Throws: the failure building its backend, or saving the record.
    func use(_ book: WalletBook, from shelf: Bookshelf) async throws {
        let backend = try await shelf.backend(for: book)
        var record = records().first { $0.isNamed(book.account) }
        if let info = book.book, var changed = record, changed.book != info.path {
            changed.book = info.path
            changed.bookName = info.displayName
            if let directory { try await directory.tokenStore.saveAccount(changed, makeDefault: false) }
            record = changed
        }
        use(backend, record: record)
    }
}
