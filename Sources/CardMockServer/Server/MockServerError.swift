import CardModels

/// Why the mock server could not start or load its data. The description says what to fix.
public struct MockServerError: Error, Sendable, Equatable, CustomStringConvertible {
    private enum Kind: Sendable, Equatable {
        case invalidConfiguration([String])
        case configurationFile(path: String, reason: String)
        case dataFile(path: String, reason: String)
        case setting(key: String, origin: String, problem: String)
        case bind(host: String, port: Int, reason: String)
    }

    private let kind: Kind

    /// The configuration has problems; each string names a key and what is wrong with it.
    public static func invalidConfiguration(_ problems: [String]) -> MockServerError {
        MockServerError(kind: .invalidConfiguration(problems))
    }

    /// A configuration file could not be read or decoded.
    public static func configurationFile(path: String, reason: String) -> MockServerError {
        MockServerError(kind: .configurationFile(path: path, reason: reason))
    }

    /// The `--data` file could not be read, decoded or written.
    public static func dataFile(path: String, reason: String) -> MockServerError {
        MockServerError(kind: .dataFile(path: path, reason: reason))
    }

    /// A setting has a value of the wrong type, e.g. `CARDWALLET_MOCK_PORT=eighty`.
    public static func invalidSetting(
        key: MockServerSettingKey, origin: MockServerSettingOrigin, problem: String
    ) -> MockServerError {
        let source: String
        switch origin {
        case .flag(let name): source = "The option \(name)"
        case .environment(let name): source = "The setting \(key.key) (from \(name))"
        case .file(let path): source = "The setting \(key.key) in \(TerminalText.escaped(path))"
        case .defaults: source = "The setting \(key.key)"
        }
        return MockServerError(kind: .setting(key: key.key, origin: source, problem: problem))
    }

    /// The server could not listen on the address.
    public static func bind(host: String, port: Int, reason: String) -> MockServerError {
        MockServerError(kind: .bind(host: host, port: port, reason: reason))
    }

    /// The same error naming `path` as the data file: for a failure on a temporary file
    /// beside it, which the user never named.
    func namingDataFile(_ path: String) -> MockServerError {
        guard case .dataFile(_, let reason) = kind else { return self }
        return .dataFile(path: path, reason: reason)
    }

    /// The problems listed by an invalid configuration, else empty.
    public var configurationProblems: [String] {
        if case .invalidConfiguration(let problems) = kind { return problems }
        return []
    }

    /// What went wrong and what to do about it.
    public var description: String {
        switch kind {
        case .invalidConfiguration(let problems):
            "The mock server configuration is invalid:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
        case .configurationFile(let path, let reason):
            "Cannot use the configuration file \(path): \(reason)"
        case .dataFile(let path, let reason):
            "Cannot use the data file \(path): \(reason)."
        case .setting(_, let source, let problem):
            "\(source) \(problem)."
        case .bind(let host, let port, let reason):
            "Cannot listen on \(host):\(port): \(reason). Choose another --port (0 picks a free one) or --host."
        }
    }
}
