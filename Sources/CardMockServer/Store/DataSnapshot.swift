import CardModels
import Foundation

/// What `--data` keeps: users (password hashes only), cards with their images and wallet
/// positions, and token records (digests only). Rate-limit windows and statistics are not kept.
///
/// The server keeps it in memory and answers reads from it; with `--data`, each change is
/// also written to the database (only the rows it touched: ``takeChanges()``) before it is
/// answered. It is `Codable` in the format of the JSON data files of earlier versions, which
/// are migrated once (see ``DataFileMigration``).
struct DataSnapshot: Codable, Sendable, Equatable {
    /// The format number of the JSON data file.
    static let currentFormat = 1

    var format: Int = DataSnapshot.currentFormat
    var users: [UserRecord]
    var cards: CardBook
    var tokens: TokenBook

    /// What changed since the last ``takeChanges()``, forgetting it.
    mutating func takeChanges() -> DataChanges {
        DataChanges(cards: cards.takeChanges(), tokens: tokens.takeChanges())
    }

    /// Puts back what `changes` replaced (after a write that failed).
    mutating func revert(_ changes: DataChanges) {
        cards.revert(changes.cards)
        tokens.revert(changes.tokens)
    }

    /// Puts back everything changed since the last ``takeChanges()``.
    mutating func discardChanges() {
        cards.discardChanges()
        tokens.discardChanges()
    }
}

/// The rows one change touched, before and after: what the database writes for it.
struct DataChanges: Sendable {
    /// Cards (their positions included) and the in-memory wallet order lists.
    var cards: CardBook.Changes
    /// Token records.
    var tokens: TokenBook.Changes

    /// Whether nothing that is persisted changed. The wallet order lists are not persisted
    /// (positions are), so they alone do not count.
    var isEmpty: Bool { cards.cards.isEmpty && tokens.isEmpty }
}
