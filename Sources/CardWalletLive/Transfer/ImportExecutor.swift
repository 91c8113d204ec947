import CardBackend
import CardModels
public import CardVCard
import Foundation

/// How one card of an import plan ended.
public enum ImportEntryOutcome: Sendable {
    /// Made, with the wallet's id.
    case created(id: String)
    /// Changed: its fields, its photo, or both.
    case updated(id: String, changes: [String])
    /// Nothing to change.
    case unchanged(id: String)
    /// Skipped: the file's problem, or the server's refusal (one sentence, without the place).
    case skipped(id: String?, problem: String)
    /// A failure after which no other card can do better (log in first, the network): the
    /// import stops here.
    case stopped(any Error)
}

/// Plans and carries out imports through the wallet's one write path: the one executor of
/// `cardwallet import` and the interface's import.
///
/// The plan matches against the wallet's whole cards from the cache: the list is refreshed once
/// and only the cards the cache lacks (or holds another revision of) are read, in the backend's
/// batches, instead of one request per wallet card. Carrying out the plan goes card by card, in
/// input order; a card the server refuses is skipped with its reason and the others go on.
public struct ImportExecutor: Sendable {
    /// The wallet the cards go into.
    public let wallet: CachedWallet

    /// An executor on `wallet`.
    public init(wallet: CachedWallet) {
        self.wallet = wallet
    }

    /// The importer for this wallet's backend (its picture limit).
    public var importer: VCardImporter {
        VCardImporter(options: VCardImportOptions(maximumImageBytes: wallet.backend.maximumImageBytes))
    }

    /// Plans the import of `cards` (and the `problems` of the cards that could not be read).
    ///
    /// - Parameters:
    ///   - warnings: what the reading of the files found outside the cards (stray text), kept
    ///     with the plan for the report.
    ///   - progress: told how many wallet cards were read, of how many.
    /// - Throws: the backend's failure reading the wallet, or ``OfflineReadError``.
    public func plan(
        _ cards: [SourcedCard], problems: [SourcedProblem] = [], warnings: [SourcedProblem] = [],
        progress: (@Sendable (_ done: Int, _ total: Int) -> Void)? = nil
    ) async throws -> ImportPlan {
        let existing = try await walletCards(progress: progress)
        let compare = ImportPlanner.imagesToCompare(cards, existing: existing)
        let byID = Dictionary(existing.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        var images: [String: [UInt8]] = [:]
        for id in compare {
            guard let card = byID[id] else { continue }
            images[id] = [UInt8](try await wallet.image(of: card, offline: false).value.data)
        }
        try Task.checkCancellation()
        return ImportPlanner.plan(cards, problems: problems, existing: existing, images: images, warnings: warnings)
    }

    /// Every card of the wallet with all its fields, in wallet order: through the cache when
    /// there is one (only what it lacks is read), else all read in the backend's batches.
    private func walletCards(progress: (@Sendable (Int, Int) -> Void)?) async throws -> [Card] {
        let summaries = try await wallet.list(.online)
        guard summaries.offlineAsOf == nil else {
            throw OfflineReadError(
                "offline: an import needs the server, to know what the wallet holds; nothing was sent")
        }
        let ids = summaries.value.map(\.id)
        guard wallet.cache != nil else {
            return try await wallet.backend.cards(ids: ids) { progress?($0, ids.count) }
        }
        try await wallet.fillWholeCards(summaries.value)
        progress?(ids.count, ids.count)
        let kept = wallet.cachedCards(ids: ids)
        let missing = zip(ids, kept).filter { $0.1 == nil }.map(\.0)
        let read = missing.isEmpty ? [] : try await wallet.backend.cards(ids: missing, progress: nil)
        let readByID = Dictionary(read.map { ($0.id, $0) }, uniquingKeysWith: { first, _ in first })
        return zip(ids, kept).compactMap { id, card in card ?? readByID[id] }
    }

    /// Carries out one entry of a plan. Its requests run to their end: nothing is half made.
    public func carryOut(_ entry: ImportPlan.Entry, photos: PhotoFolder) async -> ImportEntryOutcome {
        do {
            switch entry.action {
            case .create(let card):
                let image = try card.photo.map { try photos.upload($0, maximumBytes: wallet.backend.maximumImageBytes) }
                return .created(id: try await wallet.create(card.fields, image: image).value.id)
            case .update(let id, let revision, let fields, let photo):
                var current = revision
                if let fields {
                    current = try await wallet.update(id: id, fields: fields, revision: revision).value.revision
                }
                if let photo {
                    do {
                        let image = try photos.upload(photo, maximumBytes: wallet.backend.maximumImageBytes)
                        _ = try await wallet.setImage(of: id, revision: current, to: image)
                    } catch let error as any BackendFailure where fields != nil && !error.stopsBatch {
                        // Two requests: say exactly which one did not go through.
                        return .skipped(
                            id: id, problem: "the fields were updated, but the server refused the photo: \(error)")
                    }
                }
                return .updated(id: id, changes: (fields == nil ? [] : ["fields"]) + (photo == nil ? [] : ["photo"]))
            case .unchanged(let id):
                return .unchanged(id: id)
            case .skip(let problem):
                return .skipped(id: nil, problem: problem.message)
            }
        } catch let error as any BackendFailure where !error.stopsBatch {
            return .skipped(id: nil, problem: "the server refused the card: \(error)")
        } catch {
            return .stopped(error)
        }
    }

    /// Carries out `plan`, in input order, until a failure stops it or the task is cancelled
    /// (between two cards; a card under way is finished).
    ///
    /// - Parameters:
    ///   - progress: told how many entries are done, of how many, before each.
    ///   - each: told how each entry ended.
    /// - Returns: the failure that stopped it, if one did.
    public func run(
        _ plan: ImportPlan, progress: (_ done: Int, _ total: Int) -> Void = { _, _ in },
        each: (ImportPlan.Entry, ImportEntryOutcome) -> Void
    ) async throws -> ImportRunEnd {
        let photos = try PhotoFolder()
        defer { photos.remove() }
        let total = plan.entries.count
        for (index, entry) in plan.entries.enumerated() {
            if Task.isCancelled { return .cancelled(after: index) }
            progress(index, total)
            // Not a child task: cancelling the import must not cut a card's requests in half.
            let outcome = await Task { await carryOut(entry, photos: photos) }.value
            each(entry, outcome)
            if case .stopped(let error) = outcome { return .stopped(after: index, error) }
        }
        progress(total, total)
        return .finished
    }
}

/// How an import run ended.
public enum ImportRunEnd: Sendable {
    /// Every entry was carried out.
    case finished
    /// Cancelled before entry `after` (that many were carried out).
    case cancelled(after: Int)
    /// Stopped by `error` at entry `after`.
    case stopped(after: Int, any Error)
}

/// Photos written to a private folder for the upload (uploads stream from files), removed
/// afterwards.
public struct PhotoFolder: Sendable {
    let folder: URL

    /// A new private folder.
    public init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("cardwallet-import-\(UUID().uuidString)")
        try FileManager.default.createDirectory(
            at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
    }

    /// Writes `photo` to a file of its own and returns it checked for upload.
    func upload(_ photo: VCardPhoto, maximumBytes: Int) throws -> ImageUpload {
        let url = folder.appendingPathComponent(UUID().uuidString + (photo.format == .png ? ".png" : ".jpg"))
        try Data(photo.bytes).write(to: url)
        return try ImageUpload(validating: url, maximumBytes: maximumBytes)
    }

    /// Removes the folder and its photos.
    public func remove() { try? FileManager.default.removeItem(at: folder) }
}
