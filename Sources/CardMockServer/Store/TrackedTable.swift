/// One row's value before and after a change; `nil` means the row did not exist.
struct RowChange<Value: Sendable>: Sendable {
    /// The value before the change, or `nil` for a new row.
    var before: Value?
    /// The value after the change, or `nil` for a deleted row.
    var after: Value?
}

/// A dictionary of rows that remembers, for every row written since the last
/// ``takeChanges()``, what it held before.
///
/// It is what lets the server write only the rows a request changed (one SQLite transaction
/// of a few rows, whatever the size of the data) and put them back when that write fails,
/// without copying the whole data set per request. Reads go straight to ``rows``.
struct TrackedTable<Key: Hashable & Sendable, Value: Equatable & Sendable>: Sendable {
    /// The current rows.
    private(set) var rows: [Key: Value]
    /// The value each row written since the last ``takeChanges()`` held before its first write.
    private var before: [Key: Value?] = [:]

    /// A table holding `rows`, with no changes recorded.
    init(_ rows: [Key: Value] = [:]) {
        self.rows = rows
    }

    /// The row for `key`; setting it (to `nil` to delete) records the change.
    subscript(key: Key) -> Value? {
        get { rows[key] }
        set {
            if before.index(forKey: key) == nil { before[key] = .some(rows[key]) }
            rows[key] = newValue
        }
    }

    /// How many rows there are.
    var count: Int { rows.count }

    /// Whether there are no rows.
    var isEmpty: Bool { rows.isEmpty }

    /// The rows written since the last call whose value really changed, and forgets them.
    mutating func takeChanges() -> [Key: RowChange<Value>] {
        var changes: [Key: RowChange<Value>] = [:]
        for (key, old) in before where old != rows[key] {
            changes[key] = RowChange(before: old, after: rows[key])
        }
        before = [:]
        return changes
    }

    /// Puts back the values `changes` replaced (after a write that failed).
    mutating func revert(_ changes: [Key: RowChange<Value>]) {
        for (key, change) in changes { rows[key] = change.before }
    }

    /// Puts back every row written since the last ``takeChanges()``.
    mutating func discardChanges() {
        for (key, old) in before { rows[key] = old }
        before = [:]
    }
}

extension TrackedTable: Equatable {
    /// Tables are equal when their rows are; recorded changes do not count.
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.rows == rhs.rows }
}

extension TrackedTable: Codable where Key: Codable, Value: Codable {
    /// Decodes the rows as a plain JSON object (the format of the JSON data file).
    init(from decoder: any Decoder) throws {
        self.init(try [Key: Value](from: decoder))
    }

    /// Encodes the rows as a plain JSON object.
    func encode(to encoder: any Encoder) throws {
        try rows.encode(to: encoder)
    }
}
