public import CardModels
import Foundation
import GRDB

extension CardCache {
    /// Records groups (a CardDAV book's group vCards) as the server just gave them, in one
    /// transaction; what a later confirmation replaced is overwritten.
    public func storeGroups(_ groups: [CardGroup]) throws(CacheError) {
        guard !groups.isEmpty else { return }
        try write { db in
            for group in groups {
                let members = try JSONEncoder().encode(group.memberUIDs.map { $0.lowercased() })
                try db.execute(
                    sql: """
                        INSERT INTO cardGroup (id, name, revision, members) VALUES (?, ?, ?, ?)
                        ON CONFLICT(id) DO UPDATE SET name = excluded.name, revision = excluded.revision,
                            members = excluded.members
                        """,
                    arguments: [
                        group.id, group.name, group.revision.rawValue, String(decoding: members, as: UTF8.self),
                    ])
            }
        }
    }

    /// Removes every group whose id is not in `ids` (a whole listing named only these).
    public func keepOnlyGroups(_ ids: Set<String>) throws(CacheError) {
        try write { db in
            for id in try String.fetchAll(db, sql: "SELECT id FROM cardGroup") where !ids.contains(id) {
                try db.execute(sql: "DELETE FROM cardGroup WHERE id = ?", arguments: [id])
            }
        }
    }

    /// The names of the groups whose members include `uid` (bare, as `VCardGroup.bareUID` gives
    /// it, the way members are kept; compared without case), sorted.
    public func groupNames(containing uid: String) throws(CacheError) -> [String] {
        let wanted = uid.lowercased()
        guard !wanted.isEmpty else { return [] }
        return try read { db in
            try String.fetchAll(
                db,
                sql: """
                    SELECT name FROM cardGroup WHERE EXISTS (SELECT 1 FROM json_each(cardGroup.members) WHERE value = ?)
                    ORDER BY name COLLATE NOCASE
                    """,
                arguments: [wanted])
        }
    }

    /// Every group, by name.
    public func groups() throws(CacheError) -> [CardGroup] {
        try read { db in
            try Row.fetchAll(db, sql: "SELECT id, name, revision, members FROM cardGroup ORDER BY name COLLATE NOCASE")
                .map { row in
                    let members = (try? JSONDecoder().decode([String].self, from: Data((row[3] as String).utf8))) ?? []
                    return CardGroup(
                        id: row[0], name: row[1], revision: CardRevision(rawValue: row[2]), memberUIDs: members)
                }
        }
    }
}
