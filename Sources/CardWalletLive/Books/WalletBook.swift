public import CardBackend
import Foundation

/// One place of the wallet the All view shows: an account's address book (CardDAV), or the one
/// wallet of an account on a server that keeps one per account (the card API).
///
/// Each card keeps its book: the All view names it in its BOOK column, and an edit, a delete, a
/// move go to that book only, through that book's own backend and cache.
public struct WalletBook: Sendable, Hashable {
    /// The account's name (what `--account` takes).
    public var account: String
    /// The kind of server, as the account's record stores it.
    public var kind: String
    /// The user name (the email on the card API).
    public var user: String
    /// The account's server, as the person gave it.
    public var server: String
    /// The address book, on a server with books; `nil` for one wallet per account.
    public var book: AddressBookInfo?
    /// The cache's key of the book (``CardBackend/CardBackend/server``): each book has a cache.
    public var walletKey: String
    /// What the BOOK column and the messages call it: unique among the books shown (its name,
    /// with the user in front when two accounts have books of one name).
    public var label: String

    /// A book.
    public init(
        account: String, kind: String, user: String, server: String, book: AddressBookInfo?, walletKey: String,
        label: String? = nil
    ) {
        self.account = account
        self.kind = kind
        self.user = user
        self.server = server
        self.book = book
        self.walletKey = walletKey
        self.label = label ?? book?.shownName ?? account
    }

    /// What identifies it across processes: its cache's key and the user.
    public var key: String { walletKey + "\n" + user.lowercased() }

    /// Its own name: the book's display name (else its id), or the account's for a server with
    /// one wallet per account.
    public var name: String { book?.shownName ?? account }

    /// Whether `text` names this book, as `--to` takes it: its label, its id, its name, the
    /// account's name (for an account with one wallet), or `ACCOUNT/BOOK`; any letter case.
    public func isNamed(_ text: String, soleBookOfAccount: Bool) -> Bool {
        let wanted = text.trimmingCharacters(in: .whitespaces).lowercased()
        guard !wanted.isEmpty else { return false }
        var names = [label, name]
        if let book { names += [book.id, account + "/" + book.id, account + "/" + book.shownName] }
        if soleBookOfAccount || book == nil { names.append(account) }
        return names.contains { $0.lowercased() == wanted }
    }
}

/// Gives each book a label no other book shown has: its name, else `user/name`, else
/// `account/name`.
enum BookLabels {
    static func assign(_ books: [WalletBook]) -> [WalletBook] {
        var counts: [String: Int] = [:]
        for book in books { counts[book.name.lowercased(), default: 0] += 1 }
        var labelled = books.map { book -> WalletBook in
            var book = book
            book.label = counts[book.name.lowercased()] == 1 ? book.name : "\(book.user)/\(book.name)"
            return book
        }
        var seen: [String: Int] = [:]
        for book in labelled { seen[book.label.lowercased(), default: 0] += 1 }
        for index in labelled.indices where seen[labelled[index].label.lowercased(), default: 0] > 1 {
            labelled[index].label = "\(labelled[index].account)/\(labelled[index].name)"
        }
        return labelled
    }
}
