import CardModels
import Foundation

/// Everything the mock server needs to start: where to listen, token lifetimes, limits, fault
/// injection, persistence and the seed data (users and their cards).
///
/// `Config/mock-server.json` and `Config/demo-cards.json` hold the defaults; ``default`` is the
/// same configuration compiled in, so the server runs anywhere (see `Config/README.md` for
/// every key). Use ``load(from:)`` to read a file and ``validate()`` before starting.
public struct MockServerConfiguration: Codable, Sendable, Equatable {
    /// The address to bind, e.g. `127.0.0.1`.
    public var host: String
    /// The TCP port; `0` picks a free one.
    public var port: Int
    /// How long an access token lives (default 5 minutes).
    public var accessTokenTTL: TimeSpan
    /// How long a refresh token lives (default 1 day); every refresh starts a new one.
    public var refreshTokenTTL: TimeSpan
    /// Delay added to every response (fault injection; default none).
    public var latency: TimeSpan
    /// The share (0–1) of card requests answered with 503 (fault injection; default 0).
    public var failRate: Double
    /// Whether the `/_admin/*` endpoints exist (default false).
    public var admin: Bool
    /// A JSON file the data is kept in across restarts; `nil` keeps it in memory only.
    public var dataFile: String?
    /// The bcrypt cost (4–31) used to hash seed passwords; 10 by default. Tests use 4.
    public var passwordHashCost: Int
    /// Size and rate limits.
    public var limits: Limits
    /// The users the server starts with (ignored when ``dataFile`` already holds data).
    public var users: [SeedUser]
    /// The cards the server starts with, each owned by one of ``users``.
    public var seedCards: [SeedCard]

    /// Creates a configuration; every parameter defaults to the value in ``default``.
    public init(
        host: String = "127.0.0.1", port: Int = 8080,
        accessTokenTTL: TimeSpan = .minutes(5), refreshTokenTTL: TimeSpan = .days(1),
        latency: TimeSpan = .zero, failRate: Double = 0, admin: Bool = false, dataFile: String? = nil,
        passwordHashCost: Int = 10, limits: Limits = Limits(),
        users: [SeedUser] = MockServerConfiguration.demoUsers,
        seedCards: [SeedCard] = MockServerConfiguration.demoCards
    ) {
        self.host = host
        self.port = port
        self.accessTokenTTL = accessTokenTTL
        self.refreshTokenTTL = refreshTokenTTL
        self.latency = latency
        self.failRate = failRate
        self.admin = admin
        self.dataFile = dataFile
        self.passwordHashCost = passwordHashCost
        self.limits = limits
        self.users = users
        self.seedCards = seedCards
    }

    /// The built-in configuration: equal to `Config/mock-server.json` with `Config/demo-cards.json`.
    public static let `default` = MockServerConfiguration()

    /// A configuration for tests: port 0, admin endpoints on, the cheapest password hashing,
    /// and the built-in demo users and cards.
    public static var testing: MockServerConfiguration {
        MockServerConfiguration(port: 0, admin: true, passwordHashCost: 4)
    }

    /// Size and rate limits. A rate limit of `0` turns that limit off.
    public struct Limits: Codable, Sendable, Equatable {
        /// The largest image `POST /card` accepts, in bytes (default 2 MiB).
        public var maxImageBytes: Int
        /// The largest JSON request body, in bytes (default 64 KiB). A card body may be larger
        /// by ``keptPropertiesAllowance`` (see ``maxCardJSONBytes`` and ``maxMultipartBytes``).
        public var maxJSONBytes: Int
        /// Failed logins allowed per client address and account in any minute (default 10).
        public var failedLoginsPerMinute: Int
        /// Refresh requests allowed per client address in any minute (default 120).
        public var refreshesPerMinute: Int

        /// Creates limits; every parameter defaults to the documented default.
        public init(
            maxImageBytes: Int = CardLimits.imageMaxBytes, maxJSONBytes: Int = 64 * 1024,
            failedLoginsPerMinute: Int = 10, refreshesPerMinute: Int = 120
        ) {
            self.maxImageBytes = maxImageBytes
            self.maxJSONBytes = maxJSONBytes
            self.failedLoginsPerMinute = failedLoginsPerMinute
            self.refreshesPerMinute = refreshesPerMinute
        }

        /// Room a card body gets on top of ``maxJSONBytes`` for its kept vCard lines
        /// (``CardModels/CardFields/vcardProperties``): every line at its longest, at four bytes
        /// a character, plus 256 bytes of JSON punctuation or part headers per line. Without it a
        /// card that passes validation (200 lines of 2,000 characters) could not be sent at all.
        public static let keptPropertiesAllowance =
            CardLimits.vcardPropertiesMaxCount * (CardLimits.vcardPropertyMaxLength * 4 + 256)

