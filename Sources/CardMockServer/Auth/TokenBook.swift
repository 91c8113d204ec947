import Foundation

/// Every issued token, by selector, grouped into families (one family per login).
///
/// A pure value: each operation takes `now` and returns what happened, so the rotation and
/// reuse rules are tested without a server. Refresh tokens rotate: a successful refresh marks
/// the presented token `rotated` and issues a new pair in the same family. Presenting a
/// rotated token again is reuse (RFC 9700 §4.14.2): the whole family is revoked, access tokens
/// included. The tables record what each operation touched (``TrackedTable``), so the server
/// persists only those records.
struct TokenBook: Codable, Sendable, Equatable {
    struct AccessRecord: Codable, Sendable, Equatable {
        var verifier: Data
        var familyID: String
        var userID: String
        var expiresAt: Date
    }

    enum RefreshState: String, Codable, Sendable {
        case active, rotated, revoked
    }

    struct RefreshRecord: Codable, Sendable, Equatable {
        var verifier: Data
        var familyID: String
        var userID: String
        var expiresAt: Date
        var state: RefreshState
    }

    struct Family: Codable, Sendable, Equatable {
        var userID: String
        var revoked: Bool
    }

    /// A freshly issued pair, as the login and refresh responses report it.
    struct IssuedPair: Sendable, Equatable {
        var accessToken: String
        var refreshToken: String
        var accessTokenExpiresAt: Date
        var refreshTokenExpiresAt: Date
        var userID: String
    }

    /// Why an access token was refused.
    enum AccessFailure: Error, Sendable, Equatable {
        /// Not one of ours, or revoked: E03.
        case invalid
        /// Ours, but past its lifetime: E04.
        case expired
    }

    /// Why a refresh token was refused; every case answers E06.
    enum RefreshFailure: Error, Sendable, Equatable {
        case unknown, expired, revoked
        /// A rotated token came back: the family is now revoked.
        case reused
    }

    struct Lifetimes: Sendable, Equatable {
        var access: TimeInterval
        var refresh: TimeInterval
    }

    /// Access tokens by selector.
    private(set) var accessRecords = TrackedTable<String, AccessRecord>()
    /// Refresh tokens by selector.
    private(set) var refreshRecords = TrackedTable<String, RefreshRecord>()
    /// Token families (one per login) by id.
    private(set) var families = TrackedTable<String, Family>()
    private var lastPrune: Date?

    /// What operations touched since the last ``takeChanges()``.
    struct Changes: Sendable {
        var accessRecords: [String: RowChange<AccessRecord>] = [:]
        var refreshRecords: [String: RowChange<RefreshRecord>] = [:]
        var families: [String: RowChange<Family>] = [:]

        var isEmpty: Bool { accessRecords.isEmpty && refreshRecords.isEmpty && families.isEmpty }
    }

    /// An empty book.
    init() {}

    /// A book of stored records (as the database holds them).
    init(accessRecords: [String: AccessRecord], refreshRecords: [String: RefreshRecord], families: [String: Family]) {
        self.accessRecords = TrackedTable(accessRecords)
        self.refreshRecords = TrackedTable(refreshRecords)
        self.families = TrackedTable(families)
    }

    static func == (lhs: TokenBook, rhs: TokenBook) -> Bool {
        lhs.accessRecords == rhs.accessRecords && lhs.refreshRecords == rhs.refreshRecords
            && lhs.families == rhs.families
    }

    /// How long expired records are kept so that they still answer "expired" rather than
    /// "unknown", and rotated refresh tokens can still be recognised as reuse.
    static let retentionAfterExpiry: TimeInterval = 86_400

    enum CodingKeys: String, CodingKey {
        case accessRecords, refreshRecords, families
    }

    /// Starts a new family for `userID` (a login) and issues its first pair.
    mutating func login(userID: String, now: Date, lifetimes: Lifetimes) -> IssuedPair {
        pruneIfDue(now: now)
        let familyID = CardIdentifier.make(prefix: "fam")
        families[familyID] = Family(userID: userID, revoked: false)
        return issue(familyID: familyID, userID: userID, now: now, lifetimes: lifetimes)
    }

    /// Rotates a refresh token: the presented one stops working and a new pair is issued.
    mutating func refresh(_ presented: String, now: Date, lifetimes: Lifetimes) -> Result<IssuedPair, RefreshFailure> {
        pruneIfDue(now: now)
        guard let token = OpaqueToken.parse(presented, as: .refresh), var record = refreshRecords[token.selector],
            token.matches(storedVerifier: record.verifier),
            let family = families[record.familyID]
        else { return .failure(.unknown) }
        switch record.state {
        case .revoked:
            return .failure(.revoked)
        case .rotated:
            if record.expiresAt <= now { return .failure(.expired) }
            revokeFamily(record.familyID)
            return .failure(.reused)
        case .active:
            if family.revoked { return .failure(.revoked) }
            if record.expiresAt <= now { return .failure(.expired) }
            record.state = .rotated
            refreshRecords[token.selector] = record
            return .success(issue(familyID: record.familyID, userID: record.userID, now: now, lifetimes: lifetimes))
        }
    }

