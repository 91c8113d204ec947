/// Where a secret is kept for an account: the system keyring, a file, a test's memory.
///
/// Each kind of place is one small type behind this protocol (``KeyringSecretStore``,
/// ``FileSecretStore``, ``MemorySecretStore``); ``AccountSecrets`` chooses one per account, from the
/// account's record. A password command is not a store: it only gives (``PasswordCommand``).
public protocol SecretStore: Sendable {
    /// The secret kept for `key`, or `nil` when none is.
    func secret(for key: SecretKey) async throws(SecretError) -> String?
    /// Keeps `secret` for `key`, replacing what was kept.
    func store(_ secret: String, for key: SecretKey) async throws(SecretError)
    /// Removes what is kept for `key`; nothing kept is not a failure.
    func remove(for key: SecretKey) async throws(SecretError)
}

/// Which account a secret belongs to.
public struct SecretKey: Sendable, Hashable, CustomStringConvertible {
    /// The account's name, for the keyring's label (`CardWallet: alice@dav.example.com`).
    public var account: String
    /// The server's base URL.
    public var server: String
    /// The user name.
    public var user: String

    /// A key.
    public init(account: String, server: String, user: String) {
        self.account = account
        self.server = server
        self.user = user
    }

    /// The label a keyring shows for the secret.
    public var label: String { "CardWallet: \(account)" }

    public var description: String { "\(user) at \(server)" }
}
