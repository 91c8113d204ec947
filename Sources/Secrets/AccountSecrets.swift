public import TokenStore

/// Where each account's password lives, decided once at login and read from its record after:
/// the system keyring when one answers, else a password command when the person gave one, else
/// — only when no keyring answers — the token file, in plain text, with a note saying so.
///
/// Passwords and command output never reach a log, a message or the terminal.
public struct AccountSecrets: Sendable {
    /// The keyring (``KeyringSecretStore`` live; a ``MemorySecretStore`` in tests).
    public let keyring: any SecretStore
    /// The token file, for passwords no keyring could take.
    public let file: FileSecretStore
    /// The environment password commands run in.
    public let environment: [String: String]

    /// The secrets of the accounts kept in `tokenStore`.
    ///
    /// - Parameters:
    ///   - keyring: the keyring to use.
    ///   - tokenStore: the token file (records, and passwords kept in plain text).
    ///   - environment: the environment password commands run in.
    public init(keyring: any SecretStore, tokenStore: TokenStore, environment: [String: String]) {
        self.keyring = keyring
        self.file = FileSecretStore(tokenStore: tokenStore)
        self.environment = environment
    }

    /// The live secrets: the session's keyring (libsecret) and `tokenStore`'s file.
    public static func live(tokenStore: TokenStore, environment: [String: String]) -> AccountSecrets {
        AccountSecrets(
            keyring: KeyringSecretStore(environment: environment), tokenStore: tokenStore, environment: environment)
    }

    /// Why no keyring answers, or `nil` when one does.
    public func keyringProblem() async -> SecretError? {
        do {
            _ = try await keyring.secret(for: SecretKey(account: "", server: "cardwallet:probe", user: "probe"))
            return nil
        } catch {
            return error
        }
    }

    /// The key of `record`'s secret.
    public static func key(of record: AccountRecord) -> SecretKey {
        SecretKey(account: record.name, server: record.server, user: record.user)
    }

    /// The password of `record`, from where its record says it lives. A password kept in the
    /// token file moves into the keyring the first time one answers: it leaves the file only after
    /// the keyring confirmed it holds it (``migrate(_:password:)``).
    ///
    /// - Throws: ``SecretError``: nothing kept (`missing`: log in again), a locked keyring, a
    ///   password command that failed.
    public func password(for record: AccountRecord) async throws(SecretError) -> String {
        // The record as stored now: its password may have moved (into the keyring, by this
        // process or another) since the backend was built.
        let record = Self.current(record, in: file.tokenStore)
        let key = Self.key(of: record)
        switch record.secret {
        case nil:
            throw SecretError(.missing, "No password is kept for \(SecretError.escaped(record.name)): log in again.")
        case .command(let arguments):
            return try await PasswordCommand(arguments: arguments).password(environment: environment)
        case .keyring:
            guard let password = try await keyring.secret(for: key) else {
                throw SecretError(
                    .missing,
                    "The keyring holds no password for \(SecretError.escaped(record.name)) (it was removed there): "
                        + "log in again.")
            }
            return password
        case .file:
            guard let password = try await file.secret(for: key) else {
                throw SecretError(
                    .missing, "No password is kept for \(SecretError.escaped(record.name)): log in again.")
            }
            await migrate(record, password: password)
            return password
        }
    }

    /// The secret of `record` when one is kept, `nil` when none is any more (removed from the
    /// keyring, or forgotten after the account's session ended): an OAuth account's refresh token.
    ///
    /// - Throws: ``SecretError`` for a keyring that cannot answer (locked, say) or a failing command.
    public func secretIfKept(for record: AccountRecord) async throws(SecretError) -> String? {
        do {
            return try await password(for: record)
        } catch {
            if error.reason == .missing { return nil }
            throw error
        }
    }

