public import CardModels
public import Foundation
import GRDB
import GRDBSQLite

extension CardCache {
    /// Records the whole wallet as the server just listed it (every page of `GET /cards`): new
    /// cards are added, changed ones updated, cards no longer listed removed (with their
    /// pictures), and the order and ``CachedList/confirmedAt`` set. One transaction; rows that
    /// did not change are not written.
    ///
    /// - Parameters:
    ///   - cards: every summary, in wallet order.
    ///   - confirmedAt: when the server answered.
    ///   - keepingOrder: whether the cards known already keep their places (a server that keeps
    ///     no order of its own: the wallet's order is kept here); new ones go at the end.
    public func storeList(_ cards: [CardSummary], confirmedAt: Date, keepingOrder: Bool = false) throws(CacheError) {
        try write { db in
            // Only each row's key and place are held (a first sync of 20,000 cards stored them
            // all already): whether a summary changed is asked of SQLite, row by row.
            var known: [String: KnownRow] = [:]
            let rows = try db.makeStatement(sql: "SELECT key, position, id FROM card")
            try RawRows.step(rows) { raw in
                known[RawRows.text(raw, 2) ?? ""] = KnownRow(
                    key: sqlite3_column_int64(raw, 0), position: Int(sqlite3_column_int64(raw, 1)))
            }
            var order = Array(cards.indices)
            if keepingOrder {
                order.sort { a, b in
                    switch (known[cards[a].id]?.position, known[cards[b].id]?.position) {
                    case (let x?, let y?): x < y
                    case (.some, nil): true
                    case (nil, .some): false
                    case (nil, nil): a < b
                    }
                }
            }
            for (position, index) in order.enumerated() {
                let summary = cards[index]
                guard let old = known[summary.id] else {
                    let key = try CardRows.insert(summary, position: position, confirmedAt: confirmedAt, db)
                    try SearchIndex.index(key: key, CardRows.fields(of: summary), db, isNew: true)
                    known[summary.id] = KnownRow(key: key, position: position, listed: true)
                    continue
                }
                known[summary.id]?.listed = true
                if try CardRows.update(summary, position: position, key: old.key, onlyIfChanged: true, db) {
                    try SearchIndex.reindex(key: old.key, db)
                } else if old.position != position {
                    try db.cachedStatement(sql: "UPDATE card SET position = ? WHERE key = ?").execute(
                        arguments: [position, old.key])
                }
            }
            for row in known.values where !row.listed {
                try CardRows.delete(key: row.key, db)
            }
            try db.execute(sql: "UPDATE wallet SET listConfirmedAt = ?", arguments: [confirmedAt.timeIntervalSince1970])
        }
    }

    /// The wallet as last listed, in wallet order; `nil` when it never was. Cards read one by
    /// one since (``storeCard(_:confirmedAt:)``) are included, after the listed ones.
    public func list() throws(CacheError) -> CachedList? {
        try read { db in
            guard let confirmed = try Double.fetchOne(db, sql: "SELECT listConfirmedAt FROM wallet") else { return nil }
            let statement = try db.makeStatement(sql: "SELECT \(CardRows.summaryColumns) FROM card ORDER BY position")
            let cards = try CardRows.summaries(statement)
            return CachedList(cards: cards, confirmedAt: Date(timeIntervalSince1970: confirmed))
        }
    }

    /// Records a whole card the server just returned (`GET /card/{id}`, or the answer to a
    /// change): its summary, its fields with the kept vCard properties, and the index. A card
    /// not known yet goes to the end of the wallet. What the server confirmed earlier than the
    /// row holds is ignored: freshness is when the server last confirmed a card, never an order
    /// of revisions (an `ETag` has none).
    public func storeCard(_ card: Card, confirmedAt: Date) throws(CacheError) {
        try storeCards([card], confirmedAt: confirmedAt)
    }

    /// ``storeCard(_:confirmedAt:)`` for many cards, in one transaction. Each card is indexed
    /// from the fields it holds, once — or, with `indexing: .later`, left for the next search to
    /// index (a first sync of a large book: the list is there sooner; see ``SearchIndexing``).
    public func storeCards(
        _ cards: [Card], confirmedAt: Date, indexing: SearchIndexing = .now
    ) throws(CacheError) {
        try write { db in
            let time = confirmedAt.timeIntervalSince1970
            let find = try db.cachedStatement(sql: "SELECT key, confirmedAt FROM card WHERE id = ?")
            var end: Int?
            for card in cards {
                let stored = try CardRecord.stored(card)
                let detail = CardRows.Detail(
                    record: stored.detail, source: stored.source, revision: card.revision.rawValue, confirmedAt: time)
                if let old = try Row.fetchOne(find, arguments: [card.id]) {
                    let key: Int64 = old[0]
                    guard time >= old[1] as Double else { continue }
                    try CardRows.update(card.summary, position: nil, key: key, db)
                    try CardRows.setDetail(detail, key: key, db)
                    switch indexing {
                    case .now: try SearchIndex.index(key: key, card.fields, db)
                    case .later: try SearchIndex.postpone(key: key, db, isNew: false)
                    }
                } else {
                    let position = try end ?? (Int.fetchOne(db, sql: "SELECT max(position) FROM card") ?? -1) + 1
                    end = position + 1
                    let key = try CardRows.insert(
                        card.summary, position: position, confirmedAt: confirmedAt, detail: detail, db)
                    switch indexing {
                    case .now: try SearchIndex.index(key: key, card.fields, db, isNew: true)
                    case .later: try SearchIndex.postpone(key: key, db, isNew: true)
                    }
                }
            }
        }
    }

