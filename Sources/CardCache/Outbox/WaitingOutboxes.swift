import Foundation
import GRDB

/// Changes made offline by one account, still waiting in its cache.
public struct WaitingOutbox: Sendable, Equatable {
    /// The account.
    public var account: String
    /// How many changes wait (pending, being sent, or refused and not yet looked at).
    public var changes: Int

    /// A count.
    public init(account: String, changes: Int) {
        self.account = account
        self.changes = changes
    }
}

extension CardCache {
    /// The accounts at `server` whose caches under `location` hold changes made offline that
    /// were not sent: what a login as another account says is kept for them. Every cache file
    /// of the folder is read, never written (a damaged or foreign one is left out).
    public static func waitingOutboxes(server: String, location: CacheLocation) -> [WaitingOutbox] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: location.folder) else { return [] }
        var found: [WaitingOutbox] = []
        for name in names.sorted() where name.hasPrefix("wallet-") && name.hasSuffix(".sqlite") {
            let waiting = readingFile(at: location.folder + "/" + name) { db -> WaitingOutbox? in
                let identity = try CacheDatabase.identity(db)
                guard identity["server"] == server, let account = identity["account"] else { return nil }
                let count = try Int.fetchOne(db, sql: "SELECT count(*) FROM outbox WHERE state != 'sent'") ?? 0
                return count > 0 ? WaitingOutbox(account: account, changes: count) : nil
            }
            if let waiting { found.append(waiting) }
        }
        return found
    }
}
