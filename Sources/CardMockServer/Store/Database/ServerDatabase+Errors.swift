import GRDB

extension ServerDatabase {
    /// A reason a person can act on, for an error from SQLite or from reading a row.
    static func reason(for error: any Error) -> String {
        guard let error = error as? DatabaseError else {
            // A row GRDB could not decode (a card's fields column that is not card JSON, say).
            return "a row cannot be read (\(String(describing: error).prefix(200)))" + advice
        }
        let message = error.message ?? "\(error.resultCode)"
        switch error.resultCode {
        case .SQLITE_CORRUPT, .SQLITE_NOTADB:
            return "it is damaged (SQLite: \(message))" + advice
        case .SQLITE_CANTOPEN:
            return "it cannot be opened (SQLite: \(message)); check that its folder exists and is writable"
        case .SQLITE_PERM, .SQLITE_READONLY, .SQLITE_AUTH:
            return "it cannot be written (SQLite: \(message)); check its permissions and those of its folder"
        case .SQLITE_BUSY, .SQLITE_LOCKED:
            return "another process holds it locked (SQLite: \(message)); use one server per data file"
        case .SQLITE_FULL:
            return "the disk is full (SQLite: \(message))"
        case .SQLITE_IOERR:
            return "reading or writing it failed (SQLite: \(message))"
        default:
            return "SQLite: \(message)"
        }
    }
}
