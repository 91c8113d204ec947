import CardCache
import CardModels
import Foundation
import Logging

/// A cache filled with `count` whole cards of mixed scripts, made from a fixed seed: names,
/// companies, departments, titles, emails, phones, addresses, bios, TMI and tags.
struct CacheFixture {
    let folder: TemporaryFolder
    let location: CacheLocation
    static let server = "http://127.0.0.1:8080/v1"
    static let account = "bench@cardwallet.dev"

    private static let given = [
        "Ada", "Grace", "Zoë", "Minjun", "Hana", "Oleg", "Priya", "Chris", "Sam", "Mohammed", "Yuki", "Jisoo",
    ]
    private static let family = [
        "Lovelace", "Hopper", "Ångström", "Kim", "Sato", "Petrov", "Raghunathan", "Nguyễn", "Park", "Tanaka",
    ]
    private static let companies = [
        "서울데이터랩", "東京ガス", "Analytical Engines", "Société Générale", "Acme", "Initech", "Globex", "Umbrella",
    ]
    private static let words = [
        "platform", "compilers", "sailing", "sourdough", "forecasts", "파이프라인", "데이터", "読書", "pens", "mainframe",
    ]

    /// A card from the seed `index`.
    static func card(_ index: Int) -> Card {
        // The same numbers as ever: this generator's first step is taken on the seed.
        var random = SplitMix64(seed: UInt64(index) &+ 0x9E37_79B9_7F4A_7C15)
        func pick(_ list: [String]) -> String { list[Int(random.next() % UInt64(list.count))] }
        var fields = CardFields(name: "\(pick(given)) \(pick(family)) \(index)")
        fields.company = pick(companies)
        fields.department = ["Research", "연구소", "Équipe Données", "営業部"][index % 4]
        fields.title = ["Engineer", "CTO", "개발자", "Designer"][index % 4]
        fields.email = "person\(index)@example.com"
        fields.phone = "+82 10-\(1000 + index % 9000)-\(String(format: "%04d", Int(random.next() % 10_000)))"
        fields.website = "https://example.com/\(index)"
        fields.address = "\(index % 300) \(pick(family)) Street\n\(pick(["Seoul", "Paris", "東京", "London"]))"
        fields.bio = (0..<8).map { _ in pick(words) }.joined(separator: " ")
        fields.funFacts = [pick(words)]
        fields.tags = [pick(["friend", "client", "conference", "동료"])]
        let date = Date(timeIntervalSince1970: 1_800_000_000)
        return Card(id: "c\(index)", fields: fields, createdAt: date, updatedAt: date)
    }

    /// Makes the cache of `count` cards, in batches of 5,000 per transaction.
    init(count: Int, label: String) throws {
        folder = try TemporaryFolder("cache-\(label)")
        location = CacheLocation(folder: folder.path + "/cardwallet")
        let cache = try open()
        let cards = (0..<count).map(Self.card)
        do {
            try cache.storeList(cards.map(\.summary), confirmedAt: Date())
            var start = 0
            while start < cards.count {
                try cache.storeCards(Array(cards[start..<min(start + 5_000, cards.count)]), confirmedAt: Date())
                start += 5_000
            }
        } catch {
            throw BenchError("cannot fill the cache: \(error)")
        }
        cache.close()
    }

    /// Opens the fixture's cache.
    func open() throws(BenchError) -> CardCache {
        do {
            return try CardCache.open(
                server: Self.server, account: Self.account, location: location,
                logger: Logger(label: "bench.cache", factory: { _ in SwiftLogNoOpLogHandler() }))
        } catch {
            throw BenchError("cannot open the cache: \(error)")
        }
    }
}
