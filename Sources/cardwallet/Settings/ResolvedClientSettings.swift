import CardWalletLive

/// Where a setting's value came from, for `status` and error messages.
enum SettingOrigin: Sendable, Hashable, CustomStringConvertible {
    /// A command-line option, e.g. `--server`.
    case flag(String)
    /// An environment variable.
    case environment(String)
    /// A config file.
    case file(String)
    /// The built-in defaults.
    case defaults

    /// `--server`, `CARDWALLET_SERVER`, `/home/u/.config/cardwallet/config.json`, `built-in default`.
    var description: String {
        switch self {
        case .flag(let name): name
        case .environment(let name): name
        case .file(let path): path
        case .defaults: "built-in default"
        }
    }
}

/// Settings with what the loader found out on the way.
struct ResolvedClientSettings: Sendable, Equatable {
    /// The values.
    var settings: ClientSettings
    /// Where each key's value came from.
    var origins: [ClientSettingKey: SettingOrigin]
    /// The config file that was read, if any.
    var configFile: String?
    /// Harmless problems worth telling the user, e.g. an unknown key in the config file.
    var warnings: [String]

    /// Where `key`'s value came from.
    func origin(of key: ClientSettingKey) -> SettingOrigin { origins[key] ?? .defaults }
}
