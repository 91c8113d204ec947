import CardCache
public import CardModels
import CardWalletUI
import Foundation

/// A card named on the command line, and the book it is in.
public struct NamedCard: Sendable, Equatable {
    /// The book.
    public var book: WalletBook
    /// Its list entry (its own id).
    public var summary: CardSummary

    /// Its own id in its book.
    public var id: String { summary.id }

    /// A named card.
    public init(book: WalletBook, summary: CardSummary) {
        self.book = book
        self.summary = summary
    }
}

/// A name that names several cards: the candidates, for the person to choose among.
public struct AmbiguousCardName: Error, Sendable, CustomStringConvertible {
    /// The name given.
    public var name: String
    /// How it matched (`ids starting with`, `cards matching`).
    public var how: String
    /// The cards it could mean (at most ``shown``), and how many in all.
    public var candidates: [NamedCard]
    /// How many cards it matches in all.
    public var total: Int

    /// Every id the caches know, which the candidates' prefixes must stand apart from.
    public var knownIDs: [String] = []
    /// The most candidates listed.
    public static let shown = 20

    public var description: String {
        var lines = ["“\(TerminalText.escaped(name))” names \(total) cards (\(how)): \(advice)."]
        let prefixes = UniquePrefixes(candidates.map(\.id), among: knownIDs)
        for card in candidates {
            lines.append(
                "  \(TerminalText.escaped(prefixes.prefix(of: card.id)))  \(TerminalText.escaped(card.book.label))  "
                    + TerminalText.escaped(card.summary.name))
        }
        if total > candidates.count { lines.append("  … and \(total - candidates.count) more") }
        return lines.joined(separator: "\n")
    }

    /// What tells the cards apart: more of the id, else (the same id in several books, which
    /// no more of it can tell apart) the account or the book.
    var advice: String {
        let ids = Set(candidates.map(\.id))
        let whichBook =
            Set(candidates.map(\.book.account)).count > 1
            ? "say which account with --account NAME" : "say which book with --book ID"
        if ids.count == 1, candidates.count > 1 { return whichBook }
        let books = Set(candidates.map(\.book.walletKey)).count
        let sameID = ids.count < candidates.count
        return "give more of the id" + (sameID || books > 1 ? ", or \(whichBook)" : ", or the whole id")
    }
}

extension Bookshelf {
    /// The card `name` names, the way git names commits: its whole id, else an id it begins
    /// (any letter case), else the one card whose fields match it (as `list --query` matches),
    /// looked up in every book's cache (a book never synced here has none). The book `current`
    /// wins a whole id that two books hold.
    ///
    /// - Returns: the card, or `nil` when no cache knows it (the caller asks its server).
    /// - Throws: ``AmbiguousCardName`` when the name fits several cards.
    public func card(named name: String, among books: [WalletBook], current: WalletBook?)
        async throws(AmbiguousCardName) -> NamedCard?
    {
        let name = name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty else { return nil }
        var lists: [(WalletBook, CachedWallet, [CardSummary])] = []
        for book in books {
            guard let wallet = await existingWallet(for: book), let list = wallet.cachedListWithPendingChanges()
            else { continue }
            lists.append((book, wallet, list.cards))
        }
        let exact = lists.flatMap { book, _, cards in
            cards.filter { $0.id == name }.map { NamedCard(book: book, summary: $0) }
        }
        if let mine = exact.first(where: { $0.book == current }) { return mine }
        if exact.count == 1 { return exact[0] }
        if exact.count > 1 {
            throw AmbiguousCardName(
                name: name, how: "the same id in several books", candidates: exact, total: exact.count)
        }
        let lowered = name.lowercased()
        let prefixed = lists.flatMap { book, _, cards in
            cards.filter { $0.id.lowercased().hasPrefix(lowered) }.map { NamedCard(book: book, summary: $0) }
        }
        if prefixed.count == 1 { return prefixed[0] }
        if prefixed.count > 1 {
            throw AmbiguousCardName(
                name: name, how: "ids starting with it", candidates: Array(prefixed.prefix(AmbiguousCardName.shown)),
                total: prefixed.count, knownIDs: lists.flatMap { $0.2.map(\.id) })
        }
        var matches: [NamedCard] = []
        var total = 0
        for (book, wallet, cards) in lists {
            guard let cache = wallet.cache,
                let found = wallet.attempt({ try cache.search(name, limit: AmbiguousCardName.shown) })
            else { continue }
            total += found.total
            let byID = Dictionary(cards.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
            matches += found.hits.compactMap { hit in byID[hit.cardID].map { NamedCard(book: book, summary: $0) } }
        }
        if total == 1, let only = matches.first { return only }
        if total > 1 {
            throw AmbiguousCardName(
                name: name, how: "cards whose fields match it",
                candidates: Array(matches.prefix(AmbiguousCardName.shown)),
                total: total, knownIDs: lists.flatMap { $0.2.map(\.id) })
        }
        return nil
    }

    /// The ids of every card the caches know, in every book: what a shortest unique prefix must
    /// stand apart from.
    public func knownIDs(among books: [WalletBook]) async -> [String] {
        var ids: [String] = []
        for book in books {
            guard let wallet = await existingWallet(for: book), let list = wallet.cachedList() else { continue }
            ids += list.cards.map(\.id)
        }
        return ids
    }
}

/// The shortest beginnings of long ids that no other id shares (at least ``minimumLength``
/// characters, any letter case), as git abbreviates commits: what `list` shows and every command
/// that takes a card takes back. An id of up to ``wholeLength`` characters (the card API's, the
/// demo's) is shown whole, as it always was; a CardDAV resource name of 40 is what needs it.
public struct UniquePrefixes: Sendable {
    /// The shortest prefix shown.
    public static let minimumLength = 8
    /// The longest id shown whole.
    public static let wholeLength = 24
    private let lengths: [String: Int]

    /// The prefixes of `ids`, each unique among `ids` and `others`.
    public init(_ ids: [String], among others: [String] = []) {
        let all = Array(Set((ids + others).map { $0.lowercased() })).sorted()
        var needed: [String: Int] = [:]
        for (index, id) in all.enumerated() {
            var length = Self.minimumLength
            if index > 0 { length = max(length, Self.commonPrefix(all[index - 1], id) + 1) }
            if index + 1 < all.count { length = max(length, Self.commonPrefix(all[index + 1], id) + 1) }
            needed[id] = length
        }
        lengths = needed
    }

    /// The shortest unique prefix of `id` (the whole id when nothing shorter is unique).
    public func prefix(of id: String) -> String {
        let length = lengths[id.lowercased()] ?? id.count
        return id.count <= Self.wholeLength || length >= id.count ? id : String(id.prefix(length))
    }

    private static func commonPrefix(_ a: String, _ b: String) -> Int {
        var count = 0
        for (x, y) in zip(a, b) {
            guard x == y else { break }
            count += 1
        }
        return count
    }
}
