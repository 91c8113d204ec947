public import TokenStore

/// Passwords in the token file, in plain text (``TokenStore/PasswordItem``): only for an account
/// whose password no keyring could take. The file is 0600 in a 0700 folder, not encrypted.
public struct FileSecretStore: SecretStore {
    /// The token file.
    public let tokenStore: TokenStore

    /// The store of `tokenStore`'s file.
    public init(tokenStore: TokenStore) {
        self.tokenStore = tokenStore
    }

    public func secret(for key: SecretKey) async throws(SecretError) -> String? {
        do {
            return try tokenStore.password(server: key.server, account: key.user)?.password
        } catch {
            throw SecretError(.file, error.description)
        }
    }

    public func store(_ secret: String, for key: SecretKey) async throws(SecretError) {
        do {
            let place = try tokenStore.password(server: key.server, account: key.user)?.place
            try await tokenStore.save(
                PasswordItem(server: key.server, account: key.user, password: secret, place: place))
        } catch let error as TokenStoreError {
            throw SecretError(.file, error.description)
        } catch {
            throw SecretError(.file, "The password could not be kept in the token file (\(error)).")
        }
    }

    public func remove(for key: SecretKey) async throws(SecretError) {
        do {
            try await tokenStore.deletePassword(server: key.server, account: key.user)
        } catch let error as TokenStoreError {
            throw SecretError(.file, error.description)
        } catch {
            throw SecretError(.file, "The password could not be removed from the token file (\(error)).")
        }
    }
}
