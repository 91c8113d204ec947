import CardModels
import CardScanCore
import Foundation

/// Business cards rendered by `scripts/make-scan-cards.py` for the scan figure, with the
/// fields printed on each (its `truth.json`).
struct ScanCorpus: Sendable {
    /// One card.
    struct Card: Sendable, Decodable {
        var file: String
        var fields: [String: String]
        var lang: String
        /// What its email's and website's domain ends in (`.law`, `.co.jp`), drawn from the
        /// Public Suffix List.
        var ending: String?
    }

    private struct Truth: Decodable {
        var seed: Int
        var cards: [Card]
    }

    /// The fields scored, in the card's order.
    static let fields = ["name", "company", "title", "department", "email", "phone", "website", "address"]

    /// Where the photos are.
    var folder: String
    /// The cards.
    var cards: [Card]
    /// The generator's seed.
    var seed: Int

    /// Renders `count` cards into `folder` with `seed` (default: the script's committed one).
    ///
    /// - Throws: ``BenchError`` when the script is missing or fails (python3 with Pillow, the
    ///   DejaVu and Nanum fonts and Debian's publicsuffix are needed: scripts/bootstrap installs
    ///   them).
    static func make(count: Int, seed: Int? = nil, in folder: String) throws -> ScanCorpus {
        let script = try self.script()
        let seedArguments = seed.map { ["--seed", String($0)] } ?? []
        let (status, output) = try Spawn.captured(
            "/usr/bin/env", ["python3", script, "--out", folder, "--count", String(count)] + seedArguments)
        guard status == 0 else {
            throw BenchError(
                "\(script) exited with status \(status): \(output.suffix(400)) (python3 with Pillow, fonts-dejavu-core, fonts-nanum and publicsuffix are needed: scripts/bootstrap)"
            )
        }
        do {
            let data = try Data(contentsOf: URL(fileURLWithPath: folder + "/truth.json"))
            let truth = try JSONDecoder().decode(Truth.self, from: data)
            return ScanCorpus(folder: folder, cards: truth.cards, seed: truth.seed)
        } catch {
            throw BenchError("cannot read \(folder)/truth.json: \(error)")
        }
    }

    /// The generator: in the current folder's `scripts/` (the bench runs from the package's
    /// root), else next to the package the bench was built in.
    static func script() throws -> String {
        let relative = "scripts/make-scan-cards.py"
        let candidates = [
            FileManager.default.currentDirectoryPath + "/" + relative,
            URL(fileURLWithPath: RunCommand.ownExecutable()).deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent(relative).path,
        ]
        guard let found = candidates.first(where: FileManager.default.fileExists) else {
            throw BenchError("cannot find \(relative): run the bench from the package's folder")
        }
        return found
    }

    /// Whether a scanned value is the printed one: exactly for email, website (case aside) and
    /// phone; after Unicode compatibility folding (㈜ is (주)) and with runs of spaces as one for
    /// name, company, title and department; the address also without punctuation, accents and
    /// case (OCR loses accents; the card keeps the address as one line).
    static func matches(_ field: String, scanned: String, printed: String) -> Bool {
        switch field {
        case "email", "website": return scanned.lowercased() == printed.lowercased()
        case "phone": return scanned == printed
        case "address": return loose(scanned) == loose(printed)
        default: return folded(scanned) == folded(printed)
        }
    }

    static func folded(_ text: String) -> String {
        text.precomposedStringWithCompatibilityMapping.split(whereSeparator: \.isWhitespace).joined(separator: " ")
    }

    static func loose(_ text: String) -> String {
        text.folding(options: [.diacriticInsensitive, .caseInsensitive, .widthInsensitive], locale: nil)
            .filter { $0.isLetter || $0.isNumber }
    }
}

/// Right and scored values per field.
struct FieldScore: Sendable {
    private(set) var right: [String: Int] = [:]
    private(set) var total: [String: Int] = [:]
    /// The misses, as `card-007.jpg email: “…” for “…”`.
    private(set) var misses: [String] = []

    /// Scores one card: a field counts when printed or found (so a value made up counts wrong).
    mutating func add(_ card: ScanCorpus.Card, scanned: CardFields?) {
        for key in ScanCorpus.fields {
            let printed = card.fields[key] ?? ""
            let found = scanned.flatMap { fields in CardField(rawValue: key).map { fields[$0] } } ?? ""
            if printed.isEmpty && found.isEmpty { continue }
            total[key, default: 0] += 1
            if ScanCorpus.matches(key, scanned: found, printed: printed) {
                right[key, default: 0] += 1
            } else {
                misses.append("\(card.file) \(key): “\(found)” for “\(printed)”")
            }
        }
    }

    /// Percent right for `field`, or `nil` when no card had it.
    func percent(_ field: String) -> Double? {
        guard let total = total[field], total > 0 else { return nil }
        return Double(right[field, default: 0]) * 100 / Double(total)
    }

    /// Right and scored values over every field.
    var overall: (right: Int, total: Int) { (right.values.reduce(0, +), total.values.reduce(0, +)) }
}
