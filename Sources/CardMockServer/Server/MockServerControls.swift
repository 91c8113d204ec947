/// What tests, demos and benchmarks can do to a mock server without HTTP: the same
/// operations as the `/_admin` endpoints (which exist only with `--admin`), always available here.
public final class MockServerControls: Sendable {
    let state: ServerState
    let recorder: StatisticsRecorder

    /// The configuration the server was built with.
    public let configuration: MockServerConfiguration

    init(state: ServerState, statistics: StatisticsRecorder, configuration: MockServerConfiguration) {
        self.state = state
        self.recorder = statistics
        self.configuration = configuration
    }

    /// Request counts by route and status, as `GET /_admin/stats` returns them.
    public var statistics: RequestStatistics { recorder.snapshot }

    /// Sets every request count back to zero.
    public func resetStatistics() { recorder.reset() }

    /// Expires every access token of the user with `email` now; their next request gets E04.
    /// - Returns: how many live access tokens were expired, or `nil` when there is no such user.
    /// - Throws: ``MockServerError`` when the change cannot be saved to the data file.
    @discardableResult
    public func expireAccessTokens(email: String) async throws(MockServerError) -> Int? {
        do {
            return try await state.expireAccessTokens(email: email)
        } catch {
            throw .dataFile(path: configuration.dataFile ?? "", reason: error.message)
        }
    }

    /// Revokes every refresh token of the user with `email`; their next refresh gets E06.
    /// Access tokens keep working until they expire.
    /// - Returns: how many active refresh tokens were revoked, or `nil` when there is no such user.
    /// - Throws: ``MockServerError`` when the change cannot be saved to the data file.
    @discardableResult
    public func revokeRefreshTokens(email: String) async throws(MockServerError) -> Int? {
        do {
            return try await state.revokeRefreshTokens(email: email)
        } catch {
            throw .dataFile(path: configuration.dataFile ?? "", reason: error.message)
        }
    }

    /// The seed accounts with their card counts, for banners and demos.
    public func accounts() async -> [MockServerAccount] {
        await state.accounts(seeds: configuration.users)
    }
}

/// A user account as the `mock-server` banner lists it.
public struct MockServerAccount: Sendable, Equatable {
    /// The login email.
    public var email: String
    /// The password, when the configuration gives it in plain text (public demo accounts).
    public var password: String?
    /// The display name.
    public var name: String
    /// How many cards the account holds now.
    public var cardCount: Int

    /// Creates an account description.
    public init(email: String, password: String?, name: String, cardCount: Int) {
        self.email = email
        self.password = password
        self.name = name
        self.cardCount = cardCount
    }
}

extension ServerState {
    func accounts(seeds: [MockServerConfiguration.SeedUser]) -> [MockServerAccount] {
        snapshot.users.map { user in
            let seed = seeds.first { UserRecord.emailKey($0.email) == UserRecord.emailKey(user.email) }
            return MockServerAccount(
                email: user.email, password: seed?.password, name: user.name,
                cardCount: snapshot.cards.walletOrder(ownerID: user.id).count)
        }
    }
}
