import HummingbirdBcrypt
import NIOPosix

/// bcrypt password hashing, run off the Swift concurrency pool because it is slow on purpose.
enum PasswordHasher {
    /// bcrypt reads at most 72 bytes and stops at a NUL byte; longer or NUL-carrying passwords
    /// would silently match a prefix, so they are refused instead.
    static let maxPasswordBytes = 72

    /// Why a password can never be stored or matched, or `nil` when it is fine.
    static func problem(with password: String) -> String? {
        if password.isEmpty { return "must not be empty" }
        if password.utf8.contains(0) { return "must not contain NUL characters" }
        if password.utf8.count > maxPasswordBytes { return "must be at most \(maxPasswordBytes) bytes" }
        return nil
    }

    /// Whether `text` looks like a bcrypt hash (`$2a$`, `$2b$` or `$2y$`, cost, 53 characters).
    static func isBcryptHash(_ text: String) -> Bool {
        let utf8 = Array(text.utf8)
        guard utf8.count == 60, utf8[0] == UInt8(ascii: "$"), utf8[1] == UInt8(ascii: "2"),
            [UInt8(ascii: "a"), UInt8(ascii: "b"), UInt8(ascii: "y")].contains(utf8[2]),
            utf8[3] == UInt8(ascii: "$"), utf8[6] == UInt8(ascii: "$")
        else { return false }
        return true
    }

    /// Hashes a password with a fresh salt.
    static func hash(_ password: String, cost: Int) async -> String {
        let cost = UInt8(clamping: min(max(cost, 4), 31))
        return await offPool { Bcrypt.hash(password, cost: cost) }
    }

    /// Whether `password` matches `hash`. Refused passwords never match.
    static func verify(_ password: String, hash: String) async -> Bool {
        guard problem(with: password) == nil, isBcryptHash(hash) else { return false }
        return await offPool { Bcrypt.verify(password, hash: hash) }
    }

    private static func offPool<T: Sendable>(_ work: @escaping @Sendable () -> T) async -> T {
        if let result = try? await NIOThreadPool.singleton.runIfActive(work) { return result }
        return work()
    }
}
