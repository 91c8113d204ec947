import CardCache
import CardModels
import Foundation
import InMemoryLogging
import Logging

/// A private cache folder for one test, a logger that keeps its lines, and card makers.
struct CacheWorld: ~Copyable {
    static let server = "http://127.0.0.1:8080/v1"
    static let account = "demo@cardwallet.dev"

    let root: String
    let location: CacheLocation
    let logs = InMemoryLogHandler()

    init() throws {
        root = FileManager.default.temporaryDirectory.appending(path: "cardcache-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        location = CacheLocation(folder: root + "/cache/cardwallet")
    }

    deinit {
        try? FileManager.default.removeItem(atPath: root)
    }

    var logger: Logger {
        let logs = logs
        return Logger(label: "test.cache", factory: { _ in logs })
    }

    /// The cache file of the test account.
    var path: String { location.databasePath(server: Self.server, account: Self.account) }

    /// Opens the test account's cache (or `account`'s).
    func open(account: String = CacheWorld.account, clock: @escaping @Sendable () -> Date = { Date() }) throws
        -> CardCache
    {
        try CardCache.open(server: Self.server, account: account, location: location, logger: logger, clock: clock)
    }

    /// The log lines at warning level or above.
    var warnings: [String] {
        logs.entries.filter { $0.level >= .warning }.map { $0.message.description }
    }
}

/// Cards for the tests.
enum Cards {
    static let date = Date(timeIntervalSince1970: 1_800_000_000)

    static func card(
        _ id: String, _ name: String, version: Int = 1, _ edit: (inout CardFields) -> Void = { _ in }
    ) -> Card {
        var fields = CardFields(name: name)
        edit(&fields)
        return Card(
            id: id, fields: fields, createdAt: date, updatedAt: date.addingTimeInterval(Double(version)),
            revision: CardRevision(version))
    }

    /// The wallet the search tests use: one card per field to find.
    static let wallet: [Card] = [
        card("c-ada", "Ada Lovelace") {
            $0.company = "Analytical Engines Ltd"
            $0.title = "Lead Programmer"
            $0.email = "ada@analytical.example"
            $0.tags = ["math", "poetry"]
        },
        card("c-zoe", "Zoë Dvořák") {
            $0.company = "Société Générale"
            $0.department = "Équipe Données"
        },
        card("c-minjun", "김민준") {
            $0.company = "서울데이터랩"
            $0.title = "백엔드 개발자"
            $0.phone = "+82 10-5550-1234"
        },
        card("c-jisoo", "Jisoo Park") {
            $0.website = "https://jisoo.example/portfolio"
            $0.address = "12 Rue de la Paix\nParis"
            $0.bio = "Builds compilers for fun."
        },
        card("c-grace", "Grace Hopper") {
            $0.funFacts = ["Found a moth in a relay", "Coined debugging"]
            $0.birthday = "1906-12-09"
            $0.vcardProperties = ["TEL;TYPE=FAX:+1 555 0100", "X-SOCIALPROFILE;TYPE=github:https://github.com/grace"]
        },
        card("c-yuki", "山田ゆき") {
            $0.company = "東京ガス"
            $0.title = "ＣＴＯ"
        },
    ]
}