    /// The whole card with `id` as last returned by the server, or `nil` when it was never read
    /// in full (or is not in the wallet).
    public func card(id: String) throws(CacheError) -> CachedCard? {
        try cards(ids: [id]).first ?? nil
    }

    /// The whole cards with these ids, in this order; `nil` for each one never read in full.
    public func cards(ids: [String]) throws(CacheError) -> [CachedCard?] {
        try read { db in
            try ids.map { id in
                guard
                    let row = try Row.fetchOne(
                        db,
                        sql: """
                            SELECT detail, detailConfirmedAt, revision, detailRevision, detailSource
                            FROM card WHERE id = ? AND detail IS NOT NULL
                            """,
                        arguments: [id])
                else { return nil }
                return CachedCard(
                    card: try CardRecord.card(row[0], source: row[4]), confirmedAt: Date(timeIntervalSince1970: row[1]),
                    isCurrent: (row[2] as String) == (row[3] as String))
            }
        }
    }

    /// Forgets a card (deleted on the server), with its picture.
    public func removeCard(id: String) throws(CacheError) {
        try write { db in
            if let key = try Int64.fetchOne(db, sql: "SELECT key FROM card WHERE id = ?", arguments: [id]) {
                try CardRows.delete(key: key, db)
            }
            // Or a group: a listing's removals name both.
            try db.execute(sql: "DELETE FROM cardGroup WHERE id = ?", arguments: [id])
        }
    }

    /// Records a new wallet order (`PUT /cards` answered): the ids given come first, in this
    /// order; cards not named keep their order after them.
    public func storeOrder(_ ids: [String]) throws(CacheError) {
        try write { db in
            let current = try String.fetchAll(db, sql: "SELECT id FROM card ORDER BY position")
            var named = Set<String>()
            let first = ids.filter { named.insert($0).inserted }
            let order = first + current.filter { !named.contains($0) }
            for (position, id) in order.enumerated() {
                try db.execute(sql: "UPDATE card SET position = ? WHERE id = ?", arguments: [position, id])
            }
        }
    }

    /// Numbers about what the cache holds.
    public func state() throws(CacheError) -> CacheState {
        try read { db in
            let row = try Row.fetchOne(
                db,
                sql: """
                    SELECT (SELECT listConfirmedAt FROM wallet), (SELECT count(*) FROM card),
                        (SELECT count(*) FROM card WHERE detail IS NOT NULL), (SELECT count(*) FROM cardImage),
                        (SELECT count(*) FROM outbox WHERE state != 'sent')
                    """)!
            return CacheState(
                listConfirmedAt: (row[0] as Double?).map(Date.init(timeIntervalSince1970:)), cards: row[1],
                fullCards: row[2], images: row[3], unsentChanges: row[4])
        }
    }
}

/// A card row as `storeList` knows it.
private struct KnownRow {
    var key: Int64
    var position: Int
    /// Whether the list names it (else it is removed).
    var listed = false
}

extension CardCache {
    /// The sync token that came with the list last recorded (a backend that syncs by token
    /// hands one out), or `nil`.
    public func syncToken() throws(CacheError) -> String? {
        try read { db in try String.fetchOne(db, sql: "SELECT syncToken FROM wallet") }
    }

    /// Keeps the sync token of the list just recorded (`nil` forgets it: the next listing is whole).
    public func storeSyncToken(_ token: String?) throws(CacheError) {
        try write { db in try db.execute(sql: "UPDATE wallet SET syncToken = ?", arguments: [token]) }
    }

    /// Marks the list as confirmed by the server at `date` without listing it again: a
    /// backend's answer that only the changes since the last token were applied.
    public func confirmList(at date: Date) throws(CacheError) {
        try write { db in
            try db.execute(sql: "UPDATE wallet SET listConfirmedAt = ?", arguments: [date.timeIntervalSince1970])
        }
    }
}

extension CardCache {
    /// Every card's revision as the cache holds it (card id → revision): what a backend that
    /// lists whole compares its listing with, to read only the cards that changed.
    public func revisions() throws(CacheError) -> [String: CardRevision] {
        try read { db in
            var revisions: [String: CardRevision] = [:]
            // Groups too: a listing that compares revisions reads only the groups that changed,
            // and names the ones gone.
            for row in try Row.fetchAll(
                db, sql: "SELECT id, revision FROM card UNION ALL SELECT id, revision FROM cardGroup")
            {
                revisions[row[0]] = CardRevision(rawValue: row[1])
            }
            return revisions
        }
    }
}
