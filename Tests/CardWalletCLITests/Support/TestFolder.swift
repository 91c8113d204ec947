import Foundation

/// A private temporary folder, removed by ``remove()``.
struct TestFolder: Sendable {
    let url: URL

    init(_ label: String = "cli") throws {
        url = FileManager.default.temporaryDirectory.appending(path: "cardwallet-\(label)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.path)
    }

    var path: String { url.path }

    func path(_ name: String) -> String { url.appending(path: name).path }

    /// Writes `text` to `name` (creating folders), returning its path.
    @discardableResult
    func write(_ text: String, to name: String) throws -> String {
        try write(Data(text.utf8), to: name)
    }

    /// Writes `data` to `name` (creating folders), returning its path.
    @discardableResult
    func write(_ data: Data, to name: String) throws -> String {
        let target = url.appending(path: name)
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: target)
        return target.path
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// The repository's root folder, found from this file's path.
enum Repository {
    static var root: URL {
        URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent()  // Support
            .deletingLastPathComponent()  // CardWalletCLITests
            .deletingLastPathComponent()  // Tests
            .deletingLastPathComponent()
    }

    static func file(_ path: String) -> URL { root.appending(path: path) }
}

/// A failure with a message, for helpers.
struct TestFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
