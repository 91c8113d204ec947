public import CardModels
import Foundation
import GRDB

extension CardCache {
    /// How the ids of cards added offline begin; the server's ids never do (they have no `:`).
    public static let localIDPrefix = "local:"

    /// Adds a change at the end of the outbox, `pending`.
    ///
    /// - Parameters:
    ///   - change: the change.
    ///   - idempotencyKey: for an addition, the key it is sent with: the key of an attempt made
    ///     online whose answer was lost, so that the server makes one card; a fresh one when
    ///     `nil`. Other changes have none.
    /// - Returns: the entry as stored.
    @discardableResult
    public func enqueue(_ change: OutboxChange, idempotencyKey: IdempotencyKey? = nil) throws(CacheError)
        -> OutboxEntry
    {
        let now = clock()
        let key: IdempotencyKey? =
            switch change {
            case .add: idempotencyKey ?? IdempotencyKey()
            // A transfer's create goes with the key its order carries; the column shows it too.
            case .transfer(let order): order.key
            case .edit, .delete, .reorder: nil
            }
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
            case .transfer(let order):
                payload = try Self.json(order)
                baseRevision = order.sourceRevision.rawValue
            }
            try db.execute(
                sql: """
                    INSERT INTO outbox (kind, cardID, baseRevision, payload, imageData, imageContentType, state, attempts, createdAt, updatedAt, idempotencyKey)
                    VALUES (?, ?, ?, ?, ?, ?, 'pending', 0, ?, ?, ?)
                    """,
                arguments: [
                    change.kind, change.cardID, baseRevision, payload, image?.data, image?.contentType,
                    now.timeIntervalSince1970, now.timeIntervalSince1970, key?.text,
                ])
            return OutboxEntry(
                id: db.lastInsertedRowID, change: change, state: .pending, attempts: 0, lastError: nil, createdAt: now,
                updatedAt: now, idempotencyKey: key)
        }
    }

    /// The entries still to send — `pending`, and `sending` ones (claimed by a replay, or left
    /// by a process that ended) — in the order they were made. To send them, claim them one at a
    /// time (``claimNext(by:lease:)``, or ``OutboxClaims``).
    public func pendingChanges() throws(CacheError) -> [OutboxEntry] {
        try outbox(states: [.pending, .sending])
    }

    /// Entries left `sending` whose lease has run out (their process ended or stalled): the
    /// server may have applied them. The next claim of one says it was interrupted; check before
    /// sending again (an edit or a delete re-sent with its `If-Match` cannot apply twice, an
    /// addition re-sent with its key makes no second card within the server's 24 hours).
    public func interruptedChanges() throws(CacheError) -> [OutboxEntry] {
        let now = clock()
        return try outbox(states: [.sending]).filter { ($0.leaseExpiresAt ?? .distantPast) <= now }
    }

    /// The entries in these states (every entry by default), oldest first.
    public func outbox(states: Set<OutboxState> = Set(OutboxState.allCases)) throws(CacheError) -> [OutboxEntry] {
        try read { db in
            let marks = Array(repeating: "?", count: states.count).joined(separator: ", ")
            let rows = try Row.fetchAll(
                db, sql: "SELECT \(Self.entryColumns) FROM outbox WHERE state IN (\(marks)) ORDER BY id",
                arguments: StatementArguments(states.map(\.rawValue)))
            return try rows.map(Self.entry)
        }
    }

    /// Puts a failed or interrupted entry back in line, `pending`, whoever claimed it.
    public func retry(_ id: Int64) throws(CacheError) {
        let now = clock().timeIntervalSince1970
        try write { db in
            try db.execute(
                sql: """
                    UPDATE outbox SET state = 'pending', claimant = NULL, leaseExpiresAt = NULL, updatedAt = ?
                    WHERE id = ?
                    """,
                arguments: [now, id])
            guard db.changesCount == 1 else { throw CacheError("there is no outbox entry \(id)") }
        }
    }

    /// Removes an entry (the person gave the change up).
    public func discard(_ id: Int64) throws(CacheError) {
        try write { db in try db.execute(sql: "DELETE FROM outbox WHERE id = ?", arguments: [id]) }
    }

    /// Removes the entries already sent.
    public func removeSentChanges() throws(CacheError) {
        try write { db in try db.execute(sql: "DELETE FROM outbox WHERE state = 'sent'") }
    }

    /// The columns ``entry(_:)`` reads, in its order.
    static let entryColumns = """
        id, kind, cardID, baseRevision, payload, imageData, imageContentType, state, attempts, lastError, createdAt,
        updatedAt, idempotencyKey, claimant, leaseExpiresAt
        """

    static func json<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try CardWalletJSON.encoder().encode(value), as: UTF8.self)
    }

    static func entry(_ row: Row) throws -> OutboxEntry {
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
        case "transfer":
            change = .transfer(try decoder.decode(TransferOrder.self, from: payload))
        case let kind:
            throw CacheError("an outbox entry of an unknown kind (\(kind))")
        }
        return OutboxEntry(
            id: row[0], change: change, state: OutboxState(rawValue: row[7]) ?? .pending, attempts: row[8],
            lastError: row[9], createdAt: Date(timeIntervalSince1970: row[10]),
            updatedAt: Date(timeIntervalSince1970: row[11]),
            idempotencyKey: (row[12] as String?).flatMap { IdempotencyKey($0) },
            claimant: (row[13] as String?).flatMap(OutboxClaimant.init(stored:)),
            leaseExpiresAt: (row[14] as Double?).map(Date.init(timeIntervalSince1970:)))
    }
}
