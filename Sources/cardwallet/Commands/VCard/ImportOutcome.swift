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
        /// `created`, `updated`, `unchanged` or `skipped`.
        var action: String
        /// The wallet card, when there is one.
        var id: String?
        /// What changes on an update: `fields`, `photo` or both.
        var changes: [String]?
        /// Why it was skipped.
        var problem: String?
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
                problem: problem))
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
            default: counts.skipped += 1
            }
        }
        return counts
    }

    /// `FILE:LINE: what is wrong` for every skipped card, escaped for the terminal.
    var problemLines: [String] {
        results.compactMap { result in
            result.problem.map { TerminalText.escaped("\(result.file):\(result.line): \($0)") }
        }
    }

    /// A dry run's plan, one card per line: `create    contacts.vcf:1  Ada Lovelace`.
    var planText: String {
        let verbs = ["created": "create", "updated": "update", "unchanged": "unchanged", "skipped": "skip"]
        return results.map { result in
            var line = (verbs[result.action] ?? result.action).padding(toLength: 10, withPad: " ", startingAt: 0)
            line += TerminalText.escaped("\(result.file):\(result.line)")
            if let name = result.name { line += "  " + TerminalText.escaped(name) }
            if let id = result.id { line += " (\(id))" }
            if let changes = result.changes, changes != ["fields"] {
                line += " [" + changes.joined(separator: ", ") + "]"
            }
            return line + "\n"
        }.joined()
    }

    /// The outcome as JSON: the counts, the refused inputs and every card.
    func json(counts: ImportPlan.Counts, dryRun: Bool, refused: [String]) throws -> String {
        struct Report: Encodable {
            var dryRun: Bool
            var created: Int
            var updated: Int
            var unchanged: Int
            var skipped: Int
            var refused: [String]
            var cards: [Result]
        }
        let report = Report(
            dryRun: dryRun, created: counts.created, updated: counts.updated, unchanged: counts.unchanged,
            skipped: counts.skipped, refused: refused, cards: results)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return String(decoding: try encoder.encode(report), as: UTF8.self) + "\n"
    }
}
