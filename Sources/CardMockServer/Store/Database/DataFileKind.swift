import Foundation

/// What is at the `--data` path, judged from its first bytes before anything opens it, so a
/// file that is not ours is never changed.
enum DataFileKind: Equatable, Sendable {
    /// Nothing yet: the server creates the database from the seed data.
    case missing
    /// A folder, not a file.
    case folder
    /// A file of no bytes.
    case empty
    /// An SQLite database with this `application_id` (ours is ``DatabaseSchema/applicationID``).
    case database(applicationID: Int32)
    /// Text starting with `{`: the JSON data file of earlier versions.
    case json
    /// Anything else.
    case unknown

    /// SQLite's file header: the first 16 bytes of every database.
    static let sqliteHeader = Array("SQLite format 3\0".utf8)

    /// Looks at `path`.
    /// - Throws: ``MockServerError/dataFile(path:reason:)`` when it exists but cannot be read.
    init(path: String) throws(MockServerError) {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            self = .missing
            return
        }
        if isFolder.boolValue {
            self = .folder
            return
        }
        guard let handle = FileHandle(forReadingAtPath: path) else {
            throw .dataFile(path: path, reason: "it cannot be read (check its permissions)")
        }
        defer { try? handle.close() }
        let head: [UInt8]
        do {
            head = Array(try handle.read(upToCount: 100) ?? Data())
        } catch {
            throw .dataFile(path: path, reason: "it cannot be read (\(error.localizedDescription))")
        }
        self = Self(head: head)
    }

    /// Judges a file by its first 100 bytes (SQLite's header is 100 bytes long).
    init(head: [UInt8]) {
        if head.isEmpty {
            self = .empty
        } else if head.starts(with: Self.sqliteHeader) {
            // The header stores application_id big-endian at offset 68.
            guard head.count >= 72 else {
                self = .unknown
                return
            }
            let id = head[68..<72].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
            self = .database(applicationID: Int32(bitPattern: id))
        } else if head.first(where: { ![0x20, 0x09, 0x0A, 0x0D].contains($0) }) == UInt8(ascii: "{") {
            self = .json
        } else {
            self = .unknown
        }
    }
}