    /// Replaces the secret of `record` where its record says it lives: the keyring (stored, read
    /// back and compared) or the token file. For a refresh token the authorization server
    /// rotated; a password command keeps nothing, so it cannot take one.
    ///
    /// - Throws: ``SecretError``; the secret kept before stays then.
    public func replace(_ secret: String, for record: AccountRecord) async throws(SecretError) {
        let record = Self.current(record, in: file.tokenStore)
        let key = Self.key(of: record)
        switch record.secret {
        case .keyring:
            try await keyring.store(secret, for: key)
            guard try await keyring.secret(for: key) == secret else {
                throw SecretError(.keyring, "The keyring did not keep the secret it was given.")
            }
        case .file:
            try await file.store(secret, for: key)
        case .command, nil:
            throw SecretError(
                .missing, "No secret is kept for \(SecretError.escaped(record.name)) to replace: log in again.")
        }
    }

    /// `record` as the token file holds it now, when it is still the same account there.
    static func current(_ record: AccountRecord, in tokenStore: TokenStore) -> AccountRecord {
        guard let stored = try? tokenStore.accountRecord(named: record.name),
            stored.matches(server: record.server, user: record.user)
        else { return record }
        return stored
    }

    /// What ``keep(_:for:command:)`` did.
    public struct Kept: Sendable, Equatable {
        /// Where the password lives now.
        public var location: SecretLocation
        /// What the person should know (a password kept in plain text), once.
        public var note: String?

        /// What a keep did.
        public init(location: SecretLocation, note: String?) {
            self.location = location
            self.note = note
        }
    }

    /// Keeps the password of a login: nowhere when a password command gives it, else in the
    /// keyring, else — only when no keyring answers — in the token file, with a note.
    ///
    /// - Parameters:
    ///   - password: the password the login used.
    ///   - record: the account (its ``AccountRecord/secret`` is not read).
    ///   - command: the password command the person gave, if any.
    /// - Returns: where it lives, for the record, and the note to show.
    /// - Throws: ``SecretError`` for a keyring that answers but refuses (locked, say): the
    ///   password is then kept nowhere, never in plain text in silence.
    public func keep(
        _ password: String, for record: AccountRecord, command: PasswordCommand?
    ) async throws(SecretError) -> Kept {
        let key = Self.key(of: record)
        if let command {
            // Nothing to keep; a password kept here before goes.
            try? await keyring.remove(for: key)
            try? await file.remove(for: key)
            return Kept(location: .command(command.arguments), note: nil)
        }
        do throws(SecretError) {
            try await keyring.store(password, for: key)
            guard try await keyring.secret(for: key) == password else {
                throw SecretError(.keyring, "The keyring did not keep the password it was given.")
            }
            try? await file.remove(for: key)
            return Kept(location: .keyring, note: nil)
        } catch  where error.reason == .noKeyring {
            try await file.store(password, for: key)
            return Kept(
                location: .file,
                note: "the password is kept in plain text in the token file (mode 0600, not encrypted): "
                    + "no keyring answered (\(error.description.dropLast())). With a keyring running (GNOME "
                    + "Keyring, KeePassXC, KWallet) log in again to move it there, or give "
                    + "--password-command 'pass show …' so that none is kept.")
        }
    }

    /// Removes what is kept for `record` (keyring and file); a command keeps nothing.
    ///
    /// - Returns: why the keyring could not be told, when it could not (the record goes anyway).
    @discardableResult
    public func forget(_ record: AccountRecord) async -> SecretError? {
        let key = Self.key(of: record)
        var problem: SecretError?
        if record.secret == .keyring {
            do {
                try await keyring.remove(for: key)
            } catch {
                problem = error
            }
        }
        try? await file.remove(for: key)
        return problem
    }

    /// Moves a password kept in the token file into the keyring when one answers: stored, read
    /// back and compared, the record pointed at the keyring, and only then removed from the file.
    /// Any failure leaves it in the file, as it was.
    ///
    /// - Returns: whether it moved.
    @discardableResult
    public func migrate(_ record: AccountRecord, password: String) async -> Bool {
        guard record.secret == .file, await keyringProblem() == nil else { return false }
        let key = Self.key(of: record)
        do {
            try await keyring.store(password, for: key)
            guard try await keyring.secret(for: key) == password else { return false }
            var moved = record
            moved.secret = .keyring
            try await file.tokenStore.saveAccount(moved, makeDefault: false)
            try await file.remove(for: key)
            return true
        } catch {
            return false
        }
    }
}
