import CardModels
import Foundation
import Logging

/// How the server keeps a `--data` file. Only the benchmark picks anything but ``sqlite``.
@_spi(Benchmarks)
public enum DataFileFormat: Sendable, Equatable {
    /// The SQLite database (the server's format).
    case sqlite
    /// The SQLite database with an fsync per commit (`synchronous = FULL`).
    case sqlitePowerSafe
    /// The JSON file of earlier versions, rewritten whole on every change.
    case legacyJSON
}

/// Opens the `--data` file at start: creates it from the seed data when missing, migrates a
/// JSON data file of an earlier version once, and refuses anything else with a clear reason.
enum DataFileOpening {
    /// The store to write changes to, and the data it holds.
    struct Opened: Sendable {
        var store: any DataStore
        var snapshot: DataSnapshot
    }

    /// Where a migrated JSON file is kept: `wallet.json` → `wallet.json.pre-sqlite`.
    static func backupPath(for path: String) -> String { path + ".pre-sqlite" }

    /// Opens `path` in `format`; `seed` makes the data of a new file.
    /// - Throws: ``MockServerError/dataFile(path:reason:)`` when the file cannot be used; the
    ///   file is then left as it was.
    static func open(
        path: String, format: DataFileFormat = .sqlite, logger: Logger, seed: () async -> DataSnapshot
    ) async throws(MockServerError) -> Opened {
        removeStaleTemporaries(of: path)
        if format == .legacyJSON { return try await openLegacy(path: path, logger: logger, seed: seed) }
        let kind = try DataFileKind(path: path)
        switch kind {
        case .missing:
            try createAtomically(path: path, holding: await seed(), keepingOldFileAs: nil)
            logger.info("Created the data file from the seed data", metadata: ["path": "\(path)"])
        case .json:
            let legacy =
                try DataFile(path: path).load() ?? DataSnapshot(users: [], cards: CardBook(), tokens: TokenBook())
            let backup = backupPath(for: path)
            try createAtomically(path: path, holding: legacy, keepingOldFileAs: backup)
            logger.notice(
                "Migrated the JSON data file to SQLite; the JSON file is kept as \(backup)",
                metadata: ["path": "\(path)"])
        case .database(let id) where id == DatabaseSchema.applicationID:
            break
        case .database(let id):
            throw .dataFile(
                path: path,
                reason: "it is another program's SQLite database (application_id \(id)), not a mock server data file; "
                    + "give another path")
        case .folder:
            throw .dataFile(path: path, reason: "it is a folder; give the path of a file in it")
        case .empty:
            throw .dataFile(path: path, reason: "it is empty" + ServerDatabase.advice)
        case .unknown:
            throw .dataFile(
                path: path,
                reason: "it is not a mock server data file (neither its database nor JSON)" + ServerDatabase.advice)
        }
        let database = try ServerDatabase.open(
            path: path, durability: format == .sqlitePowerSafe ? .powerSafe : .crashSafe)
        let snapshot = try database.load()
        if kind == .database(applicationID: DatabaseSchema.applicationID) {
            logger.info(
                "Loaded the data file", metadata: ["path": "\(path)", "cards": "\(snapshot.cards.cards.count)"])
        }
        return Opened(store: database, snapshot: snapshot)
    }

    private static func openLegacy(
        path: String, logger: Logger, seed: () async -> DataSnapshot
    ) async throws(MockServerError) -> Opened {
        let file = DataFile(path: path)
        if let stored = try file.load() { return Opened(store: LegacyJSONStore(file: file), snapshot: stored) }
        let seeded = await seed()
        try file.save(seeded)
        return Opened(store: LegacyJSONStore(file: file), snapshot: seeded)
    }

    /// Writes a new database beside `path` and renames it into place, so the file appears
    /// whole or not at all. With `backup`, the file at `path` (a JSON data file) is first
    /// linked to that name, so it stays there after the rename.
    static func createAtomically(path: String, holding snapshot: DataSnapshot, keepingOldFileAs backup: String?)
        throws(MockServerError)
    {
        let (folder, name) = split(path)
        let temporary = folder + "/" + temporaryPrefix(name) + CardIdentifier.make(prefix: "n")
        do {
            try ServerDatabase.create(path: temporary, holding: snapshot)
        } catch {
            removeDatabaseFiles(temporary)
            throw error.namingDataFile(path)
        }
        if let backup {
            unlink(backup)
            guard link(path, backup) == 0 || copy(path, to: backup) else {
                let reason = "cannot keep the JSON file as \(backup) (\(errorText()))"
                removeDatabaseFiles(temporary)
                throw .dataFile(path: path, reason: reason)
            }
        }
        guard rename(temporary, path) == 0 else {
            let reason = "renaming the new database into place failed (\(errorText()))"
            removeDatabaseFiles(temporary)
            throw .dataFile(path: path, reason: reason)
        }
        let directory = Foundation.open(folder, O_RDONLY | O_DIRECTORY)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }

    /// Removes what a crash (`kill -9`) can leave beside the data file: a database being
    /// created (`.NAME.new-…`) or a JSON file being written by an earlier version
    /// (`.NAME.tmp-…`). Neither holds anything the file lacks: a change is answered only
    /// after it is in the file.
    static func removeStaleTemporaries(of path: String) {
        let (folder, name) = split(path)
        let prefixes = [temporaryPrefix(name), ".\(name).tmp-"]
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder) else { return }
        for entry in names where prefixes.contains(where: entry.hasPrefix) {
            try? FileManager.default.removeItem(atPath: folder + "/" + entry)
        }
    }

    private static func temporaryPrefix(_ name: String) -> String { ".\(name).new-" }

    private static func split(_ path: String) -> (folder: String, name: String) {
        let url = URL(fileURLWithPath: path)
        return (url.deletingLastPathComponent().path, url.lastPathComponent)
    }

    private static func removeDatabaseFiles(_ path: String) {
        for suffix in ["", "-journal", "-wal", "-shm"] { unlink(path + suffix) }
    }

    private static func copy(_ source: String, to destination: String) -> Bool {
        (try? FileManager.default.copyItem(atPath: source, toPath: destination)) != nil
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
