import CardModels
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// The JSON data file of earlier versions (format 1): read once to migrate it to the database
/// (``DataFileOpening``), and written only by the benchmark that compares the two.
///
/// It is written atomically: a temporary file in the same folder is written and fsynced,
/// renamed over the old file, and the folder is fsynced. A crash (even `kill -9`) at any
/// moment leaves either the old or the new file, never a torn one — but every change rewrites
/// all the data, so writes slow down as the data grows.
struct DataFile: Sendable {
    let path: String

    private static let loadAdvice = "; fix it or move it away, and the server starts again from the seed data"

    /// The snapshot in the file, or `nil` when there is no file yet.
    /// - Throws: ``MockServerError/dataFile(path:reason:)`` when it exists but cannot be used.
    func load() throws(MockServerError) -> DataSnapshot? {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else { return nil }
        if isFolder.boolValue { throw .dataFile(path: path, reason: "it is a folder; give the path of a file in it") }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .dataFile(path: path, reason: "it cannot be read" + Self.loadAdvice)
        }
        let snapshot: DataSnapshot
        do {
            snapshot = try CardWalletJSON.decoder().decode(DataSnapshot.self, from: data)
        } catch {
            throw .dataFile(
                path: path,
                reason: "it is not a mock server data file (\(MockServerConfiguration.describe(error)))"
                    + Self.loadAdvice)
        }
        guard snapshot.format == DataSnapshot.currentFormat else {
            throw .dataFile(
                path: path,
                reason: "it has format \(snapshot.format), this build reads \(DataSnapshot.currentFormat)"
                    + Self.loadAdvice)
        }
        return snapshot
    }

    private static func temporaryPrefix(for fileName: String) -> String { "." + fileName + ".tmp-" }

    /// Replaces the file with `snapshot`, atomically and durably.
    /// - Throws: ``MockServerError/dataFile(path:reason:)`` naming the failed step.
    func save(_ snapshot: DataSnapshot) throws(MockServerError) {
        let data: Data
        do {
            data = try CardWalletJSON.encoder().encode(snapshot)
        } catch {
            throw .dataFile(path: path, reason: "the data cannot be encoded")
        }
        let url = URL(fileURLWithPath: path)
        let folder = url.deletingLastPathComponent().path
        let temporary =
            folder + "/" + Self.temporaryPrefix(for: url.lastPathComponent) + CardIdentifier.make(prefix: "w")
        try writeDurably(data, to: temporary)
        guard rename(temporary, path) == 0 else {
            let reason = "renaming the new file into place failed (\(Self.errorText()))"
            unlink(temporary)
            throw .dataFile(path: path, reason: reason)
        }
        let directory = open(folder, O_RDONLY | O_DIRECTORY)
        if directory >= 0 {
            _ = fsync(directory)
            close(directory)
        }
    }

    private func writeDurably(_ data: Data, to temporary: String) throws(MockServerError) {
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw .dataFile(path: path, reason: "cannot create a file beside it (\(Self.errorText()))")
        }
        var failure: String?
        data.withUnsafeBytes { buffer in
            var offset = 0
            while offset < buffer.count, let base = buffer.baseAddress {
                let written = write(descriptor, base + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    failure = "writing failed (\(Self.errorText()))"
                    return
                }
                offset += written
            }
        }
        if failure == nil, fsync(descriptor) != 0 { failure = "fsync failed (\(Self.errorText()))" }
        close(descriptor)
        if let failure {
            unlink(temporary)
            throw .dataFile(path: path, reason: failure)
        }
    }

    private static func errorText() -> String { String(cString: strerror(errno)) }
}
