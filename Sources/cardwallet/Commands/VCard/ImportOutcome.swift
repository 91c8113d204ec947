import CardModels
import CardVCard
import CardWalletLive
import Foundation

/// What an import did (or, in a dry run, would do), card by card.
struct ImportOutcome {
    /// One card of the input.
    struct Result: Encodable {
        /// The input's name.
        var file: String
        /// The card's line.
        var line: Int
        /// Its name, when it has one.
        var name: String?
        /// `created`, `updated`, `unchanged`, `merged` or `skipped`.
        var action: String
        /// The wallet card, when there is one.
        var id: String?
        /// What changes on an update: `fields`, `photo` or both.
        var changes: [String]?
        /// Why it was skipped.
        var problem: String?
        /// For a duplicate of another card of the input: that card, `FILE:LINE`.
        var sameAs: String?
        /// What the import clipped, derived or could not keep, `LINE: what` each.
        var warnings: [String]?
    }

    /// The cards, in input order.
    var results: [Result] = []

    /// The plan as it stands, nothing sent.
    init(dryRunOf plan: ImportPlan) {
        for entry in plan.entries {
            switch entry.action {
            case .create: add(entry, "created")
            case .update(let id, _, let fields, let photo):
                add(entry, "updated", id: id, changes: Self.changes(fields, photo))
            case .unchanged(let id): add(entry, "unchanged", id: id)
            case .skip(let problem): add(entry, "skipped", problem: problem.message)
            }
        }
    }

    init() {}

    /// Carries out `plan` with `executor`, card by card, with a progress line; a failure that
    /// stops everything (log in first, the network) ends it after saying how far it got.
    static func carryingOut(_ plan: ImportPlan, with executor: ImportExecutor) async throws -> ImportOutcome {
        var outcome = ImportOutcome()
        let progress = Progress("importing cards", minimum: 50)
        defer { progress.finish() }
        let end = try await executor.run(plan, progress: { progress.update($0, of: $1) }) { entry, result in
            switch result {
            case .created(let id): outcome.add(entry, "created", id: id)
            case .updated(let id, let changes): outcome.add(entry, "updated", id: id, changes: changes)
            case .unchanged(let id): outcome.add(entry, "unchanged", id: id)
            case .skipped(let id, let problem): outcome.add(entry, "skipped", id: id, problem: problem)
            case .stopped: break
            }
        }
        if case .stopped(let index, let error) = end {
            progress.finish()
            Console.error("stopped after \(index) of \(plan.entries.count) cards (\(outcome.counts.summary)).")
            throw error
        }
        return outcome
    }

    /// Adds one card's result.
    mutating func add(
        _ entry: ImportPlan.Entry, _ action: String, id: String? = nil, changes: [String]? = nil, problem: String? = nil
    ) {
        results.append(
            Result(
                file: entry.file, line: entry.line, name: entry.name, action: action, id: id, changes: changes,
                problem: problem, warnings: Self.warnings(entry.warnings)))
    }

