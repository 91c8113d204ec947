public import CardModels
public import Foundation

/// Made-up cards for previews, snapshot tests and benchmarks: deterministic, varied (Korean,
/// Japanese, Chinese and Latin names, emoji, long fields) and as many as asked for.
public enum SampleCards {
    /// A fixed date (2026-01-02 03:04:05 UTC) so renders are reproducible.
    public static let epoch = Date(timeIntervalSince1970: 1_767_323_045)

    private static let names = [
        "김민지", "Kim Min-ji", "山田 太郎", "王小明", "Ada Lovelace", "José Álvarez", "Zoë 🦊 Fox",
        "Grace Hopper", "이서준", "佐藤 花子", "李娜", "Linus Torvalds", "Ünal Yılmaz", "Amélie Poulain",
    ]
    private static let companies = [
        "Acme", "네이버", "ソニー", "腾讯", "Initech", "Globex Corporation", nil, "Umbrella", "Hooli",
    ]
    private static let titles = ["Engineer", "디자이너", "部長", "Product Manager", nil, "CTO", "研究员"]

    /// `count` summaries, `card-0`, `card-1`, … in wallet order.
    public static func summaries(count: Int) -> [CardSummary] {
        (0..<max(0, count)).map(summary(number:))
    }

    /// The summary of card number `number`.
    public static func summary(number: Int) -> CardSummary {
        let name = names[number % names.count] + (number < names.count ? "" : " \(number)")
        let company = companies[number % companies.count]
        let title = titles[number % titles.count]
        return CardSummary(
            id: "card-\(number)", name: name, title: title, company: company,
            email: "person\(number)@example.com", defaultImage: number % 8, hasImage: number % 5 == 0,
            updatedAt: epoch.addingTimeInterval(Double(number % 1_000) * 60), revision: CardRevision(1 + number % 3))
    }

    /// A page of the first `total` sample cards.
    public static func page(offset: Int, limit: Int, total: Int) -> CardPage {
        let end = min(total, offset + limit)
        let cards = offset < end ? (offset..<end).map(summary(number:)) : []
        return CardPage(cards: cards, total: total, offset: offset, limit: limit)
    }

    /// The whole card behind `summary`, with every field filled.
    public static func card(_ summary: CardSummary) -> Card {
        Card(
            id: summary.id,
            fields: CardFields(
                name: summary.name, title: summary.title, company: summary.company, department: "R&D",
                email: summary.email, phone: "+82 10-1234-5678", website: "https://example.com/\(summary.id)",
                address: "1 Sample Street, Seoul", bio: "Likes terminals, keyboards and well-kept Swift packages.",
                birthday: "1990-04-01", funFacts: ["Has 3 cats"], tags: ["demo", "sample"],
                defaultImage: summary.defaultImage),
            hasImage: summary.hasImage,
            image: summary.hasImage ? CardImageInfo(contentType: "image/png", size: 24_680) : nil,
            createdAt: epoch, updatedAt: summary.updatedAt, revision: summary.revision)
    }

    /// Cards whose fields try to take over the terminal: escape sequences, OSC 52, bidi.
    public static let hostile: [CardSummary] = [
        CardSummary(
            id: "evil-1", name: "\u{1B}[2J\u{1B}[31mCLEARED", company: "\u{1B}]52;c;cm0gLXJmIC8=\u{07}",
            email: "a@b.co", updatedAt: epoch),
        CardSummary(
            id: "evil-2", name: "abc\u{202E}fdp.exe", title: "\u{2066}isolate\u{2069}", company: "Null\u{0}Corp",
            email: "bell\u{07}@x.io", updatedAt: epoch),
        CardSummary(
            id: "evil-3", name: "Zero\u{200B}Width\u{FEFF}", title: "C1\u{9B}31m", company: "\u{301}mark",
            email: "del\u{7F}@x.io", updatedAt: epoch),
    ]
}
