/// Where `--data` keeps the data: each change is written here before it is answered.
protocol DataStore: Sendable {
    /// Writes one change durably, all of it or nothing.
    ///
    /// - Parameters:
    ///   - changes: the rows the change touched, before and after.
    ///   - snapshot: all the data, the change applied (the JSON file of earlier versions
    ///     rewrote all of it; the database writes only `changes`).
    /// - Throws: ``MockServerError/dataFile(path:reason:)`` when it could not be written.
    func write(_ changes: DataChanges, in snapshot: DataSnapshot) throws(MockServerError)

    /// Lets go of the file when the server stops.
    func close()
}

/// The JSON data file of earlier versions as a store: every change rewrites the whole file.
///
/// Kept only so that `cardwallet-bench mock-server-writes` can measure it beside the database
/// in one run; the server itself migrates such files to SQLite (``DataFileOpening``).
struct LegacyJSONStore: DataStore {
    let file: DataFile

    func write(_ changes: DataChanges, in snapshot: DataSnapshot) throws(MockServerError) {
        try file.save(snapshot)
    }

    func close() {}
}
