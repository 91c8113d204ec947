import Foundation

/// What is at a cache path, judged from its first 100 bytes and its size before SQLite opens
/// it, so that another program's file is never changed and a truncated one is caught early.
enum CacheFileCheck: Equatable, Sendable {
    /// Nothing yet, or an empty file (SQLite makes a new database of it).
    case new
    /// One of our databases, as far as its header tells.
    case ours
    /// Anything else, with the reason it cannot be used (moved aside, then a new cache).
    case unusable(String)

    /// SQLite's file header: the first 16 bytes of every database.
    static let sqliteHeader = Array("SQLite format 3\0".utf8)

    /// Looks at the file at `path`.
    init(path: String) {
        guard let handle = FileHandle(forReadingAtPath: path) else {
            self = PrivateFiles.exists(path) ? .unusable("it cannot be read") : .new
            return
        }
        defer { try? handle.close() }
        let head = Array((try? handle.read(upToCount: 100)) ?? Data())
        self.init(
            head: head, size: PrivateFiles.size(path) ?? head.count, walSize: PrivateFiles.size(path + "-wal") ?? 0)
    }

    /// Judges a file by its first 100 bytes and its size.
    init(head: [UInt8], size: Int, walSize: Int = 0) {
        if head.isEmpty {
            self = .new
            return
        }
        guard head.starts(with: Self.sqliteHeader) else {
            self = .unusable("it is not an SQLite database")
            return
        }
        guard head.count == 100 else {
            self = .unusable("it is truncated (\(size) bytes, less than SQLite's header)")
            return
        }
        // Big-endian fields of the header (https://www.sqlite.org/fileformat.html).
        func integer(_ offset: Int, _ count: Int) -> UInt32 {
            head[offset..<offset + count].reduce(UInt32(0)) { $0 << 8 | UInt32($1) }
        }
        let applicationID = Int32(bitPattern: integer(68, 4))
        // A new cache another process has open: its first pages, the application id among them,
        // are still in the write-ahead log, and the file's own header says 0 until a checkpoint.
        // SQLite reads through the log: the id is checked there before anything is written.
        if applicationID == 0, walSize > 0 {
            self = .ours
            return
        }
        guard applicationID == CacheSchema.applicationID else {
            self = .unusable("it is another program's SQLite database (application_id \(applicationID))")
            return
        }
        let rawPageSize = integer(16, 2)
        let pageSize = rawPageSize == 1 ? 65_536 : Int(rawPageSize)
        let pageCount = Int(integer(28, 4))
        // The page count is valid when the "version valid for" number equals the change
        // counter. A file shorter than that count lost its end — unless the pages are still in
        // the write-ahead log, waiting for a checkpoint.
        if integer(92, 4) == integer(24, 4), pageSize >= 512, size < pageSize * pageCount, walSize == 0 {
            self = .unusable("it is truncated (\(size) bytes of \(pageSize * pageCount))")
            return
        }
        self = .ours
    }
}
