public import CardModels
import Foundation

/// Everything the mock server needs to start: where to listen, token lifetimes, limits, fault
/// injection, persistence and the seed data (users and their cards).
///
/// Every default is defined once, here, as the default of an initializer parameter: ``default``
/// is this configuration; `Config/mock-server.json` and `Config/demo-cards.json` hold the same
/// values (tests compare them), and `--help` and `Config/README.md` show them (see
/// ``MockServerSettingKey``). Use ``resolve(_:)`` to read the command line, the environment and
/// a config file, ``load(from:)`` for a file alone, and ``validate()`` before starting.
public struct MockServerConfiguration: Sendable, Equatable {
    /// The address to bind, e.g. `127.0.0.1`.
    public var host: String
    /// The TCP port; `0` picks a free one.
    public var port: Int
    /// How long an access token lives.
    public var accessTokenTTL: TimeSpan
    /// How long a refresh token lives; every refresh starts a new one.
    public var refreshTokenTTL: TimeSpan
    /// Delay added to every response (fault injection).
    public var latency: TimeSpan
    /// The share (0–1) of card requests answered with 503 (fault injection).
    public var failRate: Double
    /// Whether the `/_admin/*` endpoints exist.
    public var admin: Bool
    /// The SQLite database the data is kept in across restarts (`--data`); `nil` keeps it in
    /// memory only. A JSON data file of an earlier version found there is migrated once.
    public var dataFile: String?
    /// The bcrypt cost (4–31) used to hash seed passwords. Tests use 4.
    public var passwordHashCost: Int
    /// Size and rate limits.
    public var limits: Limits
    /// The users the server starts with (ignored when ``dataFile`` already holds data).
    public var users: [SeedUser]
    /// The cards the server starts with, each owned by one of ``users``.
    public var seedCards: [SeedCard]

    /// Creates a configuration. The parameters' defaults are the server's defaults: the one
    /// place each is defined.
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
    public struct Limits: Sendable, Equatable {
        /// The largest image `POST /card` accepts, in bytes.
        public var maxImageBytes: Int
        /// The largest JSON request body, in bytes. A card body may be larger
        /// by ``keptPropertiesAllowance`` (see ``maxCardJSONBytes`` and ``maxMultipartBytes``).
        public var maxJSONBytes: Int
        /// Failed logins allowed per client address and account in any minute.
        public var failedLoginsPerMinute: Int
        /// Refresh requests allowed per client address in any minute.
        public var refreshesPerMinute: Int

        /// Creates limits; the parameters' defaults are the server's.
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
        /// (``CardModels/CardFields/vcardProperties``): all of them at their longest in total, at
        /// four bytes a character, plus 256 bytes of JSON punctuation or part headers per line.
        /// Without it a card that passes validation (200 lines, 400,000 characters) could not be
        /// sent at all.
        public static let keptPropertiesAllowance =
            CardLimits.vcardPropertiesMaxTotalLength * 4 + CardLimits.vcardPropertiesMaxCount * 256

        /// The largest JSON body `PUT /card/{cardId}` reads before answering E08:
        /// ``maxJSONBytes`` plus ``keptPropertiesAllowance``.
        public var maxCardJSONBytes: Int { maxJSONBytes + Self.keptPropertiesAllowance }

        /// The largest multipart body `POST /card` reads before answering E08:
        /// ``maxImageBytes`` plus ``maxCardJSONBytes``.
        public var maxMultipartBytes: Int { maxImageBytes + maxCardJSONBytes }
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
}
