import CardBackend
import CardModels
import CardVCard
import CardWalletUI
import Foundation

/// The interface's export: the cards read whole (with their images for vCard), written to one
/// file atomically, in the format asked for. The same files as `cardwallet export`.
enum CardExport {
    /// Pictures read at once: enough to hide latency, few enough to stay polite.
    static let photoConcurrency = 8

    /// Carries out `request` through `wallet`: recorded online; offline, only cards the cache
    /// holds in full.
    ///
    /// - Returns: how many cards were written, and the full path.
    /// - Throws: ``CardWalletUI/UIFailure``: the file exists (unless replacing), its folder does
    ///   not, it cannot be written; the server's failure reading a card; cancelled.
    static func run(_ request: ExportRequest, wallet: CachedWallet, progress: ProgressReporter) async throws(UIFailure)
        -> CallResult
    {
        let wanted: [String]?
        switch request.cards {
        case .ids(let chosen): wanted = chosen
        case .all: wanted = nil
        }
        return try await run(request, parts: [(wallet, wanted)], progress: progress)
    }

    /// ``run(_:wallet:progress:)`` over several books (the All view): each part's cards (every
    /// card when `nil`) through its own wallet, one book after the other, into one file.
    static func run(
        _ request: ExportRequest, parts: [(wallet: CachedWallet, ids: [String]?)], progress: ProgressReporter
    )
        async throws(UIFailure) -> CallResult
    {
        let url = try destination(request.path, replacing: request.replacing)
        do {
            let steps = request.format.carriesPhotos ? 2 : 1
            var cards: [Card] = []
            var read: [(wallet: CachedWallet, cards: [Card], offline: Bool)] = []
            for part in parts {
                let before = cards.count
                let answer = try await part.wallet.wholeCards(ids: part.ids, .online) { done, total in
                    progress.report(CallProgress(done: before + done, total: (before + total) * steps))
                }
                // A CardDAV card with what its vCard keeps beyond the fields (its UID, a second
                // email…), as `cardwallet export` writes it.
                let whole = answer.value.map(\.withSourceLines)
                cards += whole
                read.append((part.wallet, whole, answer.offlineAsOf != nil))
            }
            var photos: [VCardPhoto?] = []
            if request.format.carriesPhotos {
                let total = cards.count * 2
                for part in read {
                    let done = cards.count + photos.count
                    photos += try await part.cards.concurrentMap(
                        concurrency: photoConcurrency,
                        progress: { progress.report(CallProgress(done: done + $0, total: total)) }
                    ) { card in
                        Optional(try await photo(of: card, wallet: part.wallet, offline: part.offline))
                    }
                }
            } else {
                photos = Array(repeating: nil, count: cards.count)
            }
            try Task.checkCancellation()
            let bytes = try encode(cards, photos: photos, format: request.format)
            try Data(bytes).write(to: url, options: .atomic)
            return .exported(count: cards.count, path: url.path)
        } catch let error as OfflineReadError {
            throw UIFailure(.other, message: error.description)
        } catch is CancellationError {
            throw UIFailure(.cancelled, message: "Stopped: nothing was written")
        } catch let error as any BackendFailure {
            if Task.isCancelled || error.failureKind == .cancelled {
                throw UIFailure(.cancelled, message: "Stopped: nothing was written")
            }
            throw UIFailure(error)
        } catch let failure as UIFailure {
            throw failure
        } catch {
            throw UIFailure(
                .other, message: "Cannot write \(TerminalText.escaped(url.path)): \(error.localizedDescription)")
        }
    }

    /// The file `path` names (`~` is the home folder; relative to the current folder), after
    /// checking it can be written.
    static func destination(_ path: String, replacing: Bool) throws(UIFailure) -> URL {
        let expanded = LocalPath.expand(path)
        let url = URL(fileURLWithPath: expanded)
        var isFolder: ObjCBool = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isFolder) {
            if isFolder.boolValue {
                throw UIFailure(.other, message: "\(TerminalText.escaped(path)) is a folder: name a file in it")
            }
            if !replacing {
                throw UIFailure(.fileExists(path: url.path), message: "\(TerminalText.escaped(path)) exists already")
            }
        }
        let folder = url.deletingLastPathComponent().path
        guard FileManager.default.fileExists(atPath: folder, isDirectory: &isFolder), isFolder.boolValue else {
            throw UIFailure(.other, message: "there is no folder \(TerminalText.escaped(folder))")
        }
        guard FileManager.default.isWritableFile(atPath: folder) else {
            throw UIFailure(.other, message: "the folder \(TerminalText.escaped(folder)) cannot be written to")
        }
        return url
    }

    /// The file's bytes.
    static func encode(_ cards: [Card], photos: [VCardPhoto?], format: ExportFormat) throws -> [UInt8] {
        switch format {
        case .vcard3, .vcard4:
            let writer = VCardWriter(version: format == .vcard4 ? .v40 : .v30)
            var out: [UInt8] = []
            for (card, photo) in zip(cards, photos) { writer.append(card, photo: photo, to: &out) }
            return out
        case .csv:
            return Array((GoogleCSV.headerLine + cards.map(GoogleCSV.row).joined()).utf8)
        case .json:
            let encoder = CardWalletJSON.encoder()
            encoder.outputFormatting.insert(.prettyPrinted)
            return Array(try encoder.encode(cards)) + [0x0A]
        }
    }

    /// The photo of a card with an image, or `nil`; an image that is neither PNG nor JPEG is left
    /// out, and so is one the cache does not hold when offline.
    static func photo(of card: Card, wallet: CachedWallet, offline: Bool) async throws -> VCardPhoto? {
        guard card.hasImage else { return nil }
        let image: CardImage
        do {
            image = try await wallet.image(of: card, offline: offline).value
        } catch is OfflineReadError {
            return nil
        }
        guard let format = CardImageFormat(sniffing: image.data) else { return nil }
        return VCardPhoto(bytes: [UInt8](image.data), format: format)
    }
}

extension ExportFormat {
    /// Whether the file holds the cards' pictures (vCard's `PHOTO`).
    var carriesPhotos: Bool { self == .vcard3 || self == .vcard4 }
}
