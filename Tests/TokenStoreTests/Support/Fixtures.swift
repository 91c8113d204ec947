import Foundation
import Synchronization
import TestSupport
import Testing

@testable import TokenStore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension TemporaryFolder {
    /// A store whose file sits in a `state` subfolder that does not exist yet.
    func store(lockTimeout: Duration = .seconds(30)) -> TokenStore {
        TokenStore(path: path("state/tokens.json"), lockTimeout: lockTimeout)
    }
}

/// The permission bits of `path` (not following a symbolic link).
func permissions(_ path: String) throws -> UInt32 {
    var info = stat()
    guard lstat(path, &info) == 0 else { throw TestFailure("cannot stat \(path): errno \(errno)") }
    return UInt32(info.st_mode) & 0o7777
}

/// Writes raw bytes to `path` with an explicit mode (creating its folder 0700 if needed).
func writeRaw(_ data: Data, to path: String, mode: UInt32 = 0o600) throws {
    let folder = Paths.parent(of: path)
    if !FileManager.default.fileExists(atPath: folder) {
        guard mkdir(folder, 0o700) == 0, chmod(folder, 0o700) == 0 else { throw TestFailure("cannot create \(folder)") }
    }
    guard FileManager.default.createFile(atPath: path, contents: data), chmod(path, mode_t(mode)) == 0 else {
        throw TestFailure("cannot write \(path)")
    }
}

/// Sample items. Tokens contain a canary that must never show up in any text.
enum Samples {
    static let canary = "CANARY-7f3a9c"
    static let server = "http://127.0.0.1:8080/v1"
    static let expiry = Date(timeIntervalSince1970: 1_900_000_000)

    static func item(
        server: String = server, account: String = "ann@example.com", generation: Int = 1
    ) -> TokenItem {
        TokenItem(
            server: server, account: account,
            accessToken: "access-\(canary)-\(generation)", accessTokenExpiresAt: expiry,
            refreshToken: "refresh-\(canary)-\(generation)", refreshTokenExpiresAt: expiry.addingTimeInterval(86_400),
            userID: "u1", displayName: "Ann")
    }
}

/// A flag one task sets and another polls.
final class Latch: Sendable {
    private let state = Mutex(false)

    func set() { state.withLock { $0 = true } }

    var isSet: Bool { state.withLock { $0 } }
}
