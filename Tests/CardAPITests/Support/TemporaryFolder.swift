import Foundation
import TokenStore

/// A private folder under the system's temporary folder, removed by `remove()`.
struct TemporaryFolder {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appending(path: "cardapi-tests-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        try FileManager.default.setAttributes([.posixPermissions: 0o700], ofItemAtPath: url.path)
    }

    func file(_ name: String) -> URL { url.appending(path: name) }

    var tokenStore: TokenStore { TokenStore(path: file("tokens.json").path, lockTimeout: .seconds(60)) }

    func write(_ data: Data, to name: String) throws -> URL {
        let target = file(name)
        try data.write(to: target)
        return target
    }

    func remove() {
        try? FileManager.default.removeItem(at: url)
    }
}

/// Image bytes for uploads.
enum Fixtures {
    /// A PNG header and a little more (the server sniffs only the first bytes).
    static let png = Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) + Data((0..<2000).map { UInt8($0 % 251) })
    /// A JPEG start.
    static let jpeg = Data([0xFF, 0xD8, 0xFF, 0xE0]) + Data(repeating: 0x42, count: 500)
}
