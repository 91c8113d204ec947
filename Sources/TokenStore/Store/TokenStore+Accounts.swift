/// The accounts the wallet remembers (``AccountRecord``), kept in the token file beside the
/// tokens: read without a lock, changed under the exclusive lock like every other item.
extension TokenStore {
    /// Every account record, sorted by name.
    ///
    /// - Throws: ``TokenStoreError`` for an unreadable (corrupt) or unsafe file.
    public func accountRecords() throws(TokenStoreError) -> [AccountRecord] {
        (try loadCredentials()?.accounts ?? []).sorted { $0.name.lowercased() < $1.name.lowercased() }
    }

    /// The record called `name` (any letter case), or `nil`.
    ///
    /// - Throws: ``TokenStoreError`` for an unreadable (corrupt) or unsafe file.
    public func accountRecord(named name: String) throws(TokenStoreError) -> AccountRecord? {
        try loadCredentials()?.accounts.first { $0.isNamed(name) }
    }

    /// The default account: the one set as default, else the only one; `nil` when there is
    /// no record, or several and none is the default.
    ///
    /// - Throws: ``TokenStoreError`` for an unreadable (corrupt) or unsafe file.
    public func defaultAccountRecord() throws(TokenStoreError) -> AccountRecord? {
        try loadCredentials()?.defaultRecord
    }

    /// Adds `record`, or replaces the record of the same server and user, or of the same name.
    ///
    /// - Parameters:
    ///   - record: the account to remember.
    ///   - makeDefault: whether it becomes the default account (the first one always does).
    ///   - replacingCorrupt: `true` only after a successful login, as for ``save(_:replacingCorrupt:)``.
    /// - Throws: ``TokenStoreError``, or `CancellationError` if cancelled while waiting for the lock.
    public func saveAccount(_ record: AccountRecord, makeDefault: Bool, replacingCorrupt: Bool = false) async throws {
        try await withExclusiveAccess { file in
            try file.saveAccount(record, makeDefault: makeDefault, replacingCorrupt: replacingCorrupt)
        }
    }

    /// Forgets the account called `name`: its record, its token pair and its password in this
    /// file. When it was the default, the first remaining account (by name) becomes the default.
    ///
    /// - Returns: the record removed (`nil` when there was none) and the default account now.
    /// - Throws: ``TokenStoreError``, or `CancellationError` if cancelled while waiting for the lock.
    @discardableResult
    public func removeAccount(named name: String) async throws -> (removed: AccountRecord?, newDefault: String?) {
        try await withExclusiveAccess { file in try file.removeAccount(named: name) }
    }

    /// Makes the account called `name` the default one.
    ///
    /// - Returns: the record, or `nil` when there is no account of that name (nothing changed).
    /// - Throws: ``TokenStoreError``, or `CancellationError` if cancelled while waiting for the lock.
    @discardableResult
    public func setDefaultAccount(named name: String) async throws -> AccountRecord? {
        try await withExclusiveAccess { file in try file.setDefaultAccount(named: name) }
    }
}

extension LockedTokenFile {
    /// Adds or replaces `record` (see ``TokenStore/saveAccount(_:makeDefault:replacingCorrupt:)``).
    ///
    /// - Throws: ``TokenStoreError``; an unreadable file is left untouched unless `replacingCorrupt`.
    public func saveAccount(
        _ record: AccountRecord, makeDefault: Bool, replacingCorrupt: Bool = false
    ) throws(TokenStoreError) {
        guard !record.name.isEmpty, !record.kind.isEmpty, !record.server.isEmpty, !record.user.isEmpty else {
            throw .invalidItem(reason: "an account needs a name, a kind, a server and a user")
        }
        try modify(replacingCorrupt: replacingCorrupt) { (credentials: inout StoredCredentials) in
            credentials.accounts.removeAll {
                $0.matches(server: record.server, user: record.user) || $0.isNamed(record.name)
            }
            credentials.accounts.append(record)
            if makeDefault || credentials.defaultRecord == nil { credentials.defaultAccount = record.name }
        }
    }

    /// Forgets the account called `name` (see ``TokenStore/removeAccount(named:)``).
    public func removeAccount(named name: String) throws(TokenStoreError) -> (
        removed: AccountRecord?, newDefault: String?
    ) {
        try modify { (credentials: inout StoredCredentials) in
            guard let record = credentials.accounts.first(where: { $0.isNamed(name) }) else {
                return (nil, credentials.defaultRecord?.name)
            }
            credentials.accounts.removeAll { $0.isNamed(name) }
            credentials.tokens.removeAll { $0.matches(server: record.server, account: record.user) }
            credentials.passwords.removeAll { $0.matches(server: record.server, account: record.user) }
            if let current = credentials.defaultAccount, record.isNamed(current) || credentials.accounts.isEmpty {
                credentials.defaultAccount =
                    credentials.accounts.map(\.name).min { $0.lowercased() < $1.lowercased() }
            }
            return (record, credentials.defaultRecord?.name)
        }
    }

    /// Makes the account called `name` the default one; `nil` when there is none.
    public func setDefaultAccount(named name: String) throws(TokenStoreError) -> AccountRecord? {
        try modify { (credentials: inout StoredCredentials) in
            guard let record = credentials.accounts.first(where: { $0.isNamed(name) }) else { return nil }
            credentials.defaultAccount = record.name
            return record
        }
    }
}
