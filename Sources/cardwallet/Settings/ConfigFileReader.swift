import CardModels
import CardWalletUI
import Configuration
import Foundation

/// Opens the user's config file as a swift-configuration `FileProvider<JSONSnapshot>`, after
/// checking it: swift-configuration reads only the keys asked for, so it cannot say that a file
/// holds a misspelt key. That check is ours (a warning naming the key).
enum ConfigFileReader {
    /// The largest config file read (a settings file is a few hundred bytes).
    static let maximumBytes = 1 << 20

    /// The provider for the file at `location`, or `nil` when an optional file is missing.
    ///
    /// - Parameters:
    ///   - location: the file and whether it must exist.
    ///   - warnings: gets one line per unknown key.
    /// - Throws: ``ClientSettingsError`` for a missing required file, or a file that cannot be
    ///   read or is not a JSON object.
    static func provider(
        for location: ConfigFileLocation, warnings: inout [String]
    ) async throws(ClientSettingsError) -> (any ConfigProvider)? {
        let path = location.path
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            if location.isRequired { throw .configFileMissing(path: path, origin: location.origin) }
            return nil
        }
        guard !isFolder.boolValue else { throw .configFileUnreadable(path: path, problem: "it is a folder") }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .configFileUnreadable(path: path, problem: "it cannot be read (check its permissions)")
        }
        guard data.count <= maximumBytes else {
            throw .configFileUnreadable(path: path, problem: "it is larger than 1 MiB")
        }
        let parsed: Any
        do {
            parsed = try JSONSerialization.jsonObject(with: data)
        } catch {
            throw .configFileUnreadable(path: path, problem: "it is not valid JSON")
        }
        guard let object = parsed as? [String: Any] else {
            throw .configFileUnreadable(path: path, problem: "its top level is not a JSON object")
        }
        for key in unknownKeys(in: object) {
            warnings.append(
                "ignoring the unknown key \"\(TerminalText.escaped(key))\" in the config file \(TerminalText.escaped(path)) "
                    + "(known keys: \(ClientSettingKey.allCases.map(\.key).joined(separator: ", ")))")
        }
        do {
            // The ConfigReader-based initializer takes the path as text (no SystemPackage import).
            let options = ConfigReader(
                provider: InMemoryProvider(values: ["filePath": ConfigValue(.string(path), isSecret: false)]))
            return try await FileProvider<JSONSnapshot>(config: options)
        } catch {
            // Arrays of mixed types, say.
            throw .configFileUnreadable(path: path, problem: "a value is of an unsupported kind")
        }
    }

    /// The dotted paths in `object` that are not settings, sorted.
    static func unknownKeys(in object: [String: Any], prefix: String = "") -> [String] {
        let known = Set(ClientSettingKey.allCases.map(\.key))
        var unknown: [String] = []
        for (name, value) in object {
            let key = prefix.isEmpty ? name : prefix + "." + name
            if known.contains(key) { continue }
            if let nested = value as? [String: Any], known.contains(where: { $0.hasPrefix(key + ".") }) {
                unknown += unknownKeys(in: nested, prefix: key)
            } else {
                unknown.append(key)
            }
        }
        return unknown.sorted()
    }
}
