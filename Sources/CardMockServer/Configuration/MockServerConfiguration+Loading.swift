import CardModels
public import Foundation

extension MockServerConfiguration {
    /// The cards file as `Config/demo-cards.json` holds it: `{"cards": [SeedCard]}`.
    public struct CardsFile: Codable, Sendable, Equatable {
        /// The seed cards.
        public var cards: [SeedCard]

        /// Creates a cards file.
        public init(cards: [SeedCard]) { self.cards = cards }
    }

    /// Reads a `mock-server.json`-style file alone (no command line, no environment).
    ///
    /// Absent keys take their built-in defaults. `"cardsFile"` is resolved against the folder
    /// of `url`; without it the built-in demo cards are used. The result is not validated yet:
    /// call ``validate()``.
    /// - Throws: ``MockServerError`` naming the file and the problem.
    public static func load(from url: URL) throws(MockServerError) -> MockServerConfiguration {
        try resolve(MockServerSettingsSources(configFile: url.path)).configuration
    }

    /// Reads a `demo-cards.json`-style file.
    /// - Throws: ``MockServerError`` naming the file and the problem.
    public static func loadCards(from url: URL) throws(MockServerError) -> [SeedCard] {
        let data = try readFile(url)
        do {
            return try CardWalletJSON.decoder().decode(CardsFile.self, from: data).cards
        } catch {
            throw .configurationFile(path: url.path, reason: Self.describe(error))
        }
    }

    static func readFile(_ url: URL) throws(MockServerError) -> Data {
        do {
            return try Data(contentsOf: url)
        } catch {
            let reason =
                FileManager.default.fileExists(atPath: url.path) ? "it cannot be read" : "there is no such file"
            throw .configurationFile(path: url.path, reason: reason)
        }
    }

    /// A short account of a decoding error: the key path and what was wrong.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "it is not valid JSON" }
        func path(_ keys: [any CodingKey]) -> String {
            keys.isEmpty
                ? "the top level"
                : "“" + keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }.joined(separator: ".") + "”"
        }
        switch error {
        case .keyNotFound(let key, let context):
            return "\(path(context.codingPath + [key])) is missing"
        case .typeMismatch(let type, let context):
            return "\(path(context.codingPath)) should be \(Self.typeName(type))"
        case .valueNotFound(let type, let context):
            return "\(path(context.codingPath)) should be \(Self.typeName(type)), not null"
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty { return "it is not valid JSON" }
            return "\(path(context.codingPath)): \(context.debugDescription)"
        @unknown default:
            return "it does not match the expected format"
        }
    }

    static func typeName(_ type: Any.Type) -> String {
        switch type {
        case is String.Type: "a string"
        case is Int.Type, is Double.Type: "a number"
        case is Bool.Type: "true or false"
        case is [String].Type: "a list of strings"
        default: type is any Collection.Type ? "a list" : "an object"
        }
    }
}

extension MockServerConfiguration {
    /// Checks every value and the seed data.
    /// - Throws: ``MockServerError/invalidConfiguration(_:)`` listing every problem at once.
    public func validate() throws(MockServerError) {
        let problems = problems()
        if !problems.isEmpty { throw .invalidConfiguration(problems) }
    }

    /// Every problem with this configuration, each naming its key; empty when it is valid.
    public func problems() -> [String] {
        var problems: [String] = []
        if host.trimmingCharacters(in: .whitespaces).isEmpty { problems.append("host: must not be empty") }
        if !(0...65535).contains(port) { problems.append("port: must be from 0 to 65535 (0 picks a free port)") }
        if accessTokenTTL < .seconds(1) { problems.append("accessTokenTTL: must be at least 1s") }
        if refreshTokenTTL < .seconds(1) { problems.append("refreshTokenTTL: must be at least 1s") }
        if latency > .minutes(1) { problems.append("latency: must be at most 1m") }
        if !failRate.isFinite || !(0...1).contains(failRate) {
            problems.append("failRate: must be a share from 0 to 1, e.g. 0.1 for one request in ten")
        }
        if !(4...31).contains(passwordHashCost) { problems.append("passwordHashCost: must be from 4 to 31") }
        if let dataFile, dataFile.trimmingCharacters(in: .whitespaces).isEmpty {
            problems.append("dataFile: must be a path, or null to keep data in memory")
        }
        if limits.maxImageBytes < 1 { problems.append("limits.maxImageBytes: must be at least 1") }
        if limits.maxJSONBytes < 1024 { problems.append("limits.maxJSONBytes: must be at least 1024") }
        if limits.failedLoginsPerMinute < 0 { problems.append("limits.failedLoginsPerMinute: must be 0 (off) or more") }
        if limits.refreshesPerMinute < 0 { problems.append("limits.refreshesPerMinute: must be 0 (off) or more") }
        problems += userProblems()
        problems += cardProblems()
        return problems
    }

    private func userProblems() -> [String] {
        var problems: [String] = []
        var ids = Set<String>()
        var emails = Set<String>()
        for (index, user) in users.enumerated() {
            let key = "users[\(index)]"
            if !CardIdentifier.isWellFormed(user.id) {
                problems.append("\(key).id: must be 1–64 letters, digits, - or _")
            }
            if !ids.insert(user.id).inserted { problems.append("\(key).id: “\(user.id)” is used twice") }
            if !CardFormat.isEmail(user.email) { problems.append("\(key).email: is not an email address") }
            if !emails.insert(user.email.lowercased()).inserted {
                problems.append("\(key).email: “\(user.email)” is used twice")
            }
            if user.name.trimmingCharacters(in: .whitespaces).isEmpty {
                problems.append("\(key).name: must not be empty")
            }
            switch (user.password, user.passwordHash) {
            case (nil, nil), (.some, .some):
                problems.append("\(key): give exactly one of password and passwordHash")
            case (let password?, nil):
                if let problem = PasswordHasher.problem(with: password) {
                    problems.append("\(key).password: \(problem)")
                }
            case (nil, let hash?):
                if !PasswordHasher.isBcryptHash(hash) {
                    problems.append("\(key).passwordHash: is not a bcrypt hash ($2b$…)")
                }
            }
        }
        return problems
    }

    private func cardProblems() -> [String] {
        var problems: [String] = []
        let owners = Set(users.map { $0.email.lowercased() })
        var ids = Set<String>()
        for (index, card) in seedCards.enumerated() {
            let key = "cards[\(index)]"
            if !CardIdentifier.isWellFormed(card.id) {
                problems.append("\(key).id: must be 1–64 letters, digits, - or _")
            }
            if !ids.insert(card.id).inserted { problems.append("\(key).id: “\(card.id)” is used twice") }
            if !owners.contains(card.owner.lowercased()) {
                problems.append("\(key).owner: “\(card.owner)” is not a user")
            }
            for (field, problem) in card.fields.normalized().validate().sorted(by: { $0.key < $1.key }) {
                problems.append("\(key).\(field): \(problem)")
            }
            if let image = card.image {
                guard let format = CardImageFormat(sniffing: image.data) else {
                    problems.append("\(key).image: is not a PNG or JPEG image")
                    continue
                }
                if format.contentType != image.contentType.lowercased() {
                    problems.append("\(key).image.contentType: the image is \(format.contentType)")
                }
                if image.data.count > limits.maxImageBytes {
                    problems.append("\(key).image: is larger than limits.maxImageBytes")
                }
            }
        }
        return problems
    }
}
