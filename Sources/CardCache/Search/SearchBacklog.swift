import GRDB

/// When a stored card goes into the full-text indexes.
public enum SearchIndexing: Sendable {
    /// With the card, in the same transaction (every change made or read one by one).
    case now
    /// Before the next search (``CardCache/indexBacklog(progress:)``): a first sync of a large
    /// CardDAV book stores its cards without indexing them, so its list is there sooner; the
    /// indexing is one pass over the rows afterwards, in batches of a few hundred.
    case later
}

extension CardCache {
    /// How many rows one transaction of ``indexBacklog(progress:)`` indexes.
    static let backlogBatch = 500

    /// How many stored cards wait to be indexed.
    public func backlogCount() throws(CacheError) -> Int {
        try read { db in try Int.fetchOne(db, sql: "SELECT count(*) FROM searchBacklog") ?? 0 }
    }

    /// Indexes every card stored with ``SearchIndexing/later``, a few hundred rows per
    /// transaction (readers never wait for all of it); ``search(_:in:limit:allIDs:excerpts:)``
    /// calls it first, so a search always sees every card. Nothing to do costs one read.
    ///
    /// - Parameter progress: told how many rows are indexed so far, after each transaction
    ///   (only when there were any).
    public func indexBacklog(progress: ((Int) -> Void)? = nil) throws(CacheError) {
        guard try hasBacklog() else { return }
        var done = 0
        var indexed = Self.backlogBatch
        // A batch short of full was the last.
        while indexed == Self.backlogBatch {
            indexed = try indexSomeOfBacklog()
            guard indexed > 0 else { return }
            done += indexed
            progress?(done)
        }
    }

    /// Whether any stored card waits to be indexed.
    public func hasBacklog() throws(CacheError) -> Bool {
        try read { db in try Bool.fetchOne(db, sql: "SELECT EXISTS (SELECT 1 FROM searchBacklog)") ?? false }
    }

    /// Indexes a few hundred cards of the backlog in one transaction: for a background task
    /// that lets other work in between.
    /// - Returns: how many (0 when the backlog is empty).
    @discardableResult
    public func indexSomeOfBacklog() throws(CacheError) -> Int {
        try write { db in try SearchIndex.indexBacklog(db, limit: Self.backlogBatch) }
    }
}
