import Synchronization

/// Secrets in memory: the tests' keyring, and a stand-in where nothing may be written.
public final class MemorySecretStore: SecretStore {
    private let secrets = Mutex<[SecretKey: String]>([:])
    private let failure: SecretError?

    /// An empty store; every call fails with `failure` when one is given (a locked keyring, say).
    public init(failingWith failure: SecretError? = nil) {
        self.failure = failure
    }

    public func secret(for key: SecretKey) async throws(SecretError) -> String? {
        if let failure { throw failure }
        return secrets.withLock { $0[Self.normalized(key)] }
    }

    public func store(_ secret: String, for key: SecretKey) async throws(SecretError) {
        if let failure { throw failure }
        secrets.withLock { $0[Self.normalized(key)] = secret }
    }

    public func remove(for key: SecretKey) async throws(SecretError) {
        if let failure { throw failure }
        _ = secrets.withLock { $0.removeValue(forKey: Self.normalized(key)) }
    }

    /// How many secrets are kept.
    public var count: Int { secrets.withLock { $0.count } }

    private static func normalized(_ key: SecretKey) -> SecretKey {
        SecretKey(account: "", server: key.server, user: key.user.lowercased())
    }
}
