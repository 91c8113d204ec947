import CardAPI
import CardModels
import CardVCard
import CardWalletUI
import Foundation
import Synchronization

/// The interface's import: read and plan first (``preview(_:client:)``, nothing sent but
/// reads), keep the plan, and carry it out on the user's word (``run(planID:client:progress:)``),
/// card by card, stopping between two cards when cancelled. Plans are the `CardVCard`
/// library's; the UI core holds only their id and a ``CardWalletUI/ImportPreview``.
final class ImportRunner: Sendable {
    private struct Stored {
        var id: Int
        var plan: ImportPlan
    }

    private let stored = Mutex<(next: Int, plan: Stored?)>((1, nil))

    /// Reads `path` (a vCard file, or a folder of `.vcf` files) and plans its import against
    /// the whole wallet.
    ///
    /// - Throws: ``CardWalletUI/UIFailure``: no such file, unreadable, not vCard at all; the
    ///   server's failure fetching the wallet; cancelled.
    func preview(_ path: String, client: CardAPIClient) async throws(UIFailure) -> ImportPreview {
        let importer = VCardImporter(
            options: VCardImportOptions(maximumImageBytes: client.configuration.maximumImageBytes))
        let (cards, problems) = try Self.read(path, importer: importer)
        do {
            let summaries = try await client.allCards()
            let wallet = try await FetchInOrder.run(summaries.map(\.id)) { id in try await client.card(id: id) }
            let compare = ImportPlanner.imagesToCompare(cards, existing: wallet)
            let fetched = try await FetchInOrder.run(compare) { id in
                (id, [UInt8](try await client.cardImage(id: id).data))
            }
            try Task.checkCancellation()
            let plan = ImportPlanner.plan(
                cards, problems: problems, existing: wallet, images: Dictionary(fetched) { a, _ in a })
            let id = stored.withLock { stored in
                let id = stored.next
                stored.next += 1
                stored.plan = Stored(id: id, plan: plan)
                return id
            }
            return Self.preview(plan, id: id, file: path)
        } catch let error as CardAPIError where !Task.isCancelled {
            throw UIFailure(error)
        } catch {
            throw UIFailure(.cancelled, message: "Stopped: nothing was sent")
        }
    }

    /// Carries out the plan `planID`, in file order. A card the server refuses is skipped with
    /// its reason and the rest go on; a failure no other card can do better with (the network,
    /// the session) stops it, as cancelling does, after the card in progress. Each card's
    /// requests run to their end whatever happens meanwhile: nothing is half made.
    func run(planID: Int, client: CardAPIClient, progress: ProgressReporter) async throws(UIFailure) -> ImportReport {
        guard let plan = stored.withLock({ $0.plan?.id == planID ? $0.plan?.plan : nil }) else {
            throw UIFailure(.other, message: "That import is no longer at hand: read the file again (i)")
        }
        stored.withLock { $0.plan = nil }
        let photos: PhotoFolder
        do {
            photos = try PhotoFolder()
        } catch {
            throw UIFailure(
                .other, message: "No private folder for the photos could be made: \(error.localizedDescription)")
        }
        defer { photos.remove() }
        var report = ImportReport(counts: ImportCounts(), planned: plan.entries.count)
        let total = plan.entries.count
        for (index, entry) in plan.entries.enumerated() {
            if Task.isCancelled {
                report.cancelled = true
                break
            }
            progress.report(CallProgress(done: index, total: total))
            // Not a child task: cancelling the import must not cut a card's requests in half.
            let outcome = await Task { await Self.carryOut(entry, client: client, photos: photos) }.value
            switch outcome {
            case .created: report.counts.created += 1
            case .updated: report.counts.updated += 1
            case .unchanged: report.counts.unchanged += 1
            case .skipped(let problem):
                report.counts.skipped += 1
                if report.problems.count < 100 { report.problems.append(problem) }
            case .stopped(let reason):
                report.failure = reason
            }
            if report.failure != nil { break }
        }
        progress.report(CallProgress(done: report.counts.total, total: total))
        return report
    }

    private enum CardOutcome {
        case created, updated, unchanged
        case skipped(String)
        case stopped(String)
    }

    private static func carryOut(_ entry: ImportPlan.Entry, client: CardAPIClient, photos: PhotoFolder) async
        -> CardOutcome
    {
        let place = "\(URL(fileURLWithPath: entry.file).lastPathComponent):\(entry.line)"
        do {
            switch entry.action {
            case .create(let card):
                if let photo = card.photo {
                    _ = try await client.createCard(card.fields, imageAt: try photos.write(photo))
                } else {
                    _ = try await client.createCard(card.fields)
                }
                return .created
            case .update(let id, let version, let fields, let photo):
                var current = version
                if let fields {
                    current = try await client.updateCard(id: id, fields: fields, version: version).version
                }
                if let photo {
                    do {
                        _ = try await client.replaceImage(id: id, version: current, imageAt: try photos.write(photo))
                    } catch let error as CardAPIError where fields != nil && !stopsEverything(error) {
                        return .skipped(
                            "\(place): the fields were updated, but the server refused the photo: \(error.description)")
                    }
                }
                return .updated
            case .unchanged:
                return .unchanged
            case .skip(let problem):
                return .skipped("\(place): \(problem.message)")
            }
        } catch let error as CardAPIError where !stopsEverything(error) {
            return .skipped("\(place): the server refused the card: \(error.description)")
        } catch let error as CardAPIError {
            return .stopped(UIFailure(error).message)
        } catch {
            return .stopped("\(place): \(error.localizedDescription)")
        }
    }

    /// Failures after which no other card can do better.
    static func stopsEverything(_ error: CardAPIError) -> Bool {
        if error.requiresLogin || error.isNetworkFailure { return true }
        switch error {
        case .cancelled, .multipleAccounts, .tokenStore, .excessiveRefresh: return true
        default: return error.errorCode == .tooManyRequests || error.isUnknownEndpoint
        }
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

/// Photos written to a private folder for the upload (the client streams images from files),
/// removed afterwards.
struct PhotoFolder: Sendable {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cardwallet-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Writes `photo` to a file of its own and returns it.
    func write(_ photo: VCardPhoto) throws -> URL {
        let url = folder.appendingPathComponent(UUID().uuidString + (photo.format == .png ? ".png" : ".jpg"))
        try Data(photo.bytes).write(to: url)
        return url
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}