    /// The user an access token belongs to.
    func authenticate(_ presented: String, now: Date) -> Result<String, AccessFailure> {
        guard let record = accessRecord(for: presented) else { return .failure(.invalid) }
        if families[record.familyID]?.revoked ?? true { return .failure(.invalid) }
        if record.expiresAt <= now { return .failure(.expired) }
        return .success(record.userID)
    }

    /// Revokes the family of the presented tokens (logout). An expired but genuine access token
    /// still identifies its family: ending a session is always allowed.
    /// - Returns: whether either token identified a live family.
    mutating func logout(accessToken: String?, refreshToken: String?) -> Bool {
        var familyIDs: [String] = []
        if let accessToken, let record = accessRecord(for: accessToken) { familyIDs.append(record.familyID) }
        if let refreshToken, let token = OpaqueToken.parse(refreshToken, as: .refresh),
            let record = refreshRecords[token.selector], token.matches(storedVerifier: record.verifier)
        {
            familyIDs.append(record.familyID)
        }
        let live = familyIDs.filter { families[$0].map { !$0.revoked } ?? false }
        for familyID in familyIDs { revokeFamily(familyID) }
        return !live.isEmpty
    }

    /// Makes every access token of `userID` expire now (admin). Refresh tokens keep working.
    /// - Returns: how many live access tokens were expired.
    mutating func expireAccessTokens(userID: String, now: Date) -> Int {
        var count = 0
        for (selector, record) in accessRecords.rows where record.userID == userID && record.expiresAt > now {
            accessRecords[selector]?.expiresAt = now
            count += 1
        }
        return count
    }

    /// Revokes every refresh token of `userID` (admin): the next refresh answers E06.
    /// Access tokens stay valid until they expire.
    /// - Returns: how many active refresh tokens were revoked.
    mutating func revokeRefreshTokens(userID: String) -> Int {
        var count = 0
        for (selector, record) in refreshRecords.rows where record.userID == userID && record.state == .active {
            refreshRecords[selector]?.state = .revoked
            count += 1
        }
        return count
    }

    /// Drops records that expired more than ``retentionAfterExpiry`` ago, and empty families.
    mutating func prune(now: Date) {
        let cutoff = now.addingTimeInterval(-Self.retentionAfterExpiry)
        for (selector, record) in accessRecords.rows where record.expiresAt <= cutoff { accessRecords[selector] = nil }
        for (selector, record) in refreshRecords.rows where record.expiresAt <= cutoff {
            refreshRecords[selector] = nil
        }
        let used = Set(accessRecords.rows.values.map(\.familyID)).union(refreshRecords.rows.values.map(\.familyID))
        for familyID in families.rows.keys where !used.contains(familyID) { families[familyID] = nil }
        lastPrune = now
    }

    /// What changed since the last call, forgetting it.
    mutating func takeChanges() -> Changes {
        Changes(
            accessRecords: accessRecords.takeChanges(), refreshRecords: refreshRecords.takeChanges(),
            families: families.takeChanges())
    }

    /// Puts back what `changes` replaced.
    mutating func revert(_ changes: Changes) {
        accessRecords.revert(changes.accessRecords)
        refreshRecords.revert(changes.refreshRecords)
        families.revert(changes.families)
    }

    /// Puts back everything changed since the last ``takeChanges()``.
    mutating func discardChanges() {
        accessRecords.discardChanges()
        refreshRecords.discardChanges()
        families.discardChanges()
    }

    private mutating func pruneIfDue(now: Date) {
        if let lastPrune, now.timeIntervalSince(lastPrune) < 60, now >= lastPrune { return }
        prune(now: now)
    }

    private func accessRecord(for presented: String) -> AccessRecord? {
        guard let token = OpaqueToken.parse(presented, as: .access), let record = accessRecords[token.selector],
            token.matches(storedVerifier: record.verifier)
        else { return nil }
        return record
    }

    private mutating func revokeFamily(_ familyID: String) {
        families[familyID]?.revoked = true
        for (selector, record) in refreshRecords.rows where record.familyID == familyID {
            refreshRecords[selector]?.state = .revoked
        }
    }

    private mutating func issue(familyID: String, userID: String, now: Date, lifetimes: Lifetimes) -> IssuedPair {
        let accessToken = OpaqueToken.issue(.access)
        let refreshToken = OpaqueToken.issue(.refresh)
        let accessExpiry = now.addingTimeInterval(lifetimes.access)
        let refreshExpiry = now.addingTimeInterval(lifetimes.refresh)
        accessRecords[accessToken.token.selector] = AccessRecord(
            verifier: accessToken.token.verifier, familyID: familyID, userID: userID, expiresAt: accessExpiry)
        refreshRecords[refreshToken.token.selector] = RefreshRecord(
            verifier: refreshToken.token.verifier, familyID: familyID, userID: userID, expiresAt: refreshExpiry,
            state: .active)
        return IssuedPair(
            accessToken: accessToken.text, refreshToken: refreshToken.text,
            accessTokenExpiresAt: accessExpiry, refreshTokenExpiresAt: refreshExpiry, userID: userID)
    }
}
