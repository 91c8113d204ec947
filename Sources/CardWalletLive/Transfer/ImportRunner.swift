import CardBackend
import CardModels
import CardVCard
import CardWalletUI
import Foundation
import Synchronization

/// The interface's import: read and plan first (``preview(_:wallet:)``, nothing sent but
/// reads), keep the plan, and carry it out on the user's word (``run(planID:wallet:progress:)``),
/// card by card, stopping between two cards when cancelled. Plans are the `CardVCard`
/// library's; the UI core holds only their id and a ``CardWalletUI/ImportPreview``.
final class ImportRunner: Sendable {
    private struct Stored {
        var id: Int
        var plan: ImportPlan
    }

    private let stored = Mutex<(next: Int, plan: Stored?)>((1, nil))

    /// Reads `path` (a vCard file, or a folder of `.vcf` files) and plans its import against
    /// the whole wallet (``ImportExecutor/plan(_:problems:progress:)``).
    ///
    /// - Throws: ``CardWalletUI/UIFailure``: no such file, unreadable, not vCard at all; the
    ///   server's failure reading the wallet; cancelled.
    func preview(_ path: String, wallet: CachedWallet) async throws(UIFailure) -> ImportPreview {
        let executor = ImportExecutor(wallet: wallet)
        let (cards, problems) = try Self.read(path, importer: executor.importer)
        do {
            let plan = try await executor.plan(cards, problems: problems)
            let id = stored.withLock { stored in
                let id = stored.next
                stored.next += 1
                stored.plan = Stored(id: id, plan: plan)
                return id
            }
            return Self.preview(plan, id: id, file: path)
        } catch let error as OfflineReadError {
            throw UIFailure(.other, message: error.description)
        } catch let error as any BackendFailure where !Task.isCancelled && error.failureKind != .cancelled {
            throw UIFailure(error)
        } catch {
            throw UIFailure(.cancelled, message: "Stopped: nothing was sent")
        }
    }

    /// Carries out the plan `planID`, in file order. A card the server refuses is skipped with
    /// its reason and the rest go on; a failure no other card can do better with (the network,
    /// the session) stops it, as cancelling does, after the card in progress. Each card's
    /// requests run to their end whatever happens meanwhile: nothing is half made.
    func run(planID: Int, wallet: CachedWallet, progress: ProgressReporter) async throws(UIFailure) -> ImportReport {
        guard let plan = stored.withLock({ $0.plan?.id == planID ? $0.plan?.plan : nil }) else {
            throw UIFailure(.other, message: "That import is no longer at hand: read the file again (i)")
        }
        stored.withLock { $0.plan = nil }
        var report = ImportReport(counts: ImportCounts(), planned: plan.entries.count)
        let end: ImportRunEnd
        do {
            end = try await ImportExecutor(wallet: wallet).run(
                plan, progress: { progress.report(CallProgress(done: $0, total: $1)) }
            ) { entry, outcome in
                let place = "\(URL(fileURLWithPath: entry.file).lastPathComponent):\(entry.line)"
                switch outcome {
                case .created: report.counts.created += 1
                case .updated: report.counts.updated += 1
                case .unchanged: report.counts.unchanged += 1
                case .skipped(_, let problem):
                    report.counts.skipped += 1
                    if report.problems.count < 100 { report.problems.append("\(place): \(problem)") }
                case .stopped(let error):
                    if let failure = error as? any BackendFailure {
                        report.failure = UIFailure(failure).message
                    } else {
                        report.failure = "\(place): \(error.localizedDescription)"
                    }
                }
            }
        } catch {
            throw UIFailure(
                .other, message: "No private folder for the photos could be made: \(error.localizedDescription)")
        }
        if case .cancelled = end { report.cancelled = true }
        progress.report(CallProgress(done: report.counts.total, total: plan.entries.count))
        return report
    }

    /// The cards and problems of `path`: a file, or every `.vcf` of a folder.
    static func read(_ path: String, importer: VCardImporter) throws(UIFailure) -> ([SourcedCard], [SourcedProblem]) {
        let expanded = LocalPath.expand(path)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: expanded, isDirectory: &isFolder) else {
            throw UIFailure(.other, message: "there is no such file or folder")
        }
        var files = [expanded]
        if isFolder.boolValue {
            guard let names = try? FileManager.default.contentsOfDirectory(atPath: expanded) else {
                throw UIFailure(.other, message: "the folder cannot be read (check its permissions)")
            }
            files = names.filter { $0.lowercased().hasSuffix(".vcf") && !$0.hasPrefix(".") }.sorted().map {
                expanded + "/" + $0
            }
            if files.isEmpty { throw UIFailure(.other, message: "no .vcf file in this folder") }
        }
        var cards: [SourcedCard] = []
        var problems: [SourcedProblem] = []
        var refusals: [String] = []
        for file in files {
            guard let handle = FileHandle(forReadingAtPath: file) else {
                throw UIFailure(.other, message: "\(TerminalText.escaped(file)) cannot be read (check its permissions)")
            }
            defer { try? handle.close() }
            let document = VCardDocument.read(source: FileByteSource(handle: handle), importer: importer)
            if let refusal = document.refusal {
                refusals.append(
                    files.count == 1
                        ? refusal.reason : "\(URL(fileURLWithPath: file).lastPathComponent): \(refusal.reason)")
                continue
            }
            cards += document.cards.map { SourcedCard(file: file, card: $0) }
            problems += document.problems.map { SourcedProblem(file: file, problem: $0) }
        }
        if cards.isEmpty, problems.isEmpty, !refusals.isEmpty {
            throw UIFailure(
                .other, message: TerminalText.escaped(refusals.joined(separator: "; ")) + "; nothing to import")
        }
        return (cards, problems)
    }

    /// What the UI shows of `plan`.
    static func preview(_ plan: ImportPlan, id: Int, file: String) -> ImportPreview {
        let counts = plan.counts
        let entries = plan.entries.map { entry -> ImportPreview.Entry in
            let name = entry.name ?? ""
            switch entry.action {
            case .create(let card):
                return ImportPreview.Entry(.create, name: name, detail: card.photo == nil ? "new" : "new, with a photo")
            case .update(_, _, let fields, let photo):
                let what = [fields == nil ? nil : "fields", photo == nil ? nil : "photo"].compactMap { $0 }.joined(
                    separator: " and ")
                return ImportPreview.Entry(.update, name: name, detail: what + " change")
            case .unchanged: return ImportPreview.Entry(.unchanged, name: name)
            case .skip(let problem):
                return ImportPreview.Entry(
                    .skip, name: name,
                    detail: problem.formatted(file: URL(fileURLWithPath: entry.file).lastPathComponent))
            }
        }
        return ImportPreview(
            planID: id, file: file,
            counts: ImportCounts(
                created: counts.created, updated: counts.updated, unchanged: counts.unchanged, skipped: counts.skipped),
            entries: entries)
    }
}
