import CardModels
import Foundation
import GRDB

extension CardCache {
    /// How the ids of cards added offline begin; the server's ids never do (they have no `:`).
    public static let localIDPrefix = "local:"

    /// Adds a change at the end of the outbox, `pending`.
    /// - Returns: the entry as stored.
    @discardableResult
    public func enqueue(_ change: OutboxChange) throws(CacheError) -> OutboxEntry {
        let now = clock()
        return try write { db in
            var payload: String?
            var baseRevision: String?
            var image: OutboxImage?
            switch change {
            case .add(_, let fields, let picture):
                payload = try Self.json(fields)
                image = picture
            case .edit(_, let fields, let revision):
                payload = try Self.json(fields)
                baseRevision = revision.rawValue
            case .delete(_, let revision):
                baseRevision = revision.rawValue
            case .reorder(let order):
                payload = try Self.json(order)
            }
            try db.execute(
                sql: """
                    INSERT INTO outbox (kind, cardID, baseRevision, payload, imageData, imageContentType, state, attempts, createdAt, updatedAt)
                    VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?)
                    """,
                arguments: [
                    change.kind, change.cardID, baseRevision, payload, image?.data, image?.contentType,
                    now.timeIntervalSince1970, now.timeIntervalSince1970,
                ])
            return OutboxEntry(
                id: db.lastInsertedRowID, change: change, state: .pending, attempts: 0, lastError: nil, createdAt: now,
                updatedAt: now)
        }
    }

    /// The entries still to send — `pending`, and `sending` ones a process left behind — in the
    /// order they were made. Send them in this order, one at a time.
    public func pendingChanges() throws(CacheError) -> [OutboxEntry] {
        try outbox(states: [.pending, .sending])
    }

    /// Entries a process left `sending` when it ended: the server may have applied them. Check
    /// before sending again (an edit or a delete re-sent with its `If-Match` cannot apply
    /// twice; an addition can, so look for the card first), then ``retry(_:)`` or ``markSent(_:)``.
    public func interruptedChanges() throws(CacheError) -> [OutboxEntry] {
        try outbox(states: [.sending])
    }

    /// The entries in these states (every entry by default), oldest first.
    public func outbox(states: Set<OutboxState> = Set(OutboxState.allCases)) throws(CacheError) -> [OutboxEntry] {
        try read { db in
            let marks = Array(repeating: "?", count: states.count).joined(separator: ", ")
            let rows = try Row.fetchAll(
                db,
                sql: """
                    SELECT id, kind, cardID, baseRevision, payload, imageData, imageContentType, state, attempts, lastError,
                        createdAt, updatedAt
                    FROM outbox WHERE state IN (\(marks)) ORDER BY id
                    """,
                arguments: StatementArguments(states.map(\.rawValue)))
            return try rows.map(Self.entry)
        }
    }

    /// Marks an entry as handed to the network (one more attempt).
    public func markSending(_ id: Int64) throws(CacheError) {
        try setState(id, .sending, error: nil, attempt: true)
    }

    /// Marks an entry as accepted by the server.
    public func markSent(_ id: Int64) throws(CacheError) {
        try setState(id, .sent, error: nil)
    }

    /// Records a failed attempt: with `retry`, back to `pending` (the server could not be
    /// reached: send it again later); without, `failed` (the server refused it).
    ///
    /// - Parameters:
    ///   - reason: one sentence for people, shown beside the pending change.
    public func markFailed(_ id: Int64, reason: String, retry: Bool) throws(CacheError) {
        try setState(id, retry ? .pending : .failed, error: reason)
    }

    /// Puts a failed or interrupted entry back in line, `pending`.
    public func retry(_ id: Int64) throws(CacheError) {
        try setState(id, .pending, error: nil, keepError: true)
    }

    /// Removes an entry (the person gave the change up).
    public func discard(_ id: Int64) throws(CacheError) {
        try write { db in try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [id]) }
    }

    /// Removes the entries already sent.
    public func removeSentChanges() throws(CacheError) {
        try write { db in try db.execute(sql: "DELETE FROM outbox WHERE state = 'sent'") }
    }

    private func setState(
        _ id: Int64, _ state: OutboxState, error: String?, attempt: Bool = false, keepError: Bool = false
    )
        throws(CacheError)
    {
        let now = clock().timeIntervalSince1970
        try write { db in
            try db.execute(
                sql: """
                    UPDATE outbox SET state = ?, attempts = attempts + ?, lastError = \(keepError ? "lastError" : "?"),
                        updatedAt = ? WHERE id = ?
                    """,
                arguments: keepError
                    ? [state.rawValue, attempt ? 1 : 0, now, id] : [state.rawValue, attempt ? 1 : 0, error, now, id])
            guard db.changesCount == 1 else { throw CacheError("there is no outbox entry \(id)") }
        }
    }

    private static func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try CardWalletJSON.encoder().encode(value), as: UTF8.self)
    }

    private static func entry(_ row: Row) throws -> OutboxEntry {
        let decoder = CardWalletJSON.decoder()
        let payload = Data(((row[4] as String?) ?? "null").utf8)
        let cardID: String = row[2] ?? ""
        let change: OutboxChange
        switch row[1] as String {
        case "add":
            let image = (row[5] as Data?).map { OutboxImage(data: $0, contentType: row[6] ?? "image/png") }
            change = .add(localID: cardID, fields: try decoder.decode(CardFields.self, from: payload), image: image)
        case "edit":
            change = .edit(
                cardID: cardID, fields: try decoder.decode(CardFields.self, from: payload),
                baseRevision: CardRevision(rawValue: row[3] ?? ""))
        case "delete":
            change = .delete(cardID: cardID, baseRevision: CardRevision(rawValue: row[3] ?? ""))
        case "reorder":
            change = .reorder(try decoder.decode([String].self, from: payload))
        case let kind:
            throw CacheError("an outbox entry of an unknown kind (\(kind))")
        }
        return OutboxEntry(
            id: row[0], change: change, state: OutboxState(rawValue: row[7]) ?? .pending, attempts: row[8],
            lastError: row[9], createdAt: Date(timeIntervalSince1970: row[10]),
            updatedAt: Date(timeIntervalSince1970: row[11]))
    }
}
