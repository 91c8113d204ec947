import CardModels
import Configuration
import Foundation

/// A `mock-server.json`-style file, read once: its settings as values for the `ConfigReader`,
/// its seed users and the cards file it names.
///
/// swift-configuration's own JSON file provider refuses a list of objects (the `users`), so the
/// file is parsed here and its settings handed to the reader in an `InMemoryProvider`.
struct MockServerConfigFile: Sendable {
    /// The file's path.
    var path: String
    /// The settings the file sets (`null` leaves a setting to the defaults).
    var values: [AbsoluteConfigKey: ConfigValue]
    /// The seed users, when the file lists them.
    var users: [MockServerConfiguration.SeedUser]?
    /// The seed cards file, relative to this file's folder.
    var cardsFile: String?
    /// Keys the server does not know, dotted.
    var unknownKeys: [String]

    /// The largest config file read.
    static let maximumBytes = 16 << 20

    private struct SeedData: Decodable {
        var users: [MockServerConfiguration.SeedUser]?
        var cardsFile: String?
    }

    /// Reads the file at `path`.
    /// - Throws: ``MockServerError/configurationFile(path:reason:)`` when it is missing, cannot be
    ///   read, is not a JSON object, or its users or cards file are malformed.
    static func read(path: String) throws(MockServerError) -> MockServerConfigFile {
        let data = try readData(path)
        let root: [String: JSONValue]
        do {
            guard case .object(let object) = try JSONDecoder().decode(JSONValue.self, from: data) else {
                throw MockServerError.configurationFile(path: path, reason: "its top level is not a JSON object")
            }
            root = object
        } catch let error as MockServerError {
            throw error
        } catch {
            throw .configurationFile(path: path, reason: "it is not valid JSON")
        }
        let limits: [String: JSONValue]
        switch root["limits"] {
        case .object(let object): limits = object
        case .null, nil: limits = [:]
        default: throw .configurationFile(path: path, reason: "“limits” should be an object")
        }
        let seeds: SeedData
        do {
            seeds = try CardWalletJSON.decoder().decode(SeedData.self, from: data)
        } catch {
            throw .configurationFile(path: path, reason: MockServerConfiguration.describe(error))
        }
        var values: [AbsoluteConfigKey: ConfigValue] = [:]
        for key in MockServerSettingKey.allCases {
            let components = key.components
            let found = components.count == 2 ? limits[components[1]] : root[components[0]]
            if let found, let content = content(found, for: key.kind) {
                values[AbsoluteConfigKey(components)] = ConfigValue(content, isSecret: false)
            }
        }
        return MockServerConfigFile(
            path: path, values: values, users: seeds.users, cardsFile: seeds.cardsFile,
            unknownKeys: unknownKeys(root: root, limits: limits))
    }

    private static func readData(_ path: String) throws(MockServerError) -> Data {
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw .configurationFile(path: path, reason: "there is no such file")
        }
        if isFolder.boolValue { throw .configurationFile(path: path, reason: "it is a folder") }
        let data: Data
        do {
            data = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw .configurationFile(path: path, reason: "it cannot be read")
        }
        guard data.count <= maximumBytes else {
            throw .configurationFile(path: path, reason: "it is larger than 16 MiB")
        }
        return data
    }

    /// The value as the reader should see it: of the key's type when it is one (a whole JSON
    /// number for an integer, any number for a share), else as it is, so that the reader
    /// reports the mismatch; `nil` for `null`.
    static func content(_ value: JSONValue, for kind: MockServerSettingKey.Kind) -> ConfigContent? {
        switch (value, kind) {
        case (.null, _): return nil
        case (.int(let number), .share): return .double(Double(number))
        case (.double(let number), .integer) where number == number.rounded() && abs(number) < 1e15:
            return .int(Int(number))
        case (.bool(let flag), _): return .bool(flag)
        case (.int(let number), _): return .int(number)
        case (.double(let number), _): return .double(number)
        case (.string(let text), _): return .string(text)
        case (.array, _), (.object, _): return .bytes([])
        }
    }

    private static func unknownKeys(root: [String: JSONValue], limits: [String: JSONValue]) -> [String] {
        let settings = MockServerSettingKey.allCases.map(\.components)
        let topLevel = Set(settings.filter { $0.count == 1 }.map { $0[0] }).union(["limits", "users", "cardsFile"])
        let limitKeys = Set(settings.filter { $0.count == 2 }.map { $0[1] })
        let unknown =
            root.keys.filter { !topLevel.contains($0) }
            + limits.keys.filter { !limitKeys.contains($0) }.map { "limits." + $0 }
        return unknown.sorted()
    }
}

/// Any JSON value, for reading a config file before knowing what each key should hold.
enum JSONValue: Decodable, Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let flag = try? container.decode(Bool.self) {
            self = .bool(flag)
        } else if let number = try? container.decode(Int.self) {
            self = .int(number)
        } else if let number = try? container.decode(Double.self) {
            self = .double(number)
        } else if let text = try? container.decode(String.self) {
            self = .string(text)
        } else if let array = try? container.decode([JSONValue].self) {
            self = .array(array)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}
