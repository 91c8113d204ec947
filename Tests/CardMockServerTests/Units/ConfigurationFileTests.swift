import CardModels
import Foundation
import Testing

@testable import CardMockServer

/// The JSON files in `Config/` and the compiled-in defaults must never drift apart.
@Suite struct ConfigurationFileTests {
    static let configFolder = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Config")

    @Test func repositoryFilesEqualTheCompiledInDefaults() throws {
        let loaded = try MockServerConfiguration.load(
            from: Self.configFolder.appendingPathComponent("mock-server.json"))
        #expect(loaded.users == MockServerConfiguration.default.users)
        #expect(loaded.seedCards == MockServerConfiguration.default.seedCards)
        #expect(loaded == MockServerConfiguration.default)
    }

    @Test func demoCardsFileEqualsTheCompiledInCards() throws {
        let cards = try MockServerConfiguration.loadCards(
            from: Self.configFolder.appendingPathComponent("demo-cards.json"))
        #expect(cards == MockServerConfiguration.demoCards)
    }

    @Test func defaultsAreValidAndMatchTheContract() throws {
        let configuration = MockServerConfiguration.default
        try configuration.validate()
        #expect(configuration.port == 8080)
        #expect(configuration.accessTokenTTL == .minutes(5))
        #expect(configuration.refreshTokenTTL == .days(1))
        #expect(configuration.limits.maxImageBytes == 2 * 1024 * 1024)
        #expect(configuration.limits.failedLoginsPerMinute == 10)
        #expect(configuration.limits.refreshesPerMinute == 120)
        #expect(!configuration.admin)
        #expect(configuration.failRate == 0)
        #expect(configuration.dataFile == nil)
    }

    /// Every setting is written in `Config/mock-server.json`, with its default.
    @Test func theRepositoryFileWritesEverySettingWithItsDefault() throws {
        let data = try Data(contentsOf: Self.configFolder.appendingPathComponent("mock-server.json"))
        guard case .object(let root) = try JSONDecoder().decode(JSONValue.self, from: data) else {
            Issue.record("mock-server.json is not an object")
            return
        }
        for key in MockServerSettingKey.allCases {
            var value: JSONValue? = .object(root)
            for component in key.components {
                guard case .object(let object) = value else {
                    value = nil
                    break
                }
                value = object[component]
            }
            let written = try #require(value, "\(key.key) is not in mock-server.json")
            #expect(Self.jsonText(written) == key.jsonText(in: .default), "\(key.key)")
        }
    }

