import Foundation

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
