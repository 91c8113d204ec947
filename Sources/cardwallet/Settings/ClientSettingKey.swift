/// One key of the client's settings: its name in `config.json` (dotted for nested objects),
/// its environment variable, its type and what it means.
///
/// The keys are the same in every layer: `timeouts.connect` is `{"timeouts": {"connect": …}}`
/// in a config file and `CARDWALLET_TIMEOUTS_CONNECT` in the environment (swift-configuration's
/// `EnvironmentVariablesProvider` naming, behind the `cardwallet` prefix).
enum ClientSettingKey: String, CaseIterable, Sendable, Hashable, Comparable {
    case server
    case account
    case book
    case passwordCommand
    case tokenFile
    case connectTimeout = "timeouts.connect"
    case requestTimeout = "timeouts.request"
    case authTimeout = "timeouts.auth"
    case refreshMargin = "session.refreshMargin"
    case logLevel = "log.level"
    case logFile = "log.file"
    case logMaxBytes = "log.maxBytes"
    case logBodyPreviewBytes = "log.bodyPreviewBytes"
    case pageSize = "ui.pageSize"
    case images = "ui.images"
    case allowInsecureHTTP
    case syncInterval
    case oauthIssuer = "oauth.issuer"
    case oauthClientID = "oauth.clientId"
    case oauthClientSecret = "oauth.clientSecret"
    case oauthScope = "oauth.scope"
    case oauthRedirectTimeout = "oauth.redirectTimeout"

    /// The kinds of value a key holds.
    enum Kind: Sendable {
        /// Free text (a URL, a path).
        case text
        /// A duration as text: a number and a unit (`ms`, `s`, `m`, `h`), e.g. `10s` or `1m30s`.
        case duration
        /// A whole number.
        case integer
        /// `true` or `false`.
        case boolean
        /// A swift-log level name.
        case logLevel
    }

    /// The dotted key, e.g. `timeouts.connect`.
    var key: String { rawValue }

    /// The environment variable that sets this key, e.g. `CARDWALLET_TIMEOUTS_CONNECT`.
    var environmentVariable: String {
        var name = "CARDWALLET"
        for component in rawValue.split(separator: ".") {
            name += "_"
            var previous: Character?
            for character in component {
                if let previous, previous.isLowercase, character.isUppercase { name += "_" }
                name += character.uppercased()
                previous = character
            }
        }
        return name
    }

    /// What the value is.
    var kind: Kind {
        switch self {
        case .server, .account, .book, .passwordCommand, .tokenFile, .images: .text
        case .oauthIssuer, .oauthClientID, .oauthClientSecret, .oauthScope: .text
        case .connectTimeout, .requestTimeout, .authTimeout, .refreshMargin, .oauthRedirectTimeout: .duration
        case .logLevel: .logLevel
        case .logFile, .allowInsecureHTTP: .boolean
        case .logMaxBytes, .logBodyPreviewBytes, .pageSize, .syncInterval: .integer
        }
    }

    /// The key's path in a config file, e.g. `["timeouts", "connect"]`.
    var components: [String] { rawValue.split(separator: ".").map(String.init) }

    static func < (lhs: ClientSettingKey, rhs: ClientSettingKey) -> Bool { lhs.rawValue < rhs.rawValue }
}