    /// The settings table of `Config/README.md` lists every setting with its variable, option
    /// and default, as the code defines them.
    @Test func theReadmeTableStatesEveryDefaultAsTheCodeDefinesIt() throws {
        let readme = try String(contentsOf: Self.configFolder.appendingPathComponent("README.md"), encoding: .utf8)
        let rows = readme.split(separator: "\n").filter { $0.hasPrefix("| `") }.map { line in
            line.split(separator: "|").map { $0.trimmingCharacters(in: .whitespaces) }
        }
        for key in MockServerSettingKey.allCases {
            let row = try #require(
                rows.first { $0.first == "`\(key.key)`" && $0.count >= 5 }, "\(key.key) is not in the table")
            #expect(row[1] == "`\(key.environmentVariable)`", "\(key.key)")
            #expect(row[2] == (key.flag.map { "`\($0)`" } ?? "—"), "\(key.key)")
            #expect(row[4] == "`\(key.jsonText(in: .default))`", "\(key.key): the README says \(row[4])")
        }
    }

    static func jsonText(_ value: JSONValue) -> String {
        switch value {
        case .null: "null"
        case .bool(let flag): "\(flag)"
        case .int(let number): "\(number)"
        case .double(let number): "\(number)"
        case .string(let text): "\"\(text)\""
        case .array, .object: "(structured)"
        }
    }

    @Test func demoDataIsVaried() {
        let cards = MockServerConfiguration.demoCards
        let demo = cards.filter { $0.owner == "demo@cardwallet.dev" }
        let minji = cards.filter { $0.owner == "minji@cardwallet.dev" }
        #expect(demo.count == 12)
        #expect(minji.count == 3)
        #expect(cards.contains { $0.fields.name.unicodeScalars.contains { (0xAC00...0xD7A3).contains($0.value) } })
        #expect(cards.filter { $0.image != nil }.map { $0.image?.contentType } == ["image/png", "image/jpeg"])
        #expect(cards.contains { ($0.fields.bio?.count ?? 0) > 400 })
        #expect(Set(cards.map(\.id)).count == cards.count)
    }

    @Test func absentKeysTakeDefaultsAndCardsFileIsOptional() throws {
        let folder = try temporaryFolder()
        let file = folder.appendingPathComponent("server.json")
        try Data(#"{"port": 9999, "limits": {"maxImageBytes": 1000}}"#.utf8).write(to: file)
        let loaded = try MockServerConfiguration.load(from: file)
        #expect(loaded.port == 9999)
        #expect(loaded.limits.maxImageBytes == 1000)
        #expect(loaded.limits.refreshesPerMinute == 120)
        #expect(loaded.users == MockServerConfiguration.demoUsers)
        #expect(loaded.seedCards == MockServerConfiguration.demoCards)
    }

    @Test func cardsFileIsResolvedBesideTheConfiguration() throws {
        let folder = try temporaryFolder()
        try Data(#"{"cardsFile": "mine.json"}"#.utf8).write(to: folder.appendingPathComponent("server.json"))
        try Data(#"{"cards": [{"id": "x1", "owner": "demo@cardwallet.dev", "name": "Only"}]}"#.utf8)
            .write(to: folder.appendingPathComponent("mine.json"))
        let loaded = try MockServerConfiguration.load(from: folder.appendingPathComponent("server.json"))
        #expect(loaded.seedCards.map(\.fields.name) == ["Only"])
    }

    @Test func badFilesAreNamedWithTheProblem() throws {
        let folder = try temporaryFolder()
        let missing = #expect(throws: MockServerError.self) {
            try MockServerConfiguration.load(from: folder.appendingPathComponent("nope.json"))
        }
        #expect(missing?.description.contains("there is no such file") == true)

        let file = folder.appendingPathComponent("bad.json")
        try Data(#"{"port": "eighty"}"#.utf8).write(to: file)
        let wrongType = #expect(throws: MockServerError.self) { try MockServerConfiguration.load(from: file) }
        #expect(wrongType?.description.contains("The setting port in \(file.path) must be a whole number") == true)

        try Data(#"{"users": [{"id": "u1"}]}"#.utf8).write(to: file)
        let badUser = #expect(throws: MockServerError.self) { try MockServerConfiguration.load(from: file) }
        #expect(badUser?.description.contains("“users.[0].email” is missing") == true, "\(badUser?.description ?? "")")

        try Data("{not json".utf8).write(to: file)
        let notJSON = #expect(throws: MockServerError.self) { try MockServerConfiguration.load(from: file) }
        #expect(notJSON?.description.contains("not valid JSON") == true)

        try Data(#"{"accessTokenTTL": "5 minutes"}"#.utf8).write(to: file)
        let badSpan = #expect(throws: MockServerError.self) { try MockServerConfiguration.load(from: file) }
        #expect(badSpan?.description.contains("accessTokenTTL") == true)
    }

    @Test func validationListsEveryProblem() {
        var configuration = MockServerConfiguration.testing
        configuration.port = 70000
        configuration.failRate = 1.5
        configuration.accessTokenTTL = .zero
        configuration.passwordHashCost = 2
        configuration.users.append(.init(id: "user-demo", email: "DEMO@cardwallet.dev", name: "Twin", password: "x"))
        configuration.users.append(.init(id: "bad id", email: "nope", name: "", password: nil))
        configuration.seedCards.append(SeedCard(id: "demo-01", owner: "ghost@x.dev", fields: CardFields(name: "")))
        configuration.seedCards.append(
            SeedCard(
                id: "gif", owner: "demo@cardwallet.dev", fields: CardFields(name: "G"),
                image: SeedImage(contentType: "image/gif", data: Data("GIF89a".utf8))))
        let problems = configuration.problems()
        for expected in [
            "port:", "failRate:", "accessTokenTTL:", "passwordHashCost:", "users[2].id: “user-demo” is used twice",
            "users[2].email: “DEMO@cardwallet.dev” is used twice", "users[3].id: must be", "users[3].email:",
            "users[3].name:", "users[3]: give exactly one", "cards[15].id: “demo-01” is used twice",
            "cards[15].owner:", "cards[15].name: is required", "cards[16].image: is not a PNG or JPEG",
        ] {
            #expect(problems.contains { $0.hasPrefix(expected) }, "missing \(expected) in \(problems)")
        }
        #expect(throws: MockServerError.self) { try configuration.validate() }
    }

    @Test func passwordHashesAreAcceptedInsteadOfPasswords() async throws {
        var configuration = MockServerConfiguration.testing
        let hash = await PasswordHasher.hash("s3cret-pass", cost: 4)
        configuration.users = [.init(id: "u1", email: "hash@cardwallet.dev", name: "Hash", passwordHash: hash)]
        configuration.seedCards = []
        try configuration.validate()
        try await withRouter(configuration) { api, _ in
            _ = try await api.login("hash@cardwallet.dev", "s3cret-pass")
        }
    }
}

/// A fresh, empty folder under the system's temporary folder.
func temporaryFolder() throws -> URL {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("cardwallet-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    return url
}
