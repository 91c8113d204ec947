public import Foundation

/// A private (0700) folder under the system's temporary folder, for one test: every test target
/// makes its scratch files here (token files, settings, images, vdirs), and removes the folder
/// with ``remove()`` when the test ends.
///
/// Removal is explicit rather than in `deinit`: Swift may release an object right after its last
/// use, which can be before a token store or a child process is done with a path taken from it.
public final class TemporaryFolder: Sendable {
    /// The folder.
    public let url: URL

    /// Creates `cardwallet-<label>-<random>` with mode 0700 (a valid token-store folder whatever
    /// the umask).
    ///
    /// - Parameter label: a word naming the tests, so a folder left behind says whose it is.
    /// - Throws: `TestFailure` when it cannot be created.
    public init(_ label: String = "tests") throws {
        url = FileManager.default.temporaryDirectory.appending(path: "cardwallet-\(label)-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
            try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.path)
        } catch {
            throw TestFailure("cannot create the test folder \(url.path): \(error.localizedDescription)")
        }
    }

    /// The folder's absolute path.
    public var path: String { url.path }

    /// The path of `name` inside the folder (`name` may hold `/`).
    public func path(_ name: String) -> String { url.appending(path: name).path }

    /// The URL of `name` inside the folder.
    public func url(_ name: String) -> URL { url.appending(path: name) }

    /// Writes `data` to `name` (creating the folders on the way) and returns its path.
    @discardableResult
    public func write(_ data: Data, to name: String) throws -> String {
        let target = url(name)
        try FileManager.default.createDirectory(
            at: target.deletingLastPathComponent(), withIntermediateDirectories: true)
        try data.write(to: target)
        return target.path
    }

    /// Writes `text` as UTF-8 to `name` (creating the folders on the way) and returns its path.
    @discardableResult
    public func write(_ text: String, to name: String) throws -> String {
        try write(Data(text.utf8), to: name)
    }

    /// The names in `folder` (a path), sorted; empty when it does not exist.
    public func contents(of folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// Removes the folder and everything in it.
    public func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// A failure with a message, thrown by test helpers.
public struct TestFailure: Error, CustomStringConvertible {
    public let description: String

    public init(_ description: String) { self.description = description }
}
