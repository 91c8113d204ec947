import CardModels
import CardWalletUI

/// Why the client's settings cannot be used. Every description names the key, where the value
/// came from and what is accepted, so the user can fix it.
enum ClientSettingsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A value has the wrong type or is out of range.
    case invalidValue(key: ClientSettingKey, origin: SettingOrigin, problem: String)
    /// The config file named by `--config` or `CARDWALLET_CONFIG` does not exist.
    case configFileMissing(path: String, origin: SettingOrigin)
    /// The config file cannot be read or is not a JSON object of settings.
    case configFileUnreadable(path: String, problem: String)

    var description: String {
        switch self {
        case .invalidValue(let key, let origin, let problem):
            let source: String
            switch origin {
            case .flag(let name): source = name
            case .environment(let name): source = "\(key.key) (from \(name))"
            case .file(let path): source = "\(key.key) in \(TerminalText.escaped(path))"
            case .defaults: source = key.key
            }
            return "The setting \(source) \(problem)."
        case .configFileMissing(let path, let origin):
            return "The config file \(TerminalText.escaped(path)) (from \(origin)) does not exist. "
                + "Create it, or give another path."
        case .configFileUnreadable(let path, let problem):
            return "The config file \(TerminalText.escaped(path)) cannot be used: \(TerminalText.escaped(problem)). "
                + "It must be a JSON object; see `cardwallet help` or Config/README.md for the keys."
        }
    }
}
