import CardModels
import Foundation
import Logging

/// The server's data and its rules, in one actor: users, cards, tokens and rate limits.
///
/// The persisted part (``DataSnapshot``) is kept in memory, where every read is answered from,
/// and changes only through ``mutate(_:)``, which — with `--data` — writes the rows the change
/// touched to the database before it returns, so an answered request is always in the file
/// and a failed write changes nothing. Without `--data` there is no database at all.
actor ServerState {
    let configuration: MockServerConfiguration
    let clock: any WallClock
    let logger: Logger
    private let store: (any DataStore)?
    private(set) var snapshot: DataSnapshot
    private var usersByEmail: [String: String] = [:]
    private var failedLogins: LoginThrottle<String>
    /// Login attempts waiting for others with the same key to finish (see ``LoginThrottle``).
    private var loginWaiters: [String: [CheckedContinuation<Void, Never>]] = [:]
    private var refreshes: SlidingWindowLimiter<String>
    /// The first answers to `POST /card` by `Idempotency-Key`, per account, for 24 hours.
    var idempotency = IdempotencyBook()
    /// A hash checked when the email is unknown, so both cases take the same time.
    private let decoyHash: String

    var lifetimes: TokenBook.Lifetimes {
        TokenBook.Lifetimes(
            access: configuration.accessTokenTTL.timeInterval, refresh: configuration.refreshTokenTTL.timeInterval)
    }

    private init(
        configuration: MockServerConfiguration, clock: any WallClock, logger: Logger, store: (any DataStore)?,
        snapshot: DataSnapshot, decoyHash: String
    ) {
        self.configuration = configuration
        self.clock = clock
        self.logger = logger
        self.store = store
        self.snapshot = snapshot
        self.decoyHash = decoyHash
        failedLogins = LoginThrottle(limit: configuration.limits.failedLoginsPerMinute)
        refreshes = SlidingWindowLimiter(limit: configuration.limits.refreshesPerMinute)
        usersByEmail = Self.emailIndex(snapshot.users)
    }

    /// Opens the data file when there is one (creating it from the seed data, or migrating a
    /// JSON data file, as needed), else seeds from the configuration.
    static func make(
        configuration: MockServerConfiguration, clock: any WallClock, logger: Logger,
        dataFileFormat: DataFileFormat = .sqlite
    ) async throws(MockServerError) -> ServerState {
        try configuration.validate()
        // Hashed on the thread pool while the data file is read or the seed users are hashed.
        async let decoy = PasswordHasher.hash(
            OpaqueToken.base64URL(OpaqueToken.randomBytes(16)), cost: configuration.passwordHashCost)
        let now = clock.now
        let store: (any DataStore)?
        let snapshot: DataSnapshot
        if let path = configuration.dataFile {
            let opened = try await DataFileOpening.open(path: path, format: dataFileFormat, logger: logger) {
                await seed(configuration, now: now)
            }
            (store, snapshot) = (opened.store, opened.snapshot)
        } else {
            (store, snapshot) = (nil, await seed(configuration, now: now))
        }
        let decoyHash = await decoy
        return ServerState(
            configuration: configuration, clock: clock, logger: logger, store: store, snapshot: snapshot,
            decoyHash: decoyHash)
    }

    private static func seed(_ configuration: MockServerConfiguration, now: Date) async -> DataSnapshot {
        // bcrypt is slow on purpose: hash the seed passwords side by side on the thread pool.
        let hashes = await withTaskGroup(of: (Int, String).self) { group in
            for (position, seed) in configuration.users.enumerated() {
                guard seed.passwordHash == nil else { continue }
                let cost = configuration.passwordHashCost
                group.addTask { (position, await PasswordHasher.hash(seed.password ?? "", cost: cost)) }
            }
            var hashes: [Int: String] = [:]
            for await (position, hash) in group { hashes[position] = hash }
            return hashes
        }
        let users = configuration.users.enumerated().map { position, seed in
            UserRecord(
                id: seed.id, email: seed.email, name: seed.name,
                passwordHash: seed.passwordHash ?? hashes[position] ?? "")
        }
        let index = emailIndex(users)
        var cards = CardBook()
        for seed in configuration.seedCards {
            guard let ownerID = index[UserRecord.emailKey(seed.owner)] else { continue }
            let info = seed.image.map { CardImageInfo(contentType: $0.contentType, size: $0.data.count) }
            let card = APICard(
                id: seed.id, fields: seed.fields.normalized(), hasImage: info != nil, image: info,
                createdAt: now, updatedAt: now, version: 1)
            cards.insert(StoredCard(ownerID: ownerID, card: card, image: seed.image))
        }
        var snapshot = DataSnapshot(users: users, cards: cards, tokens: TokenBook())
        // The seed data is where changes start from, not a change itself.
        _ = snapshot.takeChanges()
        return snapshot
    }

    private static func emailIndex(_ users: [UserRecord]) -> [String: String] {
        var index: [String: String] = [:]
        for user in users { index[UserRecord.emailKey(user.email)] = user.id }
        return index
    }

    /// Applies a change to the persisted data; with `--data`, writes the rows it touched
    /// before returning. When that write fails, the change is undone and the caller gets E99.
    func mutate<T>(_ change: (inout DataSnapshot) throws(APIError) -> T) throws(APIError) -> T {
        let result: T
        do {
            result = try change(&snapshot)
        } catch {
            snapshot.discardChanges()
            throw error
        }
        let changes = snapshot.takeChanges()
        guard let store, !changes.isEmpty else { return result }
        do {
            try store.write(changes, in: snapshot)
        } catch {
            snapshot.revert(changes)
            logger.error("Saving to the data file failed", metadata: ["reason": "\(error)"])
            throw .internalError("The server could not save the change; nothing was changed.")
        }
        return result
    }

    /// Lets go of the data file; the server calls it once it has stopped.
    func closeStore() {
        store?.close()
    }

    // MARK: Users

    func userID(forEmail email: String) -> String? { usersByEmail[UserRecord.emailKey(email)] }

    func user(id: String) -> UserRecord? { snapshot.users.first { $0.id == id } }

    /// The password hash to check for `email`: the user's, or a decoy for unknown emails.
    func passwordHash(forEmail email: String) -> (userID: String?, hash: String) {
        guard let id = userID(forEmail: email), let user = user(id: id) else { return (nil, decoyHash) }
        return (id, user.passwordHash)
    }

    // MARK: Rate limits

    /// Waits until a login for this client and account may be checked. Returns the seconds to
    /// wait when recent failures reach the limit; else `nil`, and the attempt is in flight
    /// until ``finishLoginAttempt(client:email:succeeded:)``.
    func beginLoginAttempt(client: String, email: String) async -> Int? {
        let key = Self.loginKey(client: client, email: email)
        while true {
            switch failedLogins.begin(key, now: clock.now) {
            case .proceed: return nil
            case .refuse(let retryAfter): return retryAfter
            case .wait:
                // Actor reentrancy: the attempts in flight finish meanwhile and wake this one.
                await withCheckedContinuation { loginWaiters[key, default: []].append($0) }
            }
        }
    }

    /// Records the outcome of a login that ``beginLoginAttempt(client:email:)`` let through,
    /// and lets the attempts waiting behind it decide again.
    func finishLoginAttempt(client: String, email: String, succeeded: Bool) {
        let key = Self.loginKey(client: client, email: email)
        failedLogins.finish(key, succeeded: succeeded, now: clock.now)
        for waiter in loginWaiters.removeValue(forKey: key) ?? [] { waiter.resume() }
    }

    /// Counts a refresh attempt; seconds to wait when the client is over its limit, else nil.
    func refreshRetryAfter(client: String) -> Int? {
        refreshes.attempt(client, now: clock.now)
    }

    private static func loginKey(client: String, email: String) -> String {
        // Bounded, so that huge made-up emails cannot make huge keys.
        client + " " + String(UserRecord.emailKey(String(email.prefix(CardLimits.emailMaxLength))))
    }
}
