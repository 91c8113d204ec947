import Foundation

/// A private (0700) folder under the system's temporary folder, removed by ``remove()``.
struct TemporaryFolder: Sendable {
    /// The folder's absolute path.
    let path: String

    /// Creates `cardwallet-bench-<label>-<random>`.
    ///
    /// - Throws: ``BenchError`` when the folder cannot be created.
    init(_ label: String) throws {
        let base = FileManager.default.temporaryDirectory.path
        path = base + "/cardwallet-bench-\(label)-\(UUID().uuidString.prefix(8))"
        do {
            try FileManager.default.createDirectory(
                atPath: path, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw BenchError("cannot create a temporary folder at \(path): \(error.localizedDescription)")
        }
    }

    /// `path/name`, created as a 0700 folder.
    ///
    /// - Throws: ``BenchError`` when it cannot be created.
    func folder(_ name: String) throws -> String {
        let child = path + "/" + name
        do {
            try FileManager.default.createDirectory(
                atPath: child, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw BenchError("cannot create \(child): \(error.localizedDescription)")
        }
        return child
    }

    /// Removes the folder and everything in it.
    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}