        /// The largest JSON body `PUT /card/{cardId}` reads before answering E08:
        /// ``maxJSONBytes`` plus ``keptPropertiesAllowance``.
        public var maxCardJSONBytes: Int { maxJSONBytes + Self.keptPropertiesAllowance }

        /// The largest multipart body `POST /card` reads before answering E08:
        /// ``maxImageBytes`` plus ``maxCardJSONBytes``.
        public var maxMultipartBytes: Int { maxImageBytes + maxCardJSONBytes }

        enum CodingKeys: String, CodingKey {
            case maxImageBytes, maxJSONBytes, failedLoginsPerMinute, refreshesPerMinute
        }

        /// Decodes limits; absent keys take their defaults.
        public init(from decoder: any Decoder) throws {
            let c = try decoder.container(keyedBy: CodingKeys.self)
            let base = Limits()
            maxImageBytes = try c.decodeIfPresent(Int.self, forKey: .maxImageBytes) ?? base.maxImageBytes
            maxJSONBytes = try c.decodeIfPresent(Int.self, forKey: .maxJSONBytes) ?? base.maxJSONBytes
            failedLoginsPerMinute =
                try c.decodeIfPresent(Int.self, forKey: .failedLoginsPerMinute) ?? base.failedLoginsPerMinute
            refreshesPerMinute = try c.decodeIfPresent(Int.self, forKey: .refreshesPerMinute) ?? base.refreshesPerMinute
        }
    }

    /// A user the server starts with.
    ///
    /// Give either `password` (plain text, hashed with bcrypt at start-up; for public demo
    /// accounts) or `passwordHash` (a bcrypt hash, `$2b$…`). Only hashes are kept in memory
    /// and in the data file.
    public struct SeedUser: Codable, Sendable, Equatable {
        /// A stable, URL-safe user id.
        public var id: String
        /// The login email (compared case-insensitively).
        public var email: String
        /// The display name.
        public var name: String
        /// The password in plain text, for demo accounts whose password is public anyway.
        public var password: String?
        /// A bcrypt hash of the password.
        public var passwordHash: String?

        /// Creates a seed user.
        public init(id: String, email: String, name: String, password: String? = nil, passwordHash: String? = nil) {
            self.id = id
            self.email = email
            self.name = name
            self.password = password
            self.passwordHash = passwordHash
        }
    }

    enum CodingKeys: String, CodingKey {
        case host, port, accessTokenTTL, refreshTokenTTL, latency, failRate, admin, dataFile
        case passwordHashCost, limits, users
    }

    /// Decodes the keys of `mock-server.json`; absent keys take their defaults and the seed
    /// cards are left empty (they come from the cards file, see ``load(from:)``).
    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let base = MockServerConfiguration()
        host = try c.decodeIfPresent(String.self, forKey: .host) ?? base.host
        port = try c.decodeIfPresent(Int.self, forKey: .port) ?? base.port
        accessTokenTTL = try c.decodeIfPresent(TimeSpan.self, forKey: .accessTokenTTL) ?? base.accessTokenTTL
        refreshTokenTTL = try c.decodeIfPresent(TimeSpan.self, forKey: .refreshTokenTTL) ?? base.refreshTokenTTL
        latency = try c.decodeIfPresent(TimeSpan.self, forKey: .latency) ?? base.latency
        failRate = try c.decodeIfPresent(Double.self, forKey: .failRate) ?? base.failRate
        admin = try c.decodeIfPresent(Bool.self, forKey: .admin) ?? base.admin
        dataFile = try c.decodeIfPresent(String.self, forKey: .dataFile)
        passwordHashCost = try c.decodeIfPresent(Int.self, forKey: .passwordHashCost) ?? base.passwordHashCost
        limits = try c.decodeIfPresent(Limits.self, forKey: .limits) ?? base.limits
        users = try c.decodeIfPresent([SeedUser].self, forKey: .users) ?? base.users
        seedCards = []
    }

    /// Encodes the keys of `mock-server.json` (not the seed cards).
    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(host, forKey: .host)
        try c.encode(port, forKey: .port)
        try c.encode(accessTokenTTL, forKey: .accessTokenTTL)
        try c.encode(refreshTokenTTL, forKey: .refreshTokenTTL)
        try c.encode(latency, forKey: .latency)
        try c.encode(failRate, forKey: .failRate)
        try c.encode(admin, forKey: .admin)
        try c.encodeIfPresent(dataFile, forKey: .dataFile)
        try c.encode(passwordHashCost, forKey: .passwordHashCost)
        try c.encode(limits, forKey: .limits)
        try c.encode(users, forKey: .users)
    }
}
