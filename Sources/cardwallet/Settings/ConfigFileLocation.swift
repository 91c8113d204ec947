/// Which config file the client reads, and whether it must exist.
///
/// `--config FILE`, else `CARDWALLET_CONFIG`, else `$XDG_CONFIG_HOME/cardwallet/config.json`
/// (when `XDG_CONFIG_HOME` is an absolute path), else `~/.config/cardwallet/config.json`. A file
/// named explicitly must exist; the default one is optional.
struct ConfigFileLocation: Sendable, Equatable {
    /// The environment variable naming a config file.
    static let environmentVariable = "CARDWALLET_CONFIG"

    /// The file's path.
    var path: String
    /// Who chose it.
    var origin: SettingOrigin
    /// Whether a missing file is an error (it is when named explicitly).
    var isRequired: Bool

    /// The config file for these overrides and this environment, or `nil` when there is no
    /// home folder to look in (then only flags, environment and defaults apply).
    static func resolve(flag: String?, environment: [String: String]) -> ConfigFileLocation? {
        if let flag, !flag.isEmpty {
            return ConfigFileLocation(path: flag, origin: .flag("--config"), isRequired: true)
        }
        if let path = environment[environmentVariable], !path.isEmpty {
            return ConfigFileLocation(path: path, origin: .environment(environmentVariable), isRequired: true)
        }
        if let base = environment["XDG_CONFIG_HOME"], base.hasPrefix("/") {
            return ConfigFileLocation(
                path: joined(base, "cardwallet/config.json"), origin: .defaults, isRequired: false)
        }
        if let home = environment["HOME"], home.hasPrefix("/") {
            return ConfigFileLocation(
                path: joined(home, ".config/cardwallet/config.json"), origin: .defaults, isRequired: false)
        }
        return nil
    }

    private static func joined(_ folder: String, _ name: String) -> String {
        folder.hasSuffix("/") ? folder + name : folder + "/" + name
    }
}
