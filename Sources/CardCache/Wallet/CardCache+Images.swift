public import CardModels
public import Foundation
import GRDB

extension CardCache {
    /// Records a card's picture as the server just returned it (`GET /card/{id}/image`), for the
    /// card revision it belongs to, replacing one the server confirmed earlier. A card the
    /// cache does not know is not recorded (the picture is kept with its card, and goes with it).
    ///
    /// - Returns: whether the picture was recorded.
    @discardableResult
    public func storeImage(
        cardID: String, revision: CardRevision, contentType: String, data: Data, confirmedAt: Date
    )
        throws(CacheError)
        -> Bool
    {
        try write { db in
            guard try Bool.fetchOne(db, sql: "SELECT 1 FROM card WHERE id = ?", arguments: [cardID]) != nil else {
                return false
            }
            if let kept = try Double.fetchOne(
                db, sql: "SELECT confirmedAt FROM cardImage WHERE cardID = ?", arguments: [cardID]),
                kept > confirmedAt.timeIntervalSince1970
            {
                return false
            }
            try db.execute(
                sql:
                    "INSERT OR REPLACE INTO cardImage (cardID, revision, contentType, data, confirmedAt) VALUES (?, ?, ?, ?, ?)",
                arguments: [cardID, revision.rawValue, contentType, data, confirmedAt.timeIntervalSince1970])
            return true
        }
    }

    /// The card's picture as last returned, whatever revision it belongs to (compare
    /// ``CachedImage/revision`` with the card's to know whether it is still its picture).
    public func image(cardID: String) throws(CacheError) -> CachedImage? {
        try read { db in
            guard
                let row = try Row.fetchOne(
                    db, sql: "SELECT data, contentType, revision, confirmedAt FROM cardImage WHERE cardID = ?",
                    arguments: [cardID])
            else { return nil }
            return CachedImage(
                data: row[0], contentType: row[1], revision: CardRevision(rawValue: row[2]),
                confirmedAt: Date(timeIntervalSince1970: row[3]))
        }
    }

    /// Forgets a card's picture (removed on the server).
    public func removeImage(cardID: String) throws(CacheError) {
        try write { db in try db.execute(sql: "DELETE FROM cardImage WHERE cardID = ?", arguments: [cardID]) }
    }
}