    /// Adds the plan's duplicates (each `merged` into, or `unchanged` beside, the card of the
    /// input it repeats, whose wallet id it shares) and the warnings of the cards, and puts
    /// every result in input order: inputs in the order they were read, then lines.
    mutating func complete(with plan: ImportPlan, inputs: [String]) {
        var carried: [String: [VCardProblem]] = [:]
        for entry in plan.entries where !entry.warnings.isEmpty {
            carried["\(entry.file):\(entry.line)"] = entry.warnings
        }
        for index in results.indices where results[index].warnings == nil {
            results[index].warnings = carried["\(results[index].file):\(results[index].line)"].flatMap(Self.warnings)
        }
        for duplicate in plan.duplicates {
            let first = results.first { $0.file == duplicate.firstFile && $0.line == duplicate.firstLine }
            results.append(
                Result(
                    file: duplicate.file, line: duplicate.line, name: duplicate.name,
                    action: duplicate.merged ? "merged" : "unchanged", id: first?.id,
                    sameAs: "\(duplicate.firstFile):\(duplicate.firstLine)", warnings: Self.warnings(duplicate.warnings)
                ))
        }
        let order = Dictionary(inputs.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        results = results.enumerated().sorted { a, b in
            let (fa, fb) = (order[a.element.file] ?? 0, order[b.element.file] ?? 0)
            if fa != fb { return fa < fb }
            if a.element.line != b.element.line { return a.element.line < b.element.line }
            return a.offset < b.offset
        }.map(\.element)
    }

    private static func warnings(_ problems: [VCardProblem]) -> [String]? {
        problems.isEmpty ? nil : problems.map(\.description)
    }

    static func changes(_ fields: CardFields?, _ photo: VCardPhoto?) -> [String] {
        (fields == nil ? [] : ["fields"]) + (photo == nil ? [] : ["photo"])
    }

    /// The counts.
    var counts: ImportPlan.Counts {
        var counts = ImportPlan.Counts()
        for result in results {
            switch result.action {
            case "created": counts.created += 1
            case "updated": counts.updated += 1
            case "unchanged": counts.unchanged += 1
            case "merged": counts.merged += 1
            default: counts.skipped += 1
            }
        }
        return counts
    }

    /// The report for standard error, escaped for the terminal, in input order: `FILE:LINE: what
    /// is wrong` for every skipped card, `FILE:LINE: warning: …` for what a card that came in
    /// lost or got (a value clipped, a name derived) and for what stood outside the cards.
    func reportLines(fileWarnings: [SourcedProblem], inputs: [String]) -> [String] {
        var lines: [(file: String, line: Int, text: String)] = []
        for result in results {
            if let problem = result.problem {
                lines.append((result.file, result.line, "\(result.file):\(result.line): \(problem)"))
            }
        }
        for result in results where result.problem == nil {
            for warning in result.warnings ?? [] {
                // `line N: message` → `FILE:N: warning: message`.
                let (number, message) = Self.split(warning)
                lines.append(
                    (result.file, number ?? result.line, "\(result.file):\(number ?? result.line): warning: \(message)")
                )
            }
        }
        for warning in fileWarnings {
            lines.append(
                (
                    warning.file, warning.problem.line,
                    "\(warning.file):\(warning.problem.line): warning: \(warning.problem.message)"
                ))
        }
        let order = Dictionary(inputs.enumerated().map { ($1, $0) }, uniquingKeysWith: { a, _ in a })
        return lines.enumerated().sorted { a, b in
            let (fa, fb) = (order[a.element.file] ?? 0, order[b.element.file] ?? 0)
            if fa != fb { return fa < fb }
            if a.element.line != b.element.line { return a.element.line < b.element.line }
            return a.offset < b.offset
        }.map { TerminalText.escaped($0.element.text) }
    }

    /// `line 12: message` as `(12, "message")`.
    private static func split(_ text: String) -> (Int?, String) {
        guard text.hasPrefix("line "), let colon = text.firstIndex(of: ":"),
            let number = Int(text[text.index(text.startIndex, offsetBy: 5)..<colon])
        else { return (nil, text) }
        let start = text.index(colon, offsetBy: 2, limitedBy: text.endIndex) ?? text.endIndex
        return (number, String(text[start...]))
    }

    /// A dry run's plan, one card per line: `create    contacts.vcf:1  Ada Lovelace`.
    var planText: String {
        let verbs = [
            "created": "create", "updated": "update", "unchanged": "unchanged", "merged": "merge", "skipped": "skip",
        ]
        return results.map { result in
            var line = (verbs[result.action] ?? result.action).padding(toLength: 10, withPad: " ", startingAt: 0)
            line += TerminalText.escaped("\(result.file):\(result.line)")
            if let name = result.name { line += "  " + TerminalText.escaped(name) }
            if let id = result.id { line += " (\(id))" }
            if let changes = result.changes, changes != ["fields"] {
                line += " [" + changes.joined(separator: ", ") + "]"
            }
            if let sameAs = result.sameAs { line += " — the same card as " + TerminalText.escaped(sameAs) }
            return line + "\n"
        }.joined()
    }

    /// The outcome as JSON, always one object: the counts, the refused inputs, the warnings
    /// about what stood outside the cards, every card (with how many there were in all, when
    /// only the first problems of a file are listed) and, when the run failed, why.
    func json(
        counts: ImportPlan.Counts, dryRun: Bool, refused: [String], unlistedCards: Int = 0,
        fileWarnings: [SourcedProblem] = [], unlistedWarnings: Int = 0, error: String? = nil
    ) throws -> String {
        struct Report: Encodable {
            var dryRun: Bool
            var created: Int
            var updated: Int
            var unchanged: Int
            var merged: Int
            var skipped: Int
            var refused: [String]
            var warnings: [String]
            var warningsShown: Int
            var warningsTotal: Int
            var cards: [Result]
            var cardsShown: Int
            var cardsTotal: Int
            var error: String?
        }
        let report = Report(
            dryRun: dryRun, created: counts.created, updated: counts.updated, unchanged: counts.unchanged,
            merged: counts.merged, skipped: counts.skipped, refused: refused,
            warnings: fileWarnings.map(\.description), warningsShown: fileWarnings.count,
            warningsTotal: fileWarnings.count + unlistedWarnings, cards: results, cardsShown: results.count,
            cardsTotal: results.count + unlistedCards, error: error)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
    }
}
